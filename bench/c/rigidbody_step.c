/*
 * Reference C implementation of one step of RigidBodyStepper (packages/groupoid/src/rigidBody.ts
 * and rigidBodyNewton.ts): the free rigid body on SO(3), l(xi) = xi^T I xi / 2 with
 * I = diag(I1, I2, I3), discrete Lie-Poisson with tau = Cayley or exp (spec 003 section 8.1, S3).
 *
 *   G_{k+1} = G_k tau(h xi_{k+1})                                           (6.1-c)
 *   (dtau^{-1}_{-h xi_{k+2}})^T I xi_{k+2} = (dtau^{-1}_{h xi_{k+1}})^T I xi_{k+1}   (6.1-e)
 *
 * solved for xi_{k+2} by Newton's method from xi_{k+1} with the analytic 3x3 Jacobian
 * (dtau^{-1}_{s xi})^T I + s D(s xi, I xi), LU with partial pivoting, and core's NewtonSolver
 * stopping rule with lineSearch: stop when |F|_inf <= 1e-14 (before a step or after one), or after
 * a full step with |dx|_inf <= 4 eps max(1, |x|_inf); otherwise backtrack lambda = 1, 1/2, ... >= 2^-20
 * until |F(x + lambda dx)|_2 <= sqrt(1 - 2e-4 lambda) |F(x)|_2; a Jacobian with exact kappa_1 >= 1/eps
 * is singular; 50 iterations at most.
 *
 * The arithmetic is written in the same order as the TypeScript so that, compiled without FMA
 * contraction (-ffp-contract=off), both produce the same iterates (Cayley: bit for bit; exp: up to
 * libm's sin/cos/tan against V8's).
 *
 * Usage: rigidbody_step MAP STEPS_PER_RUN RUNS [reps = 7]   (MAP = cayley | exp)
 * Prints {"nsPerStep": median, "min", "max", "cpuNsPerStep": median, "cpuMin", "cpuMax", "xi": [...],
 * "G": [...], "iterations"} for RUNS runs of STEPS_PER_RUN steps (wall time, CLOCK_MONOTONIC, and
 * CPU time of the process, CLOCK_PROCESS_CPUTIME_ID, per step over each rep) from G_0 = I, xi_1 = (0.8, -0.5, 0.3), h = 0.1, I = diag(1, 2, 3); the
 * state and "iterations" are those of the last run (iterations summed over its steps).
 * With RUNS = 1 and reps = 0 it makes STEPS_PER_RUN steps once, untimed: the whole-process
 * yardstick of `geomech simulate rigid-body --steps N --every N` (README.md, "whole process").
 */
#define _POSIX_C_SOURCE 199309L
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TOL 1e-14
#define STEP_TOL (4 * DBL_EPSILON)
#define MAX_IT 50
#define ARMIJO 1e-4
#define MIN_LS (1.0 / 1048576.0)
#define SMALL_ANGLE 1e-4
#define DEXP_SERIES_ANGLE 0.5

static const double DEXP_C[7] = {1.0 / 12,        1.0 / 720,           1.0 / 30240,        1.0 / 1209600,
                                 1.0 / 47900160, 691.0 / 1307674368000, 7.0 / 523069747200};

typedef struct {
  double I[3];
  double h;
  int exp;
  double tgt[3];
  /* scratch of the last prepare() */
  double xs[3], w[3], M[9];
} Body;

static void fail(const char *what) {
  fprintf(stderr, "%s\n", what);
  exit(2);
}

/* xs = s v, w = I v, M = dtau^{-1}_{xs} = a I + b xs^ + c xs xs^T (core's axisForm3). */
static void prepare(Body *b, const double *v, double s) {
  const double v0 = v[0], v1 = v[1], v2 = v[2];
  b->w[0] = b->I[0] * v0;
  b->w[1] = b->I[1] * v1;
  b->w[2] = b->I[2] * v2;
  const double x0 = s * v0, x1 = s * v1, x2 = s * v2;
  b->xs[0] = x0;
  b->xs[1] = x1;
  b->xs[2] = x2;
  double a = 1, c = 0.25;
  if (b->exp) {
    const double t = sqrt(x0 * x0 + x1 * x1 + x2 * x2);
    if (t < SMALL_ANGLE) {
      const double t2 = t * t;
      a = 1 - (t2 / 12) * (1 + t2 / 60);
      c = 1.0 / 12 + (t2 / 720) * (1 + t2 / 42);
    } else {
      const double hh = 0.5 * t;
      a = (hh * cos(hh)) / sin(hh);
      c = (1 - a) / (t * t);
    }
  }
  const double bb = 0.5;
  const double cx0 = c * x0, cx1 = c * x1, cx2 = c * x2;
  double *M = b->M;
  M[0] = a + cx0 * x0;
  M[1] = cx0 * x1 - bb * x2;
  M[2] = cx0 * x2 + bb * x1;
  M[3] = cx1 * x0 + bb * x2;
  M[4] = a + cx1 * x1;
  M[5] = cx1 * x2 - bb * x0;
  M[6] = cx2 * x0 - bb * x1;
  M[7] = cx2 * x1 + bb * x0;
  M[8] = a + cx2 * x2;
}

