/*
 * Minimal C reference of one plate-ball Newton step (spec 003 §8.2 "Newton solver for one step"),
 * a port of PlateBall.stepForward in packages/groupoid/src/plateBall.ts:
 *
 *   target z = F⁺(g_k, λ_k) = (P⁺, Π⁺); unknowns u = (x', y', δ (3), λ' (3)), R' ← R'·exp(δ̂);
 *   residual r(u) = [P⁻(g', λ') − P⁺; Π⁻(g', λ') − Π⁺; φ(g')/h] (8), the analytic 8×8 Jacobian
 *   (rows [P⁻, Π⁻, φ/h], columns [x', y', ρ, λ'] of the element Jacobian), an 8×8 LU solve with
 *   partial pivoting, converged when ‖r‖∞ ≤ 1e-14·max(1, ‖z‖∞) or when an update no longer
 *   changes the iterate (|du|∞ ≤ 4ε·max(1, |x|, |λ|)); guess x' = 2x_k − x_{k−1}, R' = τ_skew of
 *   R_k's sine vector, λ' = λ_k; branch check tr R' > 1.
 *
 * With w = (−rλ1, rλ2, σ3λ3), s = vee((R − Rᵀ)/2), t = tr R, d = (r, −r, −σ3), a = hΩ/2:
 *   P⁻ = (Δx/h + aλ1 + λ2, Δy/h + λ1 − aλ2),  Π⁻ = −½(tI − Rᵀ)w,
 *   P⁺ = (Δx/h − aλ1 + λ2, Δy/h + λ1 + aλ2),  Π⁺ = −½(tI − R)w,
 *   φ = (Δy + r s1 − hΩx̄, Δx − r s2 + hΩȳ, σ3(hc − s3)),
 *   ∂Π⁻/∂ρ = w sᵀ + ½(Rᵀw)^, ∂Π⁻/∂λ = ½(tI − Rᵀ)D, ∂φ/∂ρ = D·½(tI − Rᵀ), D = diag(d).
 *
 * Problem (spec 003 S5): h = 0.05, r = 1, Ω = 0.7, c = 0.3, σ3 = 1, g_1 from (0, 0) to
 * (0.02, 0.01) with R_1 = τ_skew(s) from (8), λ_1 = (0.5, −0.4, 0.3); runs of `steps` forward
 * steps restarted from g_1, like bench/js/groupoid.mjs.
 *
 * Usage: plateball_step [steps per run = 200] [runs = 20000] [reps = 7]
 * Prints {"nsPerStep", "min", "max" (wall time, CLOCK_MONOTONIC), "cpuNsPerStep", "cpuMin", "cpuMax"
 * (CPU time of the process, CLOCK_PROCESS_CPUTIME_ID), "iterations" (total of one batch), "x",
 * "y", "lambda3" (final state of a run)}.
 */
#define _POSIX_C_SOURCE 199309L
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define STEP_TOL 1e-14
#define STEP_MAX_ITERATIONS 25
#define STEP_STAGNATION (4 * DBL_EPSILON)

typedef struct {
  double h, r, Omega, c, s3;
  double tgt[5], res[8], jac[64], lu[64], du[8];
  int piv[8];
} PlateBall;

/* element g: x0 y0 x1 y1, R row-major at g[4..12] */
#define R_(g, i, j) ((g)[4 + 3 * (i) + (j)])

static void tau_skew(double *R, const double *s) {
  const double s0 = s[0], s1 = s[1], s2 = s[2];
  const double c = sqrt(1 - (s0 * s0 + s1 * s1 + s2 * s2));
  const double k = 1 / (1 + c);
  R[0] = c + k * s0 * s0;
  R[1] = k * s0 * s1 - s2;
  R[2] = k * s0 * s2 + s1;
  R[3] = k * s1 * s0 + s2;
  R[4] = c + k * s1 * s1;
  R[5] = k * s1 * s2 - s0;
  R[6] = k * s2 * s0 - s1;
  R[7] = k * s2 * s1 + s0;
  R[8] = c + k * s2 * s2;
}

