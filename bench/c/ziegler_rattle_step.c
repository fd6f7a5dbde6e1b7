/*
 * Reference C implementation of one RATTLE step on the Ziegler column (packages/dirac/src/
 * comparators.ts RattleStepper, its banded path, on holonomicModels.ts zieglerColumn with
 * k = m = l = 1): BANDED, as the TypeScript runs it. z = (q_k, v_k), n = 2 links coordinates,
 * m = links constraints phi_i = |e_i|^2 - l^2, C = (1/2) d phi in band storage (row i: -e_i at
 * columns 2i - 2, 2i - 1 and +e_i at 2i, 2i + 1), phiScale 2.
 *
 *   position stage: G(lambda) = phi(q_k + h v_k - (h^2/2) M^-1 (grad V(q_k) - C(q_k)^T lambda)) = 0,
 *     Newton from the previous lambda with the analytic band Jacobian
 *     2 C(q_{k+1}) (h^2/2) M^-1 C(q_k)^T, banded LU with partial pivoting (core's
 *     bandLuFactorInPlace, LAPACK gbtrf order) and its Hager-Higham condition estimate
 *     (BandLU.conditionEstimate; kappa >= 1/eps is singular), core's NewtonSolver stopping rule:
 *     |G|inf <= 1e-15, or a step with |dlambda|inf <= 4 eps max(1, |lambda|inf), or a step that
 *     leaves 1e-15 < |G|inf <= 1e-12 without halving it; 30 iterations at most;
 *   velocity stage: v_{k+1} = v_half - (h/2) M^-1 grad V(q_{k+1}) + (h/2) M^-1 C(q_{k+1})^T mu with
 *     (h/2) C M^-1 C^T mu = -C w, a second banded LU.
 *
 * The arithmetic follows the TypeScript operation for operation (compile with -ffp-contract=off),
 * so both produce the same iterates up to libm's sin/cos/atan2 against V8's.
 *
 * Usage: ziegler_rattle_step LINKS P STEPS_PER_RUN RUNS [reps = 7]
 * Each run starts from the bench's state: theta_i = 0.1 (1 + i/(n - 1)) at rest, lambda = 0, h = 0.01.
 * Prints {"nsPerStep": median, "min", "max" (CPU time, CLOCK_PROCESS_CPUTIME_ID), "q0": first
 * coordinate, "qLast": last coordinate, "iterations"} of the last run.
 */
#define _POSIX_C_SOURCE 199309L
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TOL 1e-15
#define STALL 1e-12
#define STEP_TOL (4 * DBL_EPSILON)
#define MAX_IT 30
#define W 4
#define PI 3.141592653589793 /* Math.PI */

static int NL, NQ, KB;
static double PLOAD, H;
static const double KSPRING = 1, MASS = 1, LEN = 1;

static void fail(const char *what) {
  fprintf(stderr, "%s\n", what);
  exit(2);
}

static double *alloc(long n) {
  double *p = calloc((size_t)(n > 0 ? n : 1), sizeof(double));
  if (!p) fail("out of memory");
  return p;
}

/* --- the system ---------------------------------------------------------------------------- */
static double *theta, *Vth;

static double relativeAngle(double d) {
  if (d > -PI && d <= PI) return d;
  const double w = d - 2 * PI * floor(d / (2 * PI) + 0.5);
  return w <= -PI ? w + 2 * PI : w;
}