/* out = M^T w - tgt (tgt = 0 for the momentum itself). */
static void momentum(Body *b, double *out, const double *v, double s, const double *tgt) {
  prepare(b, v, s);
  for (int i = 0; i < 3; i++) {
    double acc = 0;
    for (int k = 0; k < 3; k++) acc += b->M[k * 3 + i] * b->w[k];
    out[i] = tgt ? acc - tgt[i] : acc;
  }
}

static void jacobian(Body *b, double *J, const double *v, double s) {
  prepare(b, v, s);
  const double *x = b->xs, *w = b->w;
  const double xw = x[0] * w[0] + x[1] * w[1] + x[2] * w[2];
  double D[9] = {0, -0.5 * w[2], 0.5 * w[1], 0.5 * w[2], 0, -0.5 * w[0], -0.5 * w[1], 0.5 * w[0], 0};
  if (!b->exp) {
    for (int i = 0; i < 3; i++) {
      const double xi = x[i];
      for (int j = 0; j < 3; j++) D[i * 3 + j] = D[i * 3 + j] + 0.25 * xi * w[j];
      D[i * 4] = D[i * 4] + 0.25 * xw;
    }
  } else {
    const double s2 = x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
    double c = 0, dc = 0;
    const double theta = sqrt(s2);
    if (theta < DEXP_SERIES_ANGLE) {
      for (int j = 6; j >= 0; j--) {
        c = c * s2 + DEXP_C[j];
        if (j > 0) dc = dc * s2 + j * DEXP_C[j];
      }
    } else {
      const double u = theta / 2;
      const double ucot = u / tan(u);
      const double sn = sin(u);
      c = (1 - ucot) / s2;
      dc = (ucot + (u * u) / (sn * sn) - 2) / (32 * u * u * u * u);
    }
    const double dc2 = 2 * dc;
    for (int i = 0; i < 3; i++) {
      const double xi = x[i], wi = w[i];
      const double vi = xi * xw - s2 * wi;
      for (int j = 0; j < 3; j++) D[i * 3 + j] = D[i * 3 + j] + dc2 * vi * x[j] + c * (xi * w[j] - 2 * wi * x[j]);
      D[i * 4] = D[i * 4] + c * xw;
    }
  }
  /* (M^T H)_{ij} with H = diag(I): 0 + M_ji I_j, as the TypeScript */
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      const double acc = 0 + b->M[j * 3 + i] * b->I[j];
      J[i * 3 + j] = acc + s * D[i * 3 + j];
    }
}

static double cond1(const double *A) {
  const double a = A[0], b = A[1], c = A[2], d = A[3], e = A[4], f = A[5], g = A[6], h = A[7], i = A[8];
  const double c00 = e * i - f * h, c01 = f * g - d * i, c02 = d * h - e * g;
  const double c10 = c * h - b * i, c11 = a * i - c * g, c12 = b * g - a * h;
  const double c20 = b * f - c * e, c21 = c * d - a * f, c22 = a * e - b * d;
  const double det = a * c00 + b * c01 + c * c02;
  const double n1 = fmax(fmax(fabs(a) + fabs(d) + fabs(g), fabs(b) + fabs(e) + fabs(h)), fabs(c) + fabs(f) + fabs(i));
  const double inv1 = fmax(fmax(fabs(c00) + fabs(c01) + fabs(c02), fabs(c10) + fabs(c11) + fabs(c12)),
                           fabs(c20) + fabs(c21) + fabs(c22));
  return det == 0 ? INFINITY : (n1 * inv1) / fabs(det);
}

