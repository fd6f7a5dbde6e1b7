/*
 * Reference C implementation of one step of ContactIntegrator (packages/contact/src/integrator.ts)
 * on the damped oscillator L = v^2/2 - k q^2/2 + gamma z, k = 1, gamma = -0.1, h = 0.01, n = 1,
 * with two discrete Lagrangians (packages/contact/src/exact.ts and discrete.ts):
 *
 *   exact       dampedOscillatorExactLd(k, gamma, h): the closed form of spec 004 §8.2 (at this h,
 *               |d h^2| < 1e-4, so its critical-series coefficients);
 *   implicit-z  implicitZMidpointLd(L, h): Lambda = h L(q_m, v, z0 + Lambda/2) solved by Newton
 *               (core's NewtonSolver.solveScalar: tol 0, step tol 1e-14, from Lambda = 0), the
 *               last root cached, derivatives by the implicit function theorem (spec 004 §7.4).
 *
 * The step (spec 004 §7.1): guess x = q + h s0 p with s0 = 1 + D_z L_d(q, q + h p, z); Newton on
 *   G(x) = (1 + D_z L_d(q, x, z)) p + D1 L_d(q, x, z),  G'(x) = D2D1 + p D2Dz,
 * with core's NewtonSolver default rule (stop when |G| <= 1e-12 before a step or after one, or
 * after a step with |dx| <= 4 eps max(1, |x|); at most 50 steps); then
 *   p' = D2 L_d(q, x, z),  z' = z + L_d(q, x, z).
 * Every quantity the TypeScript evaluates is evaluated here, in the same order and with the same
 * operations (the implicit-z Lagrangian's cache included), so that, compiled without FMA
 * contraction (-ffp-contract=off), the iterates agree (the exact L_d's constants come from libm's
 * exp/expm1 here and V8's fdlibm ports there, which may differ in the last bit).
 *
 * Usage: contact_oscillator_step exact|implicit-z N [reps = 7]
 * Runs N steps from (q, p, z) = (1, 0, 0), restarted there every 4000 steps (as bench/js/contact.mjs)
 * with t_k = k h, and prints {"nsPerStep": median CPU ns/step, "min", "max", "q", "p", "z",
 * "iterations"} (state and Newton total of the last run).
 */
#define _POSIX_C_SOURCE 199309L
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NEWTON_TOL 1e-12
#define NEWTON_STEP_TOL (4 * DBL_EPSILON)
#define NEWTON_MAX_ITERATIONS 50
#define IMPLICIT_Z_TOL 1e-14
#define RESTART 4000

static const double K = 1, GAMMA = -0.1, H = 0.01;

static void fail(const char *what) {
  fprintf(stderr, "%s\n", what);
  exit(2);
}

/* ---------------------------------------------------------------- the discrete Lagrangians */

typedef struct {
  int implicit;
  /* exact: the constants of dampedOscillatorExactLd */
  double E, em1, AC, ASqrtE, halfGammaE, halfGamma;
  /* implicit-z: scratch and cache of ImplicitZMidpointLd */
  double qm, v, z0, tm, lambda, zs, c, dz;
  double cz0, ctm, cq0, cq1;
  int cached;
  long inner; /* inner Newton iterations (not part of the reported count) */
} Ld;

static void exactInit(Ld *L) {
  const double gamma = GAMMA, h = H, k = K;
  L->E = exp(gamma * h);
  L->em1 = expm1(gamma * h);
  const double sqrtE = exp(0.5 * gamma * h);
  const double d = k - 0.25 * gamma * gamma;
  const double s = d * h * h;
  if (fabs(s) < 1e-4) { /* the critical series of exact.ts */
    const double fA = 1 + s * (1.0 / 6 + s * (7.0 / 360 + (s * 31) / 15120));
    const double fAC = 1 - s * (1.0 / 3 + s * (1.0 / 45 + (s * 2) / 945));
    L->AC = fAC / h;
    L->ASqrtE = (fA * sqrtE) / h;
  } else if (d > 0) {
    const double w = sqrt(fabs(d)), wh = w * h, sn = sin(wh);
    L->AC = (w * cos(wh)) / sn;
    L->ASqrtE = (w * sqrtE) / sn;
  } else {
    const double w = sqrt(fabs(d)), wh = w * h;
    L->AC = w / tanh(wh);
    L->ASqrtE = (2 * w * exp(0.5 * gamma * h - wh)) / -expm1(-2 * wh);
  }
  L->halfGammaE = 0.5 * gamma * L->E;
  L->halfGamma = 0.5 * gamma;
}

/* MechanicalLagrangian.L of the oscillator: (1/2)|v|^2 - V(q) + gamma z, V = (k/2)|q|^2 */
static double lagrangian(double q, double v, double z) {
  double s = 0;
  s += v * v;
  double sq = 0;
  sq += q * q;
  return 0.5 * s - 0.5 * K * sq + GAMMA * z;
}