static void gradV(double *out, const double *q) {
  double px = 0, py = 0;
  for (int i = 0; i < NL; i++) {
    const double x = q[2 * i], y = q[2 * i + 1];
    theta[i] = atan2(x - px, y - py);
    px = x;
    py = y;
  }
  for (int i = 0; i < NL; i++) {
    const double prev = i == 0 ? 0 : theta[i - 1];
    double d = KSPRING * relativeAngle(theta[i] - prev);
    if (i + 1 < NL) d -= KSPRING * relativeAngle(theta[i + 1] - theta[i]);
    Vth[i] = d;
  }
  for (int j = 0; j < NQ; j++) out[j] = 0;
  px = 0;
  py = 0;
  for (int i = 0; i < NL; i++) {
    const double ex = q[2 * i] - px, ey = q[2 * i + 1] - py;
    const double r2 = ex * ex + ey * ey;
    const double gx = (Vth[i] * ey) / r2;
    const double gy = (-Vth[i] * ex) / r2;
    out[2 * i] = out[2 * i] + gx;
    out[2 * i + 1] = out[2 * i + 1] + gy + PLOAD;
    if (i > 0) {
      out[2 * i - 2] = out[2 * i - 2] - gx;
      out[2 * i - 1] = out[2 * i - 1] - gy;
    }
    px = q[2 * i];
    py = q[2 * i + 1];
  }
}

static void phi(double *out, const double *q) {
  double px = 0, py = 0;
  for (int i = 0; i < NL; i++) {
    const double ex = q[2 * i] - px, ey = q[2 * i + 1] - py;
    out[i] = ex * ex + ey * ey - LEN * LEN;
    px = q[2 * i];
    py = q[2 * i + 1];
  }
}

static int first(int a) { return 2 * a - 2; }

static void bandC(double *out, const double *q) {
  double px = 0, py = 0;
  for (int i = 0; i < NL; i++) {
    const double ex = q[2 * i] - px, ey = q[2 * i + 1] - py;
    const int row = 4 * i;
    out[row] = i > 0 ? -ex : 0;
    out[row + 1] = i > 0 ? -ey : 0;
    out[row + 2] = ex;
    out[row + 3] = ey;
    px = q[2 * i];
    py = q[2 * i + 1];
  }
}

/* --- band products (chainBand.ts) -------------------------------------------------------------- */
static int imax(int a, int b) { return a > b ? a : b; }
static int imin(int a, int b) { return a < b ? a : b; }

/* S (band storage, kl = ku = KB, row width 2KB + 1) <- post * C1 diag(d) C2^T, every entry summed */
static void bandGram(double *S, const double *C1, const double *C2, const double *d, double post) {
  const int rw = 2 * KB + 1;
  memset(S, 0, sizeof(double) * (size_t)NL * (size_t)rw);
  for (int a = 0; a < NL; a++) {
    const int fa = first(a);
    const int bLo = imax(0, a - KB), bHi = imin(NL - 1, a + KB);
    for (int b = bLo; b <= bHi; b++) {
      const int fb = first(b);
      const int j0 = imax(0, imax(fa, fb)), j1 = imin(NQ, imin(fa + W, fb + W));
      double s = 0;
      for (int j = j0; j < j1; j++) {
        const double ca = C1[a * W + j - fa];
        if (ca == 0) continue;
        s += ca * d[j] * C2[b * W + j - fb];
      }
      S[a * rw + b - a + KB] = post == 1 ? s : post * s;
    }
  }
}

static void bandMul(double *out, const double *C, const double *x) {
  for (int a = 0; a < NL; a++) {
    const int fa = first(a);
    const int j1 = imin(NQ, fa + W);
    double s = 0;
    for (int j = imax(0, fa); j < j1; j++) s += C[a * W + j - fa] * x[j];
    out[a] = s;
  }
}

static void bandScatterT(double *out, const double *C, const double *y) {
  for (int a = 0; a < NL; a++) {
    const int fa = first(a);
    const int j1 = imin(NQ, fa + W);
    const double ya = y[a];
    for (int j = imax(0, fa); j < j1; j++) {
      const double c = C[a * W + j - fa];
      if (c != 0) out[j] = out[j] + c * ya;
    }
  }
}

/* --- core's BandLU (banded.ts) ----------------------------------------------------------------- */
typedef struct {
  int n, kl, ku, w;
  double *ab, *work, *work2, anorm1;
  int *piv, *rowEnd;
  int singular;
} BandLU;

