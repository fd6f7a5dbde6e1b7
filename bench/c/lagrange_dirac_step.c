/*
 * Reference C implementation of one step of LagrangeDiracStepper (packages/dirac/src/
 * lagrangeDirac.ts) on the free vertical rolling disk (examples.ts verticalRollingDisk,
 * m = R = I = J = 1, a = b = c = 0): the (+) scheme with the left-rectangle L_d, the (-) scheme
 * with the right-rectangle L_d (discretize), spec 000 sections 8.1 and 8.2. Unknowns x = (q_{k+1}, lambda_k):
 *
 *   F1 = P_k + D1 L_d(q_k, q_{k+1}) + h W(q_k)^T lambda
 *   F2 = W(c)(q_{k+1} - q_k)/h,   c = q_k (+), q_{k+1} (-)
 *
 * with the bordered Jacobian [[D2D1 L_d, h W(q_k)^T], [dF2/dq_{k+1}, 0]] (the (-) row analytic:
 * (W(q_{k+1}) + d(W(q) dq)/dq)/h), LU with partial pivoting (core's luFactorInPlace: division by
 * the pivot), the Hager-Higham 1-norm condition estimate of DenseLU.conditionEstimate (kappa >= 1/eps
 * is singular), and core's NewtonSolver stopping rule as the stepper runs it: tolerance
 * max(1e-12, the residual floor 32 eps (|P|inf + max(1, |q|inf) max(|A|inf, |W|inf/h))) evaluated
 * once at the guess, stop when |F|inf <= tol (before a step or after one), or after a step with
 * |dx|inf <= 4 eps max(1, |x|inf); 50 iterations at most. The generic Lagrangian interface of the
 * TypeScript (Lq, Lv, Lvv, Lvq of the disk, the quadrature rule's nodes and weights) is evaluated
 * with the same arithmetic in the same order, so that both produce the same iterates up to libm's
 * sin/cos against V8's.
 *
 * The step on the flat state [q, P, guess, lambda] as the stepper's step() makes it: solve, then
 * q <- q_{k+1}, P <- D2 L_d(q_k, q_{k+1}), guess <- 2 q_{k+1} - q_k, lambda <- lambda_k (and the
 * LdAP momentum p_k and v_k of the result object).
 *
 * Usage: lagrange_dirac_step plus|minus STEPS_PER_RUN RUNS [reps = 7]
 * Runs RUNS runs of STEPS_PER_RUN steps from q = 0, v = (1, 0, 1, 1) (P = v, guess = h v,
 * lambda = 0), h = 0.01, and prints {"nsPerStep": median, "min", "max" (CPU time,
 * CLOCK_PROCESS_CPUTIME_ID), "q": [...], "P": [...], "lambda": [...], "iterations"} of the last run.
 */
#define _POSIX_C_SOURCE 199309L
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N 4
#define M 2
#define S (N + M)
#define TOL 1e-12
#define STEP_TOL (4 * DBL_EPSILON)
#define MAX_IT 50

static const double MASS = 1, RAD = 1, INER = 1, JNER = 1, CA = 0, CB = 0, CC = 0;

typedef struct {
  int minus;
  double h;
  /* the discrete Lagrangian's node: xi = a q0 + b q1, weight w */
  double a, b, w;
  double qk[N], Pk[N], q1t[N], d1[N], Wk[M * N], W1[M * N], Wp[M * N], dq[N], A[N * N];
  double xi[N], v[N], lq[N], lv[N], Mm[N * N], Nm[N * N];
  double x[S], f[S], jac[S * S], lu[S * S], acopy[S * S], dx[S], work[S], work2[S];
  int piv[S];
  int aAtGuess;
  double q1[N], lambda[M], p[N], P1[N], vk[N];
} Step;

static void fail(const char *what) {
  fprintf(stderr, "%s\n", what);
  exit(2);
}

