/*
 * Minimal C reference of one SO(3) Lie-group variational integrator step (Lee–Leok–McClamroch,
 * trapezoidal potential), a port of So3LgviStepper.step in packages/groupoid/src/lgvi.ts:
 *
 *   g = Π_k + (h/2)(M_k + u_k);  solve vee(F J_d − J_d Fᵀ) = h g for F (L4) by Newton with the
 *   update F ← F·cay(Δ), scaled residual r = (vee(F J_d − J_d Fᵀ) − h g)/tr J, Jacobian
 *   (tr(F J_d) F − F J_d F)/tr J, 3×3 LU with partial pivoting; stopping rule of core's
 *   NewtonSolver as the stepper configures it: ‖r‖∞ ≤ ε, or a step ‖Δ‖∞ ≤ 4ε·max(1, ‖F‖∞), or a
 *   stall (ε < ‖r‖∞ ≤ 1e-14 and not halved), at most 20 iterations; guess F = cay(h J⁻¹ g);
 *   R_{k+1} = R_k F (L5); Π_{k+1} = Fᵀ g + (h/2)(M_{k+1} + u_k) (L6).
 *
 * Systems: 'heavy-top' (J = (1, 1, 2), m g = 9.81, ρ = (0, 0, 0.5), M = m g (Rᵀe₃) × ρ, u = 0,
 * R_0 = Exp(0.3 e₁), Ω_0 = (0, 0, 20), h = 0.01) and 'forced' (J = (1, 2, 3), no potential,
 * u_k = (0.1 sin t_k, 0.2 cos t_k, 0.05), R_0 = I, Ω_0 = (0.8, −0.5, 0.3), h = 0.01); runs of
 * `steps` steps restarted from the initial state, like bench/js/lgvi.mjs.
 *
 * Usage: lgvi_step heavy-top|forced [steps per run = 1000] [runs = 2000] [reps = 7]
 * Prints {"nsPerStep", "min", "max", "iterations" (per step), "pi" (final Π of a run)}.
 */
#define _POSIX_C_SOURCE 199309L
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TOL DBL_EPSILON
#define STALL 1e-14
#define MAXIT 20
#define STEP_TOL (4 * DBL_EPSILON)

typedef struct {
  double I[3], d[3], inv, h, mg, rho[3];
  int gravity;
} Lgvi;

static void cay(double *C, double x0, double x1, double x2) {
  const double c = 4 / (4 + x0 * x0 + x1 * x1 + x2 * x2);
  const double h = 0.5 * c;
  C[0] = 1 - h * (x1 * x1 + x2 * x2);
  C[1] = c * -x2 + h * x0 * x1;
  C[2] = c * x1 + h * x0 * x2;
  C[3] = c * x2 + h * x0 * x1;
  C[4] = 1 - h * (x0 * x0 + x2 * x2);
  C[5] = c * -x0 + h * x1 * x2;
  C[6] = c * -x1 + h * x0 * x2;
  C[7] = c * x0 + h * x1 * x2;
  C[8] = 1 - h * (x0 * x0 + x1 * x1);
}

static void moment(const Lgvi *s, double *M, const double *R) {
  if (!s->gravity) {
    M[0] = M[1] = M[2] = 0;
    return;
  }
  const double a0 = R[6], a1 = R[7], a2 = R[8], w = s->mg;
  const double *r = s->rho;
  M[0] = w * (a1 * r[2] - a2 * r[1]);
  M[1] = w * (a2 * r[0] - a0 * r[2]);
  M[2] = w * (a0 * r[1] - a1 * r[0]);
}

static void resid(const Lgvi *s, double *out, const double *F, const double *t) {
  const double *d = s->d;
  out[0] = (F[7] * d[1] - F[5] * d[2] - t[0]) * s->inv;
  out[1] = (F[2] * d[2] - F[6] * d[0] - t[1]) * s->inv;
  out[2] = (F[3] * d[0] - F[1] * d[1] - t[2]) * s->inv;
}

static double ninf(const double *x, int n) {
  double m = 0;
  for (int i = 0; i < n; i++) m = fmax(m, fabs(x[i]));
  return m;
}

/* solves A x = b (3×3) in place by LU with partial pivoting (as core's DenseLU) */
static void solve3(double *A, double *b) {
  int piv[3] = {0, 1, 2};
  for (int k = 0; k < 3; k++) {
    int p = k;
    double m = fabs(A[3 * k + k]);
    for (int i = k + 1; i < 3; i++)
      if (fabs(A[3 * i + k]) > m) m = fabs(A[3 * i + k]), p = i;
    if (p != k) {
      for (int j = 0; j < 3; j++) {
        double t = A[3 * k + j];
        A[3 * k + j] = A[3 * p + j];
        A[3 * p + j] = t;
      }
      int t = piv[k]; piv[k] = piv[p]; piv[p] = t;
      double tb = b[k]; b[k] = b[p]; b[p] = tb;
    }
    for (int i = k + 1; i < 3; i++) {
      double l = A[3 * i + k] / A[3 * k + k];
      A[3 * i + k] = l;
      for (int j = k + 1; j < 3; j++) A[3 * i + j] -= l * A[3 * k + j];
      b[i] -= l * b[k];
    }
  }
  for (int i = 2; i >= 0; i--) {
    double s = b[i];
    for (int j = i + 1; j < 3; j++) s -= A[3 * i + j] * b[j];
    b[i] = s / A[3 * i + i];
  }
}