/* LU with partial pivoting in place (core's luFactorInPlace), then solve for dx in place. */
static void lu_solve(double *J, double *dx) {
  int piv[3];
  for (int c = 0; c < 3; c++) {
    int p = c;
    double maxAbs = fabs(J[c * 3 + c]);
    for (int i = c + 1; i < 3; i++) {
      const double v = fabs(J[i * 3 + c]);
      if (v > maxAbs) {
        maxAbs = v;
        p = i;
      }
    }
    piv[c] = p;
    if (maxAbs == 0 || isnan(maxAbs)) fail("singular Jacobian");
    if (p != c)
      for (int j = 0; j < 3; j++) {
        const double t = J[c * 3 + j];
        J[c * 3 + j] = J[p * 3 + j];
        J[p * 3 + j] = t;
      }
    const double pivot = J[c * 3 + c];
    for (int i = c + 1; i < 3; i++) {
      const double l = J[i * 3 + c] / pivot;
      J[i * 3 + c] = l;
      if (l != 0)
        for (int j = c + 1; j < 3; j++) J[i * 3 + j] = J[i * 3 + j] - l * J[c * 3 + j];
    }
  }
  for (int k = 0; k < 3; k++)
    if (piv[k] != k) {
      const double t = dx[k];
      dx[k] = dx[piv[k]];
      dx[piv[k]] = t;
    }
  for (int i = 1; i < 3; i++) {
    double s = dx[i];
    for (int j = 0; j < i; j++) s -= J[i * 3 + j] * dx[j];
    dx[i] = s;
  }
  for (int i = 2; i >= 0; i--) {
    double s = dx[i];
    for (int j = i + 1; j < 3; j++) s -= J[i * 3 + j] * dx[j];
    dx[i] = s / J[i * 4];
  }
}

static double norm_inf(const double *v) {
  double m = 0;
  for (int i = 0; i < 3; i++) {
    const double a = fabs(v[i]);
    if (!(a <= m)) m = a;
  }
  return m;
}

static double norm2(const double *v) {
  if (!isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2])) return NAN;
  const double scale = norm_inf(v);
  if (scale == 0) return 0;
  double s = 0;
  for (int i = 0; i < 3; i++) {
    const double t = v[i] / scale;
    s += t * t;
  }
  return scale * sqrt(s);
}

/* xi <- the solution of (6.1-e) from xi; returns the Newton iterations. */
static int newton(Body *b, double *xi) {
  const double h = b->h;
  double x[3] = {xi[0], xi[1], xi[2]}, f[3], xt[3], ft[3], dx[3], J[9];
  momentum(b, b->tgt, x, h, NULL);
  momentum(b, f, x, -h, b->tgt);
  double r = norm_inf(f);
  if (!isfinite(r)) fail("non-finite F(x0)");
  double xNorm = norm_inf(x);
  int k = 0;
  for (;;) {
    if (r <= TOL) break;
    if (k >= MAX_IT) fail("Newton did not converge");
    jacobian(b, J, x, -h);
    for (int i = 0; i < 9; i++)
      if (!isfinite(J[i])) fail("non-finite J");
    if (!(cond1(J) < 1 / DBL_EPSILON)) fail("singular Jacobian");
    for (int i = 0; i < 3; i++) dx[i] = -f[i];
    lu_solve(J, dx);
    k++;
    const double dxNorm = norm_inf(dx);
    if (!isfinite(dxNorm)) fail("non-finite step");
    if (STEP_TOL * fmax(1, xNorm) >= dxNorm) {
      for (int i = 0; i < 3; i++) x[i] = x[i] + dx[i];
      xNorm = norm_inf(x);
      momentum(b, f, x, -h, b->tgt);
      r = norm_inf(f);
      if (!isfinite(r)) fail("non-finite residual");
      if (r > TOL) break;
      continue;
    }
    const double phi = norm2(f);
    double lambda = 1;
    int accepted = 0;
    while (lambda >= MIN_LS) {
      for (int i = 0; i < 3; i++) xt[i] = x[i] + lambda * dx[i];
      if (isfinite(xt[0]) && isfinite(xt[1]) && isfinite(xt[2])) {
        momentum(b, ft, xt, -h, b->tgt);
        if (norm2(ft) <= sqrt(1 - 2 * ARMIJO * lambda) * phi) {
          accepted = 1;
          break;
        }
      }
      lambda *= 0.5;
    }
    if (!accepted) fail("line search failed");
    memcpy(x, xt, sizeof x);
    memcpy(f, ft, sizeof f);
    xNorm = norm_inf(x);
    r = norm_inf(f);
  }
  memcpy(xi, x, sizeof x);
  return k;
}