/* the disk's Lagrangian (examples.ts) */
static void Lq(double *out, const double *q) {
  out[0] = -CC * q[0];
  out[1] = -CC * q[1];
  out[2] = -CB * q[2];
  out[3] = -CA * sin(q[3]);
}
static void Lv(double *out, const double *v) {
  out[0] = MASS * v[0];
  out[1] = MASS * v[1];
  out[2] = INER * v[2];
  out[3] = JNER * v[3];
}
static void Lvv(double *out) {
  memset(out, 0, N * N * sizeof(double));
  out[0] = MASS;
  out[5] = MASS;
  out[10] = INER;
  out[15] = JNER;
}
static void Lvq(double *out) { memset(out, 0, N * N * sizeof(double)); }

/* the disk's distribution: A(q) and d(A(q) w)/dq */
static void Wof(double *out, const double *q) {
  const double cp = cos(q[3]), sp = sin(q[3]);
  memset(out, 0, M * N * sizeof(double));
  out[0] = 1;
  out[2] = -RAD * cp;
  out[5] = 1;
  out[6] = -RAD * sp;
}
static void dAw(double *out, const double *q, const double *w) {
  const double cp = cos(q[3]), sp = sin(q[3]);
  memset(out, 0, M * N * sizeof(double));
  out[3] = RAD * sp * w[2];
  out[7] = -RAD * cp * w[2];
}

/* discretize(): the node, D1/D2 (Dk) and D2D1 */
static void setPoint(Step *s, const double *q0, const double *q1) {
  for (int i = 0; i < N; i++) {
    s->xi[i] = s->a * q0[i] + s->b * q1[i];
    s->v[i] = (q1[i] - q0[i]) / s->h;
  }
}
static void Dk(Step *s, double *out, const double *q0, const double *q1, int first) {
  for (int i = 0; i < N; i++) out[i] = 0;
  setPoint(s, q0, q1);
  Lq(s->lq, s->xi);
  Lv(s->lv, s->v);
  const double c = first ? s->a : s->b;
  const double sg = first ? -1 : 1;
  for (int i = 0; i < N; i++) out[i] = out[i] + s->w * (s->h * c * s->lq[i] + sg * s->lv[i]);
}
static void D2D1(Step *s, double *out, const double *q0, const double *q1) {
  for (int i = 0; i < N * N; i++) out[i] = 0;
  setPoint(s, q0, q1);
  Lvv(s->Mm);
  Lvq(s->Nm);
  for (int i = 0; i < N; i++)
    for (int k = 0; k < N; k++) {
      const double t = s->a * s->Nm[k * N + i] - s->b * s->Nm[i * N + k] - s->Mm[i * N + k] / s->h;
      out[i * N + k] = out[i * N + k] + s->w * t;
    }
  /* a b = 0 for the rectangle rules: no L_qq term */
}

static double normInf(const double *x, int n) {
  double m = 0;
  for (int i = 0; i < n; i++) {
    const double v = fabs(x[i]);
    if (!(v <= m)) m = v;
  }
  return m;
}

static void F(Step *s, double *out, const double *x) {
  const double h = s->h;
  for (int i = 0; i < N; i++) s->q1t[i] = x[i];
  Dk(s, s->d1, s->qk, s->q1t, 1);
  for (int i = 0; i < N; i++) {
    double v = s->Pk[i] + s->d1[i];
    for (int a = 0; a < M; a++) v += h * s->Wk[a * N + i] * x[N + a];
    out[i] = v;
  }
  const double *Wc = s->Wk;
  if (s->minus) {
    Wof(s->W1, s->q1t);
    Wc = s->W1;
  }
  for (int a = 0; a < M; a++) {
    double v = 0;
    for (int i = 0; i < N; i++) v += Wc[a * N + i] * (s->q1t[i] - s->qk[i]);
    out[N + a] = v / h;
  }
}

