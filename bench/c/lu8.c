/*
 * Minimal C reference of a dense LU factor + solve with partial pivoting, the kernel behind
 * core's DenseLU (packages/core/src/linalg/lu.ts): copy A into the factor storage, Doolittle
 * elimination with row pivoting (dividing by the pivot, like luFactorInPlace), then the forward
 * and backward substitutions of luSolveInPlace. No finiteness checks, no norm, no condition
 * estimate: the floor a straightforward C implementation reaches.
 *
 * The timed loop matches bench/js/kernels.mjs: the same mulberry32-generated 8×8 matrix and
 * right-hand side, a[0] = 1 + k·1e-12 changed every call so nothing can be hoisted, the first
 * solution entry summed into a checksum.
 *
 * Usage: lu8 [n = 8] [calls = 2000000] [reps = 7]
 * Prints {"nsPerCall": median, "min", "max", "checksum"}.
 */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NMAX 64

/* mulberry32, identical to packages/core/bench/harness.mjs rng(seed) */
static uint32_t rng_state;
static double rng_next(void) {
  rng_state += 0x6d2b79f5u;
  uint32_t t = rng_state;
  t = (t ^ (t >> 15)) * (t | 1u);
  t ^= t + (t ^ (t >> 7)) * (t | 61u);
  return (double)(t ^ (t >> 14)) / 4294967296.0;
}

/* Returns -1, or the first column with a zero pivot. */
static int lu_factor(double *lu, const double *a, int n, int *piv) {
  int singular = -1;
  for (int i = 0; i < n * n; i++) lu[i] = a[i];
  for (int k = 0; k < n; k++) {
    int p = k;
    double maxAbs = fabs(lu[k * n + k]);
    for (int i = k + 1; i < n; i++) {
      double v = fabs(lu[i * n + k]);
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
    if (p != k) {
      for (int j = 0; j < n; j++) {
        double t = lu[k * n + j];
        lu[k * n + j] = lu[p * n + j];
        lu[p * n + j] = t;
      }
    }
    const double pivot = lu[k * n + k];
    for (int i = k + 1; i < n; i++) {
      double l = lu[i * n + k] / pivot;
      lu[i * n + k] = l;
      if (l != 0)
        for (int j = k + 1; j < n; j++) lu[i * n + j] -= l * lu[k * n + j];
    }
  }
  return singular;
}

static void lu_solve(const double *lu, int n, const int *piv, double *b) {
  for (int k = 0; k < n; k++) {
    int p = piv[k];
    if (p != k) {
      double t = b[k];
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

static int cmp(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 8;
  const long calls = argc > 2 ? atol(argv[2]) : 2000000;
  const int reps = argc > 3 ? atoi(argv[3]) : 7;
  if (n < 1 || n > NMAX || calls < 1 || reps < 1 || reps > 100) {
    fprintf(stderr, "usage: %s [n <= %d] [calls] [reps <= 100]\n", argv[0], NMAX);
    return 1;
  }
  static double a[NMAX * NMAX], lu[NMAX * NMAX], b[NMAX], x[NMAX];
  static int piv[NMAX];
  rng_state = 8;
  for (int i = 0; i < n * n; i++) a[i] = 2 * rng_next() - 1;
  for (int i = 0; i < n; i++) b[i] = 2 * rng_next() - 1;
  double ns[100];
  double sink = 0;
  for (int rep = -1; rep < reps; rep++) { /* rep -1 warms up */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long k = 0; k < calls; k++) {
      a[0] = 1 + (double)k * 1e-12;
      if (lu_factor(lu, a, n, piv) >= 0) {
        fprintf(stderr, "singular\n");
        return 2;
      }
      for (int i = 0; i < n; i++) x[i] = b[i];
      lu_solve(lu, n, piv, x);
      sink += x[0];
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (rep >= 0)
      ns[rep] = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / calls;
  }
  qsort(ns, reps, sizeof ns[0], cmp);
  const double med = reps % 2 ? ns[reps / 2] : 0.5 * (ns[reps / 2 - 1] + ns[reps / 2]);
  printf("{ \"nsPerCall\": %.3f, \"min\": %.3f, \"max\": %.3f, \"checksum\": %.17g }\n", med, ns[0],
         ns[reps - 1], sink);
  return 0;
}