static void bandLuInit(BandLU *lu, int n, int kl, int ku) {
  lu->n = n;
  lu->kl = kl;
  lu->ku = ku;
  lu->w = 2 * kl + ku + 1;
  lu->ab = alloc((long)n * lu->w);
  lu->work = alloc(n);
  lu->work2 = alloc(n);
  lu->piv = calloc((size_t)n, sizeof(int));
  lu->rowEnd = calloc((size_t)n, sizeof(int));
}

static int bandLuFactorInPlace(double *ab, int n, int kl, int ku, int *piv, int *rowEnd) {
  const int w = 2 * kl + ku + 1, wm1 = w - 1;
  for (int i = 0; i < n; i++) {
    const int r = i * wm1 + kl;
    int e = imin(n - 1, i + ku);
    while (e >= i && ab[r + e] == 0) e--;
    rowEnd[i] = e;
  }
  int singularAt = -1;
  for (int k = 0; k < n; k++) {
    const int km = imin(kl, n - 1 - k);
    const int dk = k * w + kl;
    int p = k;
    double maxAbs = fabs(ab[dk]);
    for (int t = 1, o = dk + wm1; t <= km; t++, o += wm1) {
      const double v = fabs(ab[o]);
      if (v > maxAbs) {
        maxAbs = v;
        p = k + t;
      }
    }
    piv[k] = p;
    if (!(maxAbs > 0)) {
      if (singularAt < 0) singularAt = k;
      continue;
    }
    const int rk = k * wm1 + kl;
    if (p != k) {
      const int rp = p * wm1 + kl;
      const int ekOld = rowEnd[k], ep = rowEnd[p];
      const int e = imax(ekOld, ep);
      for (int j = k; j <= e; j++) {
        const double t = ab[rk + j];
        ab[rk + j] = ab[rp + j];
        ab[rp + j] = t;
      }
      rowEnd[k] = ep;
      rowEnd[p] = ekOld;
    }
    const int ek = rowEnd[k];
    const double inv = 1 / ab[rk + k];
    for (int i = k + 1; i <= k + km; i++) {
      const int ri = i * wm1 + kl;
      const double aik = ab[ri + k];
      if (aik == 0) continue;
      const double l = aik * inv;
      ab[ri + k] = l;
      for (int j = k + 1; j <= ek; j++) ab[ri + j] = ab[ri + j] - l * ab[rk + j];
      if (ek > rowEnd[i]) rowEnd[i] = ek;
    }
  }
  return singularAt;
}

static void bandLuSolveInPlace(const BandLU *lu, double *b) {
  const int n = lu->n, kl = lu->kl, w = lu->w, wm1 = w - 1;
  const double *ab = lu->ab;
  for (int k = 0; k < n - 1; k++) {
    const int p = lu->piv[k];
    if (p != k) {
      const double t = b[k];
      b[k] = b[p];
      b[p] = t;
    }
    const double bk = b[k];
    if (bk == 0) continue;
    const int km = imin(kl, n - 1 - k);
    for (int t = 1, o = k * w + kl + wm1; t <= km; t++, o += wm1) b[k + t] = b[k + t] - ab[o] * bk;
  }
  for (int i = n - 1; i >= 0; i--) {
    const int r = i * wm1 + kl;
    const int e = lu->rowEnd[i];
    double s = b[i];
    for (int j = i + 1; j <= e; j++) s -= ab[r + j] * b[j];
    b[i] = s / ab[r + i];
  }
}

static void bandLuSolveTransposeInPlace(const BandLU *lu, double *b) {
  const int n = lu->n, kl = lu->kl, w = lu->w, wm1 = w - 1;
  const double *ab = lu->ab;
  for (int i = 0; i < n; i++) {
    const int r = i * wm1 + kl;
    const double zi = b[i] / ab[r + i];
    b[i] = zi;
    if (zi == 0) continue;
    const int e = lu->rowEnd[i];
    for (int j = i + 1; j <= e; j++) b[j] = b[j] - ab[r + j] * zi;
  }
  for (int k = n - 2; k >= 0; k--) {
    const int km = imin(kl, n - 1 - k);
    double s = b[k];
    for (int t = 1, o = k * w + kl + wm1; t <= km; t++, o += wm1) s -= ab[o] * b[k + t];
    b[k] = s;
    const int p = lu->piv[k];
    if (p != k) {
      b[k] = b[p];
      b[p] = s;
    }
  }
}