static void J(Step *s, double *out, const double *x) {
  const double h = s->h;
  for (int i = 0; i < N; i++) s->q1t[i] = x[i];
  if (s->aAtGuess)
    s->aAtGuess = 0;
  else
    D2D1(s, s->A, s->qk, s->q1t);
  for (int i = 0; i < S * S; i++) out[i] = 0;
  for (int i = 0; i < N; i++) {
    for (int k = 0; k < N; k++) out[i * S + k] = s->A[i * N + k];
    for (int a = 0; a < M; a++) out[i * S + N + a] = h * s->Wk[a * N + i];
  }
  if (!s->minus) {
    for (int a = 0; a < M; a++)
      for (int k = 0; k < N; k++) out[(N + a) * S + k] = s->Wk[a * N + k] / h;
    return;
  }
  Wof(s->W1, s->q1t);
  for (int i = 0; i < N; i++) s->dq[i] = s->q1t[i] - s->qk[i];
  dAw(s->Wp, s->q1t, s->dq);
  for (int a = 0; a < M; a++)
    for (int k = 0; k < N; k++) out[(N + a) * S + k] = (s->W1[a * N + k] + s->Wp[a * N + k]) / h;
}

static double residualFloor(Step *s, const double *guess) {
  for (int i = 0; i < N; i++) s->q1t[i] = guess[i];
  D2D1(s, s->A, s->qk, s->q1t);
  double qMax = 1, pMax = 0, aMax = 0;
  for (int i = 0; i < N; i++) {
    qMax = fmax(qMax, fmax(fabs(s->qk[i]), fabs(s->q1t[i])));
    pMax = fmax(pMax, fabs(s->Pk[i]));
    double row = 0;
    for (int k = 0; k < N; k++) row += fabs(s->A[i * N + k]);
    aMax = fmax(aMax, row);
  }
  double wMax = 0;
  for (int a = 0; a < M; a++) {
    double row = 0;
    for (int i = 0; i < N; i++) row += fabs(s->Wk[a * N + i]);
    wMax = fmax(wMax, row);
  }
  const double floor = 32 * DBL_EPSILON * (pMax + qMax * fmax(aMax, wMax / fabs(s->h)));
  s->aAtGuess = 1;
  return fmax(TOL, floor);
}