static void exp_so3(double *E, const double *v) {
  const double v0 = v[0], v1 = v[1], v2 = v[2];
  const double t2 = v0 * v0 + v1 * v1 + v2 * v2;
  double a, b, c;
  if (t2 < 1e-8) {
    a = 1 - t2 / 2 + (t2 * t2) / 24;
    b = 1 - t2 / 6 + (t2 * t2) / 120;
    c = 0.5 - t2 / 24 + (t2 * t2) / 720;
  } else {
    const double t = sqrt(t2);
    a = cos(t);
    b = sin(t) / t;
    c = (1 - a) / t2;
  }
  E[0] = a + c * v0 * v0;
  E[1] = c * v0 * v1 - b * v2;
  E[2] = c * v0 * v2 + b * v1;
  E[3] = c * v1 * v0 + b * v2;
  E[4] = a + c * v1 * v1;
  E[5] = c * v1 * v2 - b * v0;
  E[6] = c * v2 * v0 - b * v1;
  E[7] = c * v2 * v1 + b * v0;
  E[8] = a + c * v2 * v2;
}

static void rotation_from_constraints(const PlateBall *pb, double *g) {
  double v[3];
  v[0] = -(g[3] - g[1] - 0.5 * pb->h * pb->Omega * (g[0] + g[2])) / pb->r;
  v[1] = (g[2] - g[0] + 0.5 * pb->h * pb->Omega * (g[1] + g[3])) / pb->r;
  v[2] = pb->h * pb->c;
  if (!(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] < 1)) {
    fprintf(stderr, "initial increment off the branch\n");
    exit(2);
  }
  tau_skew(g + 4, v);
}

/* out (5) ← F⁺(g, λ) */
static void legendre_plus(const PlateBall *pb, double *out, const double *g, const double *lam) {
  const double h = pb->h, a = 0.5 * h * pb->Omega, l1 = lam[0], l2 = lam[1];
  out[0] = (g[2] - g[0]) / h - a * l1 + l2;
  out[1] = (g[3] - g[1]) / h + l1 + a * l2;
  const double w0 = -pb->r * lam[0], w1 = pb->r * lam[1], w2 = pb->s3 * lam[2];
  const double t = g[4] + g[8] + g[12];
  for (int i = 0; i < 3; i++) {
    const double rw = R_(g, i, 0) * w0 + R_(g, i, 1) * w1 + R_(g, i, 2) * w2;
    const double wi = i == 0 ? w0 : i == 1 ? w1 : w2;
    out[2 + i] = -0.5 * (t * wi - rw);
  }
}

/* res ← [P⁻(g, λ) − tgt; φ(g)/h]; returns ‖res‖∞ (NaN propagates) */
static double forward_residual(PlateBall *pb, const double *g, const double *lam) {
  const double h = pb->h, a = 0.5 * h * pb->Omega, l1 = lam[0], l2 = lam[1];
  double *res = pb->res;
  res[0] = (g[2] - g[0]) / h + a * l1 + l2 - pb->tgt[0];
  res[1] = (g[3] - g[1]) / h + l1 - a * l2 - pb->tgt[1];
  const double w0 = -pb->r * lam[0], w1 = pb->r * lam[1], w2 = pb->s3 * lam[2];
  const double t = g[4] + g[8] + g[12];
  for (int i = 0; i < 3; i++) {
    const double rtw = R_(g, 0, i) * w0 + R_(g, 1, i) * w1 + R_(g, 2, i) * w2;
    const double wi = i == 0 ? w0 : i == 1 ? w1 : w2;
    res[2 + i] = -0.5 * (t * wi - rtw) - pb->tgt[2 + i];
  }
  const double s1 = 0.5 * (R_(g, 2, 1) - R_(g, 1, 2));
  const double s2 = 0.5 * (R_(g, 0, 2) - R_(g, 2, 0));
  const double s3 = 0.5 * (R_(g, 1, 0) - R_(g, 0, 1));
  const double ih = 1 / h;
  res[5] = (g[3] - g[1] + pb->r * s1 - 0.5 * h * pb->Omega * (g[0] + g[2])) * ih;
  res[6] = (g[2] - g[0] - pb->r * s2 + 0.5 * h * pb->Omega * (g[1] + g[3])) * ih;
  res[7] = pb->s3 * (h * pb->c - s3) * ih;
  double m = 0;
  for (int i = 0; i < 8; i++) {
    const double v = fabs(res[i]);
    if (!(v <= m)) m = v;
  }
  return m;
}