/* ImplicitZMidpointLd.prepare: q_m, v, t_m; Lambda solved or taken from the cache; z* */
static void prepare(Ld *L, double q0, double q1, double z0, double t) {
  const double h = H;
  L->qm = 0.5 * (q0 + q1);
  L->v = (q1 - q0) / h;
  L->z0 = z0;
  const double tm = t + 0.5 * h;
  L->tm = tm;
  if (L->cached && z0 == L->cz0 && tm == L->ctm && q0 == L->cq0 && q1 == L->cq1) {
    L->zs = z0 + 0.5 * L->lambda;
    return;
  }
  L->cached = 0;
  /* NewtonSolver.solveScalar, plain path: F = x - h L(q_m, v, z0 + x/2), F' = 1 - (h/2) L_z */
  double x = 0;
  double fx = x - h * lagrangian(L->qm, L->v, z0 + 0.5 * x);
  double r = fabs(fx);
  if (!isfinite(r)) fail("implicit-z: non-finite F(x0)");
  double xNorm = fabs(x);
  int k = 0, smallStep = 0;
  while (r > 0 && k < NEWTON_MAX_ITERATIONS) {
    const double j0 = 1 - 0.5 * h * GAMMA;
    if (!(j0 - j0 == 0 && j0 != 0)) fail("implicit-z: singular");
    const double dx = -fx / j0;
    k++;
    const double dxNorm = fabs(dx);
    smallStep = IMPLICIT_Z_TOL > 0 && dxNorm <= IMPLICIT_Z_TOL * fmax(1, xNorm);
    x = x + dx;
    xNorm = fabs(x);
    fx = x - h * lagrangian(L->qm, L->v, z0 + 0.5 * x);
    r = fabs(fx);
    if (!isfinite(r)) fail("implicit-z: diverged");
    if (smallStep) break;
  }
  if (!(r <= 0) && !smallStep) fail("implicit-z: Lambda did not converge");
  L->inner += k;
  L->cq0 = q0;
  L->cq1 = q1;
  L->cz0 = z0;
  L->ctm = tm;
  L->lambda = x;
  L->cached = 1;
  L->zs = z0 + 0.5 * x;
}

/* ImplicitZMidpointLd.denominator: c = 1 - (h/2) L_z, D_z L_d = h L_z / c */
static void denominator(Ld *L) {
  const double hlz = H * GAMMA;
  const double c = 1 - 0.5 * hlz;
  if (c == 0) fail("implicit-z: c = 0");
  L->c = c;
  L->dz = hlz / c;
}

/* firstTerms: ((h/2) L_q + sign L_v)/c with L_q = -(k q_m), L_v = v */
static double firstTerms(const Ld *L, double sign) {
  double gq = K * L->qm;
  gq = -gq;
  const double gv = L->v;
  return (0.5 * H * gq + sign * gv) / L->c;
}

static double Ld_Ld(Ld *L, double q0, double q1, double z0, double t) {
  if (!L->implicit) {
    double a0 = 0, a1 = 0, a01 = 0;
    a0 += q0 * q0;
    a1 += q1 * q1;
    a01 += q0 * q1;
    return L->em1 * z0 + 0.5 * (L->AC * (a1 + L->E * a0) - 2 * L->ASqrtE * a01) +
           0.25 * GAMMA * (a1 - L->E * a0);
  }
  prepare(L, q0, q1, z0, t);
  return L->lambda;
}

static double Ld_D1(Ld *L, double q0, double q1, double z0, double t) {
  if (!L->implicit) return (L->AC * L->E - L->halfGammaE) * q0 - L->ASqrtE * q1;
  prepare(L, q0, q1, z0, t);
  denominator(L);
  return firstTerms(L, -1);
}

static double Ld_D2(Ld *L, double q0, double q1, double z0, double t) {
  if (!L->implicit) return (L->AC + L->halfGamma) * q1 - L->ASqrtE * q0;
  prepare(L, q0, q1, z0, t);
  denominator(L);
  return firstTerms(L, 1);
}

static double Ld_Dz(Ld *L, double q0, double q1, double z0, double t) {
  if (!L->implicit) return L->em1;
  prepare(L, q0, q1, z0, t);
  denominator(L);
  return L->dz;
}

/* secondOrderData of the oscillator (L_zz = L_qz = L_vz = 0): d2 and ell */
static double secondOrderEll(const Ld *L, double *d2) {
  *d2 = firstTerms(L, 1);
  const double lzz = 0, gqz = 0, gvz = 0;
  return 0.5 * gqz + gvz / H + 0.5 * lzz * *d2;
}

static double Ld_D2D1(Ld *L, double q0, double q1, double z0, double t) {
  if (!L->implicit) return -L->ASqrtE;
  prepare(L, q0, q1, z0, t);
  denominator(L);
  double d2;
  const double ell = secondOrderEll(L, &d2);
  const double h = H, c = L->c;
  double gq = K * L->qm;
  gq = -gq;
  const double gv = L->v;
  const double mqq = -K, mvq = 0, mvv = 1, qzi = 0, vzi = 0;
  const double d1i = (0.5 * h * gq - gv) / c;
  const double dN1 =
      0.5 * h * (0.5 * mqq + mvq / h + 0.5 * qzi * d2) - (0.5 * mvq + mvv / h + 0.5 * vzi * d2);
  return (dN1 + 0.5 * h * d1i * ell) / c;
}