/* core's luFactorInPlace / luSolveInPlace / luSolveTransposeInPlace */
static int luFactor(double *a, int n, int *piv) {
  int singularAt = -1;
  for (int k = 0; k < n; k++) {
    int p = k;
    double maxAbs = fabs(a[k * n + k]);
    for (int i = k + 1; i < n; i++) {
      const double v = fabs(a[i * n + k]);
      if (v > maxAbs) {
        maxAbs = v;
        p = i;
      }
    }
    piv[k] = p;
    if (maxAbs == 0 || isnan(maxAbs)) {
      if (singularAt < 0) singularAt = k;
      continue;
    }
    if (p != k)
      for (int j = 0; j < n; j++) {
        const double t = a[k * n + j];
        a[k * n + j] = a[p * n + j];
        a[p * n + j] = t;
      }
    const double pivot = a[k * n + k];
    for (int i = k + 1; i < n; i++) {
      const double l = a[i * n + k] / pivot;
      a[i * n + k] = l;
      if (l != 0)
        for (int j = k + 1; j < n; j++) a[i * n + j] = a[i * n + j] - l * a[k * n + j];
    }
  }
  return singularAt;
}
static void luSolve(const double *lu, int n, const int *piv, double *b) {
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
static void luSolveT(const double *lu, int n, const int *piv, double *b) {
  for (int i = 0; i < n; i++) {
    double s = b[i];
    for (int j = 0; j < i; j++) s -= lu[j * n + i] * b[j];
    b[i] = s / lu[i * n + i];
  }
  for (int i = n - 2; i >= 0; i--) {
    double s = b[i];
    for (int j = i + 1; j < n; j++) s -= lu[j * n + i] * b[j];
    b[i] = s;
  }
  for (int k = n - 1; k >= 0; k--) {
    const int p = piv[k];
    if (p != k) {
      const double t = b[k];
      b[k] = b[p];
      b[p] = t;
    }
  }
}

/* DenseLU.conditionEstimate (Hager-Higham), the matrix copy in acopy */
static double condition(Step *s, int n) {
  double *x = s->work, *xi = s->work2;
  const double inv = 1.0 / n;
  for (int i = 0; i < n; i++) x[i] = inv;
  luSolve(s->lu, n, s->piv, x);
  double est = 0;
  for (int i = 0; i < n; i++) est += fabs(x[i]);
  if (!isfinite(est)) return INFINITY;
  for (int iter = 0; iter < 5; iter++) {
    for (int i = 0; i < n; i++) xi[i] = x[i] >= 0 ? 1 : -1;
    luSolveT(s->lu, n, s->piv, xi);
    int jmax = 0;
    double zmax = fabs(xi[0]);
    int finite = isfinite(zmax);
    for (int i = 1; i < n; i++) {
      const double v = fabs(xi[i]);
      if (!isfinite(v)) finite = 0;
      if (v > zmax) {
        zmax = v;
        jmax = i;
      }
    }
    if (!finite) return INFINITY;
    for (int i = 0; i < n; i++) x[i] = 0;
    x[jmax] = 1;
    luSolve(s->lu, n, s->piv, x);
    double newEst = 0;
    for (int i = 0; i < n; i++) newEst += fabs(x[i]);
    if (!isfinite(newEst)) return INFINITY;
    if (newEst <= est) break;
    est = newEst;
  }
  for (int i = 0; i < n; i++) x[i] = (i % 2 == 0 ? 1 : -1) * (1 + (double)i / (n - 1));
  luSolve(s->lu, n, s->piv, x);
  double alt = 0;
  for (int i = 0; i < n; i++) alt += fabs(x[i]);
  if (!isfinite(alt)) return INFINITY;
  alt = (2 * alt) / (3 * n);
  if (alt > est) est = alt;
  double best = 0;
  for (int j = 0; j < n; j++) {
    double c = 0;
    for (int i = 0; i < n; i++) c += fabs(s->acopy[i * n + j]);
    if (c > best) best = c;
  }
  const double kappa = est * best;
  return isfinite(kappa) ? kappa : INFINITY;
}

/* one Newton solve from x0 = x; returns the iterations */
static int newton(Step *s, double tol) {
  double *x = s->x, *f = s->f, *dx = s->dx;
  F(s, f, x);
  double r = normInf(f, S);
  if (!isfinite(r)) fail("F(x0) not finite");
  double xNorm = normInf(x, S);
  int k = 0;
  for (;;) {
    if (r <= tol) break;
    if (k >= MAX_IT) fail("Newton did not converge");
    J(s, s->jac, x);
    memcpy(s->lu, s->jac, sizeof s->lu);
    double z = 0;
    for (int i = 0; i < S * S; i++) z += s->lu[i] - s->lu[i];
    if (z != 0) fail("J not finite");
    memcpy(s->acopy, s->lu, sizeof s->acopy);
    if (luFactor(s->lu, S, s->piv) >= 0) fail("singular Jacobian");
    const double cond = condition(s, S);
    if (!(cond < 1 / DBL_EPSILON)) fail("singular Jacobian (condition)");
    for (int i = 0; i < S; i++) dx[i] = -f[i];
    luSolve(s->lu, S, s->piv, dx);
    k++;
    const double dxNorm = normInf(dx, S);
    if (!isfinite(dxNorm)) fail("non-finite step");
    const int smallStep = dxNorm <= STEP_TOL * fmax(1, xNorm);
    for (int i = 0; i < S; i++) x[i] = x[i] + dx[i];
    xNorm = normInf(x, S);
    if (!isfinite(xNorm)) fail("non-finite iterate");
    F(s, f, x);
    r = normInf(f, S);
    if (!isfinite(r)) fail("non-finite residual");
    if (smallStep && r > tol) break;
  }
  return k;
}

/* LagrangeDiracStepper.step on state = [q, P, guess, lambda] */
static int step(Step *s, double *state) {
  for (int i = 0; i < N; i++) {
    s->qk[i] = state[i];
    s->Pk[i] = state[N + i];
    s->x[i] = state[2 * N + i];
  }
  for (int a = 0; a < M; a++) s->x[N + a] = state[3 * N + a];
  Wof(s->Wk, s->qk);
  const int its = newton(s, residualFloor(s, s->x));
  for (int i = 0; i < N; i++) s->q1[i] = s->x[i];
  for (int a = 0; a < M; a++) s->lambda[a] = s->x[N + a];
  for (int i = 0; i < N; i++) s->vk[i] = (s->q1[i] - s->qk[i]) / s->h;
  Dk(s, s->P1, s->qk, s->q1, 0);
  if (!s->minus)
    memcpy(s->p, s->Pk, sizeof s->p);
  else {
    Dk(s, s->p, s->qk, s->q1, 1);
    for (int i = 0; i < N; i++) s->p[i] = -s->p[i];
  }
  for (int i = 0; i < N; i++) {
    const double q1 = s->q1[i];
    state[2 * N + i] = 2 * q1 - state[i];
    state[i] = q1;
    state[N + i] = s->P1[i];
  }
  for (int a = 0; a < M; a++) state[3 * N + a] = s->lambda[a];
  return its;
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
  if (argc < 4) {
    fprintf(stderr, "usage: %s plus|minus STEPS_PER_RUN RUNS [reps <= 100]\n", argv[0]);
    return 1;
  }
  static Step s;
  s.minus = strcmp(argv[1], "minus") == 0;
  s.h = 0.01;
  s.a = s.minus ? 0 : 1;
  s.b = s.minus ? 1 : 0;
  s.w = 1;
  const long steps = atol(argv[2]);
  const long runs = atol(argv[3]);
  const int reps = argc > 4 ? atoi(argv[4]) : 7;
  if (steps < 1 || runs < 1 || reps < 1 || reps > 100) return 1;
  double ns[100];
  double state[3 * N + M];
  long iterations = 0;
  for (int rep = -1; rep < reps; rep++) {
    const double t0 = cpuNow();
    for (long r = 0; r < runs; r++) {
      /* q = 0, P = L_v(0, v0) = v0, guess = q + h v0, lambda = 0 */
      const double v0[N] = {1, 0, 1, 1};
      Lv(state + N, v0);
      for (int i = 0; i < N; i++) {
        state[i] = 0;
        state[2 * N + i] = 0 + s.h * v0[i];
      }
      for (int a = 0; a < M; a++) state[3 * N + a] = 0;
      iterations = 0;
      for (long k = 0; k < steps; k++) iterations += step(&s, state);
    }
    const double t1 = cpuNow();
    if (rep >= 0) ns[rep] = (t1 - t0) / (double)(steps * runs);
  }
  qsort(ns, reps, sizeof ns[0], cmp);
  const double med = reps % 2 ? ns[reps / 2] : 0.5 * (ns[reps / 2 - 1] + ns[reps / 2]);
  printf("{ \"nsPerStep\": %.3f, \"min\": %.3f, \"max\": %.3f, \"q\": [%.17g, %.17g, %.17g, %.17g], "
         "\"P\": [%.17g, %.17g, %.17g, %.17g], \"lambda\": [%.17g, %.17g], \"iterations\": %ld }\n",
         med, ns[0], ns[reps - 1], state[0], state[1], state[2], state[3], state[4], state[5], state[6],
         state[7], state[3 * N], state[3 * N + 1], iterations);
  return 0;
}