/* jac (8×8) ← ∂res/∂u at δ = 0 */
static void step_jacobian(PlateBall *pb, const double *g, const double *lam) {
  double *J = pb->jac;
  const double h = pb->h, ih = 1 / h, a = 0.5 * h * pb->Omega, r = pb->r;
  const double w[3] = {-r * lam[0], r * lam[1], pb->s3 * lam[2]};
  const double d[3] = {r, -r, -pb->s3};
  const double s[3] = {0.5 * (R_(g, 2, 1) - R_(g, 1, 2)), 0.5 * (R_(g, 0, 2) - R_(g, 2, 0)),
                       0.5 * (R_(g, 1, 0) - R_(g, 0, 1))};
  const double t = g[4] + g[8] + g[12];
  double rtw[3];
  for (int i = 0; i < 3; i++) rtw[i] = R_(g, 0, i) * w[0] + R_(g, 1, i) * w[1] + R_(g, 2, i) * w[2];
  /* (Rᵀw)^ */
  const double H[9] = {0, -rtw[2], rtw[1], rtw[2], 0, -rtw[0], -rtw[1], rtw[0], 0};
  memset(J, 0, sizeof pb->jac);
  J[0 * 8 + 0] = ih;
  J[0 * 8 + 5] = a;
  J[0 * 8 + 6] = 1;
  J[1 * 8 + 1] = ih;
  J[1 * 8 + 5] = 1;
  J[1 * 8 + 6] = -a;
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      const double m = 0.5 * ((i == j ? t : 0) - R_(g, j, i)); /* ½(tI − Rᵀ)_ij */
      J[(2 + i) * 8 + 2 + j] = w[i] * s[j] + 0.5 * H[3 * i + j];
      J[(2 + i) * 8 + 5 + j] = m * d[j];
      J[(5 + i) * 8 + 2 + j] = d[i] * m * ih;
    }
  }
  J[5 * 8 + 0] = -0.5 * pb->Omega;
  J[5 * 8 + 1] = ih;
  J[6 * 8 + 0] = ih;
  J[6 * 8 + 1] = 0.5 * pb->Omega;
}

static int lu_factor8(double *lu, const double *a, int *piv) {
  const int n = 8;
  int singular = -1;
  memcpy(lu, a, 64 * sizeof(double));
  for (int k = 0; k < n; k++) {
    int p = k;
    double maxAbs = fabs(lu[k * n + k]);
    for (int i = k + 1; i < n; i++) {
      const double v = fabs(lu[i * n + k]);
      if (v > maxAbs) {
        maxAbs = v;
        p = i;
      }
    }
    piv[k] = p;
    if (maxAbs == 0) {
      if (singular < 0) singular = k;
      continue;
    }
    if (p != k)
      for (int j = 0; j < n; j++) {
        const double t = lu[k * n + j];
        lu[k * n + j] = lu[p * n + j];
        lu[p * n + j] = t;
      }
    const double pivot = lu[k * n + k];
    for (int i = k + 1; i < n; i++) {
      const double l = lu[i * n + k] / pivot;
      lu[i * n + k] = l;
      if (l != 0)
        for (int j = k + 1; j < n; j++) lu[i * n + j] -= l * lu[k * n + j];
    }
  }
  return singular;
}

static void lu_solve8(const double *lu, const int *piv, double *b) {
  const int n = 8;
  for (int k = 0; k < n; k++) {
    const int p = piv[k];
    if (p != k) {
      const double t = b[k];
      b[k] = b[p];
      b[p] = t;
    }
  }
  for (int i = 1; i < n; i++) {
    double s = b[i];
    for (int j = 0; j < i; j++) s -= lu[i * n + j] * b[j];
    b[i] = s;
  }
  for (int i = n - 1; i >= 0; i--) {
    double s = b[i];
    for (int j = i + 1; j < n; j++) s -= lu[i * n + j] * b[j];
    b[i] = s / lu[i * n + i];
  }
}