/* BandLU.factor of a band matrix (kl = ku = KB, row width sw = 2KB + 1) */
static void bandLuFactor(BandLU *lu, const double *src) {
  const int n = lu->n, sw = lu->kl + lu->ku + 1, w = lu->w, kl = lu->kl;
  double *colSum = lu->work;
  for (int j = 0; j < n; j++) colSum[j] = 0;
  for (int i = 0; i < n; i++) {
    for (int t = 0; t < sw; t++) {
      const double v = src[i * sw + t];
      if (!isfinite(v)) fail("BandLU.factor: non-finite entry");
      lu->ab[i * w + t] = v;
      if (v != 0) {
        const int j = i + t - kl;
        colSum[j] = colSum[j] + fabs(v);
      }
    }
    for (int t = sw; t < w; t++) lu->ab[i * w + t] = 0;
  }
  double a1 = 0;
  for (int j = 0; j < n; j++)
    if (colSum[j] > a1) a1 = colSum[j];
  lu->anorm1 = a1;
  lu->singular = bandLuFactorInPlace(lu->ab, n, lu->kl, lu->ku, lu->piv, lu->rowEnd) >= 0;
}

static void bandLuSolve(const BandLU *lu, double *b) {
  if (lu->singular) fail("BandLU.solve: singular");
  for (int i = 0; i < lu->n; i++)
    if (!isfinite(b[i])) fail("BandLU.solve: right-hand side");
  bandLuSolveInPlace(lu, b);
  for (int i = 0; i < lu->n; i++)
    if (!isfinite(b[i])) fail("BandLU.solve: solution");
}

static double bandLuCondition(BandLU *lu) {
  if (lu->singular) return INFINITY;
  const int n = lu->n;
  if (n == 1) return 1;
  double *x = lu->work, *xi = lu->work2;
  const double inv = 1.0 / n;
  for (int i = 0; i < n; i++) x[i] = inv;
  bandLuSolveInPlace(lu, x);
  double est = 0;
  for (int i = 0; i < n; i++) est += fabs(x[i]);
  for (int iter = 0; iter < 5; iter++) {
    for (int i = 0; i < n; i++) xi[i] = x[i] >= 0 ? 1 : -1;
    bandLuSolveTransposeInPlace(lu, xi);
    int jmax = 0;
    double zmax = fabs(xi[0]);
    for (int i = 1; i < n; i++) {
      const double v = fabs(xi[i]);
      if (v > zmax) {
        zmax = v;
        jmax = i;
      }
    }
    for (int i = 0; i < n; i++) x[i] = 0;
    x[jmax] = 1;
    bandLuSolveInPlace(lu, x);
    double newEst = 0;
    for (int i = 0; i < n; i++) newEst += fabs(x[i]);
    if (newEst <= est) break;
    est = newEst;
  }
  for (int i = 0; i < n; i++) x[i] = (i % 2 == 0 ? 1 : -1) * (1 + (double)i / (n - 1));
  bandLuSolveInPlace(lu, x);
  double alt = 0;
  for (int i = 0; i < n; i++) alt += fabs(x[i]);
  alt = (2 * alt) / (3 * n);
  if (alt > est) est = alt;
  const double kappa = est * lu->anorm1;
  return isfinite(kappa) ? kappa : INFINITY;
}

/* --- the RATTLE stepper ------------------------------------------------------------------------- */
static double *base, *q1, *qk, *Cbk, *Cb1, *wgt, *tmpN, *gV, *invM, *rhsM, *mu, *zNew, *lambda;
static double *x, *f, *dx, *hist, *Jb, *Ab;
static BandLU luJ, luA;