/* one step; state = [R (9), Π (3)]; returns Newton iterations */
static int step(const Lgvi *s, double *st, const double *u) {
  double M[3], g[3], t[3], F[9], r[3], J[9], dx[3], C[9], P[9];
  const double h = s->h, hh = 0.5 * h;
  moment(s, M, st);
  for (int i = 0; i < 3; i++) g[i] = st[9 + i] + hh * (M[i] + u[i]), t[i] = h * g[i];
  cay(F, h * g[0] / s->I[0], h * g[1] / s->I[1], h * g[2] / s->I[2]);
  resid(s, r, F, t);
  double rn = ninf(r, 3), xn = ninf(F, 9);
  int k = 0;
  const double *d = s->d;
  while (rn > TOL && k < MAXIT) {
    const double tr = F[0] * d[0] + F[4] * d[1] + F[8] * d[2];
    for (int i = 0; i < 3; i++) {
      const double a = F[3 * i] * d[0], b = F[3 * i + 1] * d[1], c = F[3 * i + 2] * d[2];
      for (int j = 0; j < 3; j++)
        J[3 * i + j] = (tr * F[3 * i + j] - (a * F[j] + b * F[3 + j] + c * F[6 + j])) * s->inv;
    }
    for (int i = 0; i < 3; i++) dx[i] = -r[i];
    solve3(J, dx);
    k++;
    const double dn = ninf(dx, 3);
    const int small = dn <= STEP_TOL * fmax(1, xn);
    cay(C, dx[0], dx[1], dx[2]);
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        P[3 * i + j] = F[3 * i] * C[j] + F[3 * i + 1] * C[3 + j] + F[3 * i + 2] * C[6 + j];
    memcpy(F, P, sizeof P);
    xn = ninf(F, 9);
    const double prev = rn;
    resid(s, r, F, t);
    rn = ninf(r, 3);
    if (small && rn > TOL) break;
    if (rn > TOL && rn <= STALL && rn > 0.5 * prev) break;
  }
  double R1[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      R1[3 * i + j] = st[3 * i] * F[j] + st[3 * i + 1] * F[3 + j] + st[3 * i + 2] * F[6 + j];
  moment(s, M, R1);
  memcpy(st, R1, sizeof R1);
  st[9] = F[0] * g[0] + F[3] * g[1] + F[6] * g[2] + hh * (M[0] + u[0]);
  st[10] = F[1] * g[0] + F[4] * g[1] + F[7] * g[2] + hh * (M[1] + u[1]);
  st[11] = F[2] * g[0] + F[5] * g[1] + F[8] * g[2] + hh * (M[2] + u[2]);
  return k;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  const char *sys = argc > 1 ? argv[1] : "heavy-top";
  const int steps = argc > 2 ? atoi(argv[2]) : 1000;
  const int runs = argc > 3 ? atoi(argv[3]) : 2000;
  const int reps = argc > 4 ? atoi(argv[4]) : 7;
  Lgvi s;
  double st0[12] = {0};
  const int heavy = strcmp(sys, "heavy-top") == 0;
  if (heavy) {
    double I[3] = {1, 1, 2};
    memcpy(s.I, I, sizeof I);
    s.gravity = 1, s.mg = 9.81, s.rho[0] = 0, s.rho[1] = 0, s.rho[2] = 0.5;
    /* R_0 = Exp(0.3 e1) */
    st0[0] = 1, st0[4] = cos(0.3), st0[5] = -sin(0.3), st0[7] = sin(0.3), st0[8] = cos(0.3);
    st0[9] = 0, st0[10] = 0, st0[11] = 2 * 20;
  } else {
    double I[3] = {1, 2, 3};
    memcpy(s.I, I, sizeof I);
    s.gravity = 0, s.mg = 0;
    st0[0] = st0[4] = st0[8] = 1;
    st0[9] = 0.8, st0[10] = -1.0, st0[11] = 0.9; /* Π_0 = J Ω_0 */
  }
  s.h = 0.01;
  const double half = 0.5 * (s.I[0] + s.I[1] + s.I[2]);
  for (int i = 0; i < 3; i++) s.d[i] = half - s.I[i];
  s.inv = 1 / (s.I[0] + s.I[1] + s.I[2]);
  double st[12], u[3] = {0, 0, 0}, *times = malloc(sizeof(double) * reps);
  long its = 0;
  for (int rep = -1; rep < reps; rep++) {
    its = 0;
    const double t0 = now();
    for (int r = 0; r < runs; r++) {
      memcpy(st, st0, sizeof st);
      for (int k = 0; k < steps; k++) {
        if (!heavy) {
          const double t = k * s.h;
          u[0] = 0.1 * sin(t), u[1] = 0.2 * cos(t), u[2] = 0.05;
        }
        its += step(&s, st, u);
      }
    }
    const double dt = (now() - t0) / ((double)steps * runs);
    if (rep >= 0) times[rep] = dt;
  }
  qsort(times, reps, sizeof(double), cmp);
  printf("{\"nsPerStep\": %.2f, \"min\": %.2f, \"max\": %.2f, \"iterations\": %.4f, \"pi\": [%.17g, %.17g, %.17g]}\n",
         times[reps / 2], times[0], times[reps - 1], (double)its / ((double)steps * runs), st[9], st[10], st[11]);
  free(times);
  return 0;
}