/* One forward step in place; returns the Newton iterations. Exits on failure. */
static int step_forward(PlateBall *pb, double *g, double *lam) {
  legendre_plus(pb, pb->tgt, g, lam);
  const double x1 = g[2], y1 = g[3];
  g[2] = 2 * x1 - g[0];
  g[3] = 2 * y1 - g[1];
  g[0] = x1;
  g[1] = y1;
  /* re-project the guess rotation through its sine vector */
  {
    double v[3] = {0.5 * (R_(g, 2, 1) - R_(g, 1, 2)), 0.5 * (R_(g, 0, 2) - R_(g, 2, 0)),
                   0.5 * (R_(g, 1, 0) - R_(g, 0, 1))};
    if (v[0] * v[0] + v[1] * v[1] + v[2] * v[2] < 1 && g[4] + g[8] + g[12] > 1) tau_skew(g + 4, v);
  }
  double tn = 0;
  for (int i = 0; i < 5; i++) {
    const double v = fabs(pb->tgt[i]);
    if (!(v <= tn)) tn = v;
  }
  const double tolAbs = STEP_TOL * fmax(1, tn);
  int it = 0;
  for (;;) {
    const double rn = forward_residual(pb, g, lam);
    if (!isfinite(rn)) {
      fprintf(stderr, "non-finite residual\n");
      exit(2);
    }
    if (rn <= tolAbs) break;
    if (it >= STEP_MAX_ITERATIONS) {
      fprintf(stderr, "Newton did not converge\n");
      exit(2);
    }
    step_jacobian(pb, g, lam);
    if (lu_factor8(pb->lu, pb->jac, pb->piv) >= 0) {
      fprintf(stderr, "singular Jacobian\n");
      exit(2);
    }
    for (int i = 0; i < 8; i++) pb->du[i] = -pb->res[i];
    lu_solve8(pb->lu, pb->piv, pb->du);
    it++;
    const double *du = pb->du;
    g[2] += du[0];
    g[3] += du[1];
    double E[9], T[9];
    exp_so3(E, du + 2);
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        T[3 * i + j] = R_(g, i, 0) * E[j] + R_(g, i, 1) * E[3 + j] + R_(g, i, 2) * E[6 + j];
    memcpy(g + 4, T, sizeof T);
    lam[0] += du[5];
    lam[1] += du[6];
    lam[2] += du[7];
    double scale = 1, m = 0;
    for (int i = 0; i < 4; i++) scale = fmax(scale, fabs(g[i]));
    for (int i = 0; i < 3; i++) scale = fmax(scale, fabs(lam[i]));
    for (int i = 0; i < 8; i++) {
      const double v = fabs(du[i]);
      if (!(v <= m)) m = v;
    }
    if (m <= STEP_STAGNATION * scale) {
      forward_residual(pb, g, lam);
      break;
    }
  }
  if (!(g[4] + g[8] + g[12] > 1)) {
    fprintf(stderr, "left the near-identity branch\n");
    exit(2);
  }
  return it;
}

static int cmp(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double cpuNow(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

int main(int argc, char **argv) {
  const int steps = argc > 1 ? atoi(argv[1]) : 200;
  const long runs = argc > 2 ? atol(argv[2]) : 20000;
  const int reps = argc > 3 ? atoi(argv[3]) : 7;
  if (steps < 1 || runs < 1 || reps < 1 || reps > 100) {
    fprintf(stderr, "usage: %s [steps] [runs] [reps <= 100]\n", argv[0]);
    return 1;
  }
  PlateBall pb = {.h = 0.05, .r = 1, .Omega = 0.7, .c = 0.3, .s3 = 1};
  double g1[13] = {0, 0, 0.02, 0.01};
  rotation_from_constraints(&pb, g1);
  const double lam1[3] = {0.5, -0.4, 0.3};
  double g[13], lam[3];
  double ns[100], cpu[100];
  long iterations = 0;
  for (int rep = -1; rep < reps; rep++) { /* rep -1 warms up */
    iterations = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    const double c0 = cpuNow();
    for (long run = 0; run < runs; run++) {
      memcpy(g, g1, sizeof g);
      memcpy(lam, lam1, sizeof lam);
      for (int k = 0; k < steps; k++) iterations += step_forward(&pb, g, lam);
    }
    const double c1 = cpuNow();
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (rep >= 0) {
      ns[rep] = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) /
                ((double)runs * steps);
      cpu[rep] = (c1 - c0) / ((double)runs * steps);
    }
  }
  qsort(ns, reps, sizeof ns[0], cmp);
  qsort(cpu, reps, sizeof cpu[0], cmp);
  const double med = reps % 2 ? ns[reps / 2] : 0.5 * (ns[reps / 2 - 1] + ns[reps / 2]);
  const double cmed = reps % 2 ? cpu[reps / 2] : 0.5 * (cpu[reps / 2 - 1] + cpu[reps / 2]);
  printf("{ \"nsPerStep\": %.3f, \"min\": %.3f, \"max\": %.3f, \"cpuNsPerStep\": %.3f, \"cpuMin\": %.3f, "
         "\"cpuMax\": %.3f, \"iterations\": %ld, \"runs\": %ld, \"steps\": %d, \"x\": %.17g, \"y\": %.17g, "
         "\"lambda3\": %.17g }\n",
         med, ns[0], ns[reps - 1], cmed, cpu[0], cpu[reps - 1], iterations, runs, steps, g[2], g[3], lam[2]);
  return 0;
}