static double normInf(const double *v, int n) {
  double m = 0;
  for (int i = 0; i < n; i++) {
    const double a = fabs(v[i]);
    if (!(a <= m)) m = a;
  }
  return m;
}

static void Gb(double *out, const double *lam) {
  const double c = 0.5 * H * H;
  for (int j = 0; j < NQ; j++) tmpN[j] = 0;
  bandScatterT(tmpN, Cbk, lam);
  for (int j = 0; j < NQ; j++) q1[j] = base[j] + c * invM[j] * tmpN[j];
  phi(out, q1);
}

static void Jac(double *out) {
  bandC(Cb1, q1);
  bandGram(out, Cb1, Cbk, wgt, 2);
}

static void prepare(const double *z) {
  for (int j = 0; j < NQ; j++) qk[j] = z[j];
  const double c = 0.5 * H * H;
  bandC(Cbk, qk);
  for (int j = 0; j < NQ; j++) wgt[j] = c * invM[j];
  gradV(gV, qk);
  for (int j = 0; j < NQ; j++) base[j] = z[j] + H * z[NQ + j] - c * invM[j] * gV[j];
}

static int newton(void) {
  const int m = NL;
  for (int i = 0; i < m; i++) x[i] = lambda[i];
  Gb(f, x);
  double r = normInf(f, m);
  if (!isfinite(r)) fail("G(x0) not finite");
  hist[0] = r;
  double xNorm = normInf(x, m);
  int k = 0;
  int converged = 0;
  for (;;) {
    if (r <= TOL) {
      converged = 1;
      break;
    }
    if (k >= MAX_IT) break;
    Jac(Jb);
    bandLuFactor(&luJ, Jb);
    if (luJ.singular) fail("singular Jacobian");
    const double cond = bandLuCondition(&luJ);
    if (!(cond < 1 / DBL_EPSILON)) fail("singular Jacobian (condition)");
    for (int i = 0; i < m; i++) dx[i] = -f[i];
    k++;
    bandLuSolve(&luJ, dx);
    const double dxNorm = normInf(dx, m);
    const int smallStep = dxNorm <= STEP_TOL * fmax(1, xNorm);
    for (int i = 0; i < m; i++) x[i] = x[i] + dx[i];
    xNorm = normInf(x, m);
    if (!isfinite(xNorm)) fail("non-finite iterate");
    Gb(f, x);
    r = normInf(f, m);
    hist[k] = r;
    if (!isfinite(r)) fail("non-finite residual");
    if (smallStep && r > TOL) {
      converged = 1;
      break;
    }
    if (r > TOL && r <= STALL && r > 0.5 * hist[k - 1]) {
      converged = 1;
      break;
    }
  }
  if (!converged) fail("Newton did not converge");
  return k;
}

static int step(double *z) {
  const int n = NQ, m = NL;
  prepare(z);
  const int its = newton();
  Gb(rhsM, x);
  double res = 0;
  for (int a = 0; a < m; a++) res = fmax(res, fabs(rhsM[a]));
  if (!(res <= STALL)) fail("residual above 1e-12");
  for (int j = 0; j < n; j++) {
    zNew[n + j] = (q1[j] - z[j]) / H;
    zNew[j] = q1[j];
  }
  bandC(Cb1, q1);
  gradV(gV, q1);
  const double hh = 0.5 * H;
  for (int j = 0; j < n; j++) {
    const double v = zNew[n + j] - hh * invM[j] * gV[j];
    zNew[n + j] = v;
    tmpN[j] = v;
  }
  bandMul(mu, Cb1, tmpN);
  for (int a = 0; a < m; a++) mu[a] = -mu[a];
  bandGram(Ab, Cb1, Cb1, invM, hh);
  bandLuFactor(&luA, Ab);
  bandLuSolve(&luA, mu);
  for (int j = 0; j < n; j++) tmpN[j] = 0;
  bandScatterT(tmpN, Cb1, mu);
  for (int j = 0; j < n; j++) zNew[n + j] = zNew[n + j] + hh * invM[j] * tmpN[j];
  for (int i = 0; i < 2 * n; i++)
    if (!isfinite(zNew[i])) fail("non-finite state");
  for (int a = 0; a < m; a++) lambda[a] = x[a];
  memcpy(z, zNew, sizeof(double) * 2 * (size_t)n);
  return its;
}