/* g = tau(h xi): cay(x) = axisForm3(x, (4 - |x|^2)k, 4k, 2k), k = 1/(4 + |x|^2); exp by Rodrigues. */
static void increment(const Body *b, double *g, const double *xi) {
  const double x0 = b->h * xi[0], x1 = b->h * xi[1], x2 = b->h * xi[2];
  double a, bb, c;
  if (!b->exp) {
    const double n2 = x0 * x0 + x1 * x1 + x2 * x2;
    const double k = 1 / (4 + n2);
    a = (4 - n2) * k;
    bb = 4 * k;
    c = 2 * k;
  } else {
    /* SO3.exp: axisForm3(x, cos t, sinc t, cosc t) (Rodrigues), series below SMALL_ANGLE */
    const double t = sqrt(x0 * x0 + x1 * x1 + x2 * x2);
    a = cos(t);
    if (t < SMALL_ANGLE) {
      const double t2 = t * t;
      bb = 1 - (t2 / 6) * (1 - t2 / 20);
      c = 0.5 - (t2 / 24) * (1 - t2 / 30);
    } else {
      bb = sin(t) / t;
      const double sh = sin(0.5 * t) / t;
      c = 2 * sh * sh;
    }
  }
  const double cx0 = c * x0, cx1 = c * x1, cx2 = c * x2;
  g[0] = a + cx0 * x0;
  g[1] = cx0 * x1 - bb * x2;
  g[2] = cx0 * x2 + bb * x1;
  g[3] = cx1 * x0 + bb * x2;
  g[4] = a + cx1 * x1;
  g[5] = cx1 * x2 - bb * x0;
  g[6] = cx2 * x0 - bb * x1;
  g[7] = cx2 * x1 + bb * x0;
  g[8] = a + cx2 * x2;
}

/* core's mul3: out_ij = a_i0 b_0j + a_i1 b_1j + a_i2 b_2j (out may alias a) */
static void mul3(double *out, const double *a, const double *b) {
  double t[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) t[i * 3 + j] = a[i * 3] * b[j] + a[i * 3 + 1] * b[3 + j] + a[i * 3 + 2] * b[6 + j];
  memcpy(out, t, sizeof t);
}

/* One step of RigidBodyStepper: G <- G tau(h xi), xi <- (6.1-e). */
static int step(Body *b, double *G, double *xi) {
  double g[9];
  increment(b, g, xi);
  mul3(G, G, g);
  return newton(b, xi);
}

/* bench/c/rigidbody_run.c includes this file for its step, with its own main */
#ifndef RIGIDBODY_STEP_NO_MAIN
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
  if (argc < 4) {
    fprintf(stderr, "usage: %s cayley|exp STEPS_PER_RUN RUNS [reps <= 100]\n", argv[0]);
    return 1;
  }
  Body b = {{1, 2, 3}, 0.1, strcmp(argv[1], "exp") == 0};
  const long steps = atol(argv[2]);
  const long runs = atol(argv[3]);
  int reps = argc > 4 ? atoi(argv[4]) : 7;
  if (steps < 1 || runs < 1 || reps < 0 || reps > 100) return 1;
  double ns[100], cpu[100];
  double G[9] = {0}, xi[3] = {0};
  long iterations = 0;
  /* reps = 0: one untimed pass (the whole-process comparison), else a warm-up pass and reps timed */
  for (int rep = reps == 0 ? 0 : -1; rep < (reps == 0 ? 1 : reps); rep++) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    const double c0 = cpuNow();
    for (long r = 0; r < runs; r++) {
      const double G0[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
      memcpy(G, G0, sizeof G);
      xi[0] = 0.8;
      xi[1] = -0.5;
      xi[2] = 0.3;
      iterations = 0;
      for (long k = 0; k < steps; k++) iterations += step(&b, G, xi);
    }
    const double c1 = cpuNow();
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (rep >= 0 && reps > 0) {
      ns[rep] = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / (double)(steps * runs);
      cpu[rep] = (c1 - c0) / (double)(steps * runs);
    }
  }
  if (reps == 0) {
    ns[0] = 0;
    cpu[0] = 0;
    reps = 1;
  }
  qsort(ns, reps, sizeof ns[0], cmp);
  qsort(cpu, reps, sizeof cpu[0], cmp);
  const double med = reps % 2 ? ns[reps / 2] : 0.5 * (ns[reps / 2 - 1] + ns[reps / 2]);
  const double cmed = reps % 2 ? cpu[reps / 2] : 0.5 * (cpu[reps / 2 - 1] + cpu[reps / 2]);
  printf("{ \"nsPerStep\": %.3f, \"min\": %.3f, \"max\": %.3f, \"cpuNsPerStep\": %.3f, \"cpuMin\": %.3f, "
         "\"cpuMax\": %.3f, \"xi\": [%.17g, %.17g, %.17g], "
         "\"G\": [%.17g, %.17g, %.17g, %.17g, %.17g, %.17g, %.17g, %.17g, %.17g], \"iterations\": %ld }\n",
         med, ns[0], ns[reps - 1], cmed, cpu[0], cpu[reps - 1], xi[0], xi[1], xi[2], G[0], G[1], G[2], G[3],
         G[4], G[5], G[6], G[7], G[8], iterations);
  return 0;
}
#endif