static double Ld_D2Dz(Ld *L, double q0, double q1, double z0, double t) {
  if (!L->implicit) return 0;
  prepare(L, q0, q1, z0, t);
  denominator(L);
  double d2;
  const double ell = secondOrderEll(L, &d2);
  const double c = L->c;
  return (H * ell) / (c * c);
}

/* ---------------------------------------------------------------- the step */

/* ContactIntegrator.advance for n = 1 (momentum guess, no force); returns the Newton iterations */
static int step(Ld *L, double *q, double *p, double *z, double t) {
  const double h = H, qk = *q, pk = *p, zk = *z;
  /* momentumGuess */
  double x = qk + h * pk;
  const double s0 = 1 + Ld_Dz(L, qk, x, zk, t);
  x = qk + h * s0 * pk;
  /* NewtonSolver.solve, n = 1: G = D1 + (1 + Dz) p, G' = D2D1 + p D2Dz */
  double f = Ld_D1(L, qk, x, zk, t);
  double s = 1 + Ld_Dz(L, qk, x, zk, t);
  f = f + s * pk;
  double r = fabs(f);
  if (!isfinite(r)) fail("non-finite G(x0)");
  double xNorm = fabs(x);
  int k = 0;
  for (;;) {
    if (r <= NEWTON_TOL) break;
    if (k >= NEWTON_MAX_ITERATIONS) fail("Newton did not converge");
    double jac = Ld_D2D1(L, qk, x, zk, t);
    const double dzq1 = Ld_D2Dz(L, qk, x, zk, t);
    jac = jac + pk * dzq1;
    if (!isfinite(jac) || jac == 0) fail("singular or non-finite Jacobian");
    const double dx = -f / jac;
    k++;
    const double dxNorm = fabs(dx);
    if (!isfinite(dxNorm)) fail("non-finite step");
    const int smallStep = dxNorm <= NEWTON_STEP_TOL * fmax(1, xNorm);
    x = x + dx;
    xNorm = fabs(x);
    if (!isfinite(xNorm)) fail("non-finite iterate");
    f = Ld_D1(L, qk, x, zk, t);
    s = 1 + Ld_Dz(L, qk, x, zk, t);
    f = f + s * pk;
    r = fabs(f);
    if (!isfinite(r)) fail("non-finite residual");
    if (smallStep && r > NEWTON_TOL) break;
  }
  /* solveForward: sigma = 1 + D_z L_d at the root */
  const double sigma = 1 + Ld_Dz(L, qk, x, zk, t);
  if (!isfinite(sigma) || sigma == 0) fail("sigma");
  /* F+ L_d: z' = z + L_d, p' = D2 L_d */
  const double zNext = zk + Ld_Ld(L, qk, x, zk, t);
  const double pNext = Ld_D2(L, qk, x, zk, t);
  if (!isfinite(x) || !isfinite(pNext) || !isfinite(zNext)) fail("non-finite state");
  *q = x;
  *p = pNext;
  *z = zNext;
  return k;
}

static int cmp(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double cpuNs(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
  const char *method = argc > 1 ? argv[1] : "exact";
  const long n = argc > 2 ? atol(argv[2]) : 1000000;
  const int reps = argc > 3 ? atoi(argv[3]) : 7;
  const int implicit = strcmp(method, "implicit-z") == 0;
  if ((!implicit && strcmp(method, "exact") != 0) || n < 1 || reps < 1 || reps > 100) {
    fprintf(stderr, "usage: %s exact|implicit-z N [reps <= 100]\n", argv[0]);
    return 1;
  }
  Ld L;
  memset(&L, 0, sizeof L);
  L.implicit = implicit;
  L.cz0 = NAN;
  L.ctm = NAN;
  if (!implicit) exactInit(&L);
  double ns[100];
  double q = 0, p = 0, z = 0;
  long iterations = 0;
  for (int rep = -1; rep < reps; rep++) { /* rep -1 warms up */
    iterations = 0;
    const double t0 = cpuNs();
    for (long k = 0; k < n; k++) {
      if (k % RESTART == 0) {
        q = 1;
        p = 0;
        z = 0;
      }
      iterations += step(&L, &q, &p, &z, (double)k * H);
    }
    if (rep >= 0) ns[rep] = (cpuNs() - t0) / n;
  }
  qsort(ns, reps, sizeof ns[0], cmp);
  const double med = reps % 2 ? ns[reps / 2] : 0.5 * (ns[reps / 2 - 1] + ns[reps / 2]);
  printf("{ \"nsPerStep\": %.3f, \"min\": %.3f, \"max\": %.3f, \"q\": %.17g, \"p\": %.17g, "
         "\"z\": %.17g, \"iterations\": %ld }\n",
         med, ns[0], ns[reps - 1], q, p, z, iterations);
  return 0;
}