static int cmp(const void *a, const void *b) {
  const double u = *(const double *)a, v = *(const double *)b;
  return (u > v) - (u < v);
}

static double cpuNow(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s LINKS P STEPS_PER_RUN RUNS [reps <= 100]\n", argv[0]);
    return 1;
  }
  NL = atoi(argv[1]);
  PLOAD = atof(argv[2]);
  const long steps = atol(argv[3]);
  const long runs = atol(argv[4]);
  const int reps = argc > 5 ? atoi(argv[5]) : 7;
  if (NL < 1 || NL > 2000 || steps < 1 || runs < 1 || reps < 1 || reps > 100) return 1;
  NQ = 2 * NL;
  H = 0.01;
  /* the Gram band: rows a, b couple when first(b) < first(a) + W, i.e. |a - b| <= 1 */
  KB = NL > 1 ? 1 : 0;
  theta = alloc(NL);
  Vth = alloc(NL);
  base = alloc(NQ);
  q1 = alloc(NQ);
  qk = alloc(NQ);
  Cbk = alloc((long)NL * W);
  Cb1 = alloc((long)NL * W);
  wgt = alloc(NQ);
  tmpN = alloc(NQ);
  gV = alloc(NQ);
  invM = alloc(NQ);
  for (int j = 0; j < NQ; j++) invM[j] = 1 / MASS;
  rhsM = alloc(NL);
  mu = alloc(NL);
  zNew = alloc(2 * NQ);
  lambda = alloc(NL);
  x = alloc(NL);
  f = alloc(NL);
  dx = alloc(NL);
  hist = alloc(MAX_IT + 1);
  Jb = alloc((long)NL * (2 * KB + 1));
  Ab = alloc((long)NL * (2 * KB + 1));
  bandLuInit(&luJ, NL, KB, KB);
  bandLuInit(&luA, NL, KB, KB);
  double *z = alloc(2 * NQ), *z0 = alloc(2 * NQ);
  {
    double px = 0, py = 0;
    for (int i = 0; i < NL; i++) {
      const double th = 0.1 * (1 + (double)i / (NL > 1 ? NL - 1 : 1));
      px += LEN * sin(th);
      py += LEN * cos(th);
      z0[2 * i] = px;
      z0[2 * i + 1] = py;
    }
  }
  double ns[100];
  long iterations = 0;
  for (int rep = -1; rep < reps; rep++) {
    const double t0 = cpuNow();
    for (long r = 0; r < runs; r++) {
      memcpy(z, z0, sizeof(double) * 2 * (size_t)NQ);
      for (int a = 0; a < NL; a++) lambda[a] = 0;
      iterations = 0;
      for (long k = 0; k < steps; k++) iterations += step(z);
    }
    const double t1 = cpuNow();
    if (rep >= 0) ns[rep] = (t1 - t0) / (double)(steps * runs);
  }
  qsort(ns, (size_t)reps, sizeof ns[0], cmp);
  const double med = reps % 2 ? ns[reps / 2] : 0.5 * (ns[reps / 2 - 1] + ns[reps / 2]);
  printf("{ \"nsPerStep\": %.3f, \"min\": %.3f, \"max\": %.3f, \"q0\": %.17g, \"qLast\": %.17g, "
         "\"vLast\": %.17g, \"iterations\": %ld }\n",
         med, ns[0], ns[reps - 1], z[0], z[NQ - 1], z[2 * NQ - 1], iterations);
  return 0;
}
