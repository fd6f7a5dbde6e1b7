/*
 * Reference C implementation of one step of MidpointHerglotz (packages/contact/src/midpoint.ts)
 * for the damped pendulum: n = 1, L = v^2/2 - V(q) + gamma z, V(q) = (g/l)(1 - cos q).
 *
 *   Newton on G(x) = (x - q)/h + (h/2) V'((q + x)/2) - sigma p,  G'(x) = 1/h + (h/4) V''(mid),
 *   from x = q + h sigma p, with core's NewtonSolver default stopping rule (no line search):
 *     stop when |G|_inf <= 1e-12 (before any iteration or after a step), or after a step with
 *     |dx| <= 4 eps max(1, |x|) (the step criterion), or after 50 iterations (failure).
 *   p' = (x - q)/h - (h/2) V'(mid),  z' = sigma z + (x - q)^2/(2h) - h V(mid),  sigma = 1 + h gamma.
 *
 * The arithmetic is written in the same order as the TypeScript so that, compiled without FMA
 * contraction (-ffp-contract=off), both produce the same iterates up to libm's sin/cos.
 *
 * Usage: midpoint_pendulum N [gamma = -0.1] [reps = 7]
 * Prints {"nsPerStep": median, "min", "max", "q", "p", "z", "iterations"} for N steps from
 * q0 = 1, p0 = 0, z0 = 0 with g = l = 1, h = 0.01; "iterations" is the Newton total of one run.
 */
#define _POSIX_C_SOURCE 199309L
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NEWTON_TOL 1e-12
#define NEWTON_STEP_TOL (4 * DBL_EPSILON)
#define NEWTON_MAX_ITERATIONS 50

typedef struct {
  double h, sigma, w2;
} Integrator;

/* G(x) = (x - q)/h + (h/2) V'(mid) - sigma p */
static double residual(const Integrator *it, double q, double p, double x) {
  const double mid = 0.5 * (q + x);
  const double grad = it->w2 * sin(mid);
  return (x - q) / it->h + 0.5 * it->h * grad - it->sigma * p;
}

/* G'(x) = (h/4) V''(mid) + 1/h */
static double jacobian(const Integrator *it, double q, double x) {
  const double mid = 0.5 * (q + x);
  const double hess = it->w2 * cos(mid);
  return 0.25 * it->h * hess + 1 / it->h;
}

/* One step in place; returns z_{k+1}. Adds the Newton iterations to *iterations; exits on failure. */
static double step(const Integrator *it, double *q, double *p, double z, long *iterations) {
  const double h = it->h, sigma = it->sigma, qk = *q, pk = *p;
  double x = qk + h * sigma * pk;
  double f = residual(it, qk, pk, x);
  double r = fabs(f);
  if (!isfinite(r)) {
    fprintf(stderr, "non-finite F(x0)\n");
    exit(2);
  }
  int k = 0;
  int converged = 0;
  for (;;) {
    if (r <= NEWTON_TOL) {
      converged = 1;
      break;
    }
    if (k >= NEWTON_MAX_ITERATIONS) break;
    const double jac = jacobian(it, qk, x);
    if (!isfinite(jac) || jac == 0) {
      fprintf(stderr, "singular or non-finite Jacobian\n");
      exit(2);
    }
    const double dx = -f / jac;
    k++;
    const double dxNorm = fabs(dx);
    const int smallStep = dxNorm <= NEWTON_STEP_TOL * fmax(1, fabs(x));
    x = x + dx;
    f = residual(it, qk, pk, x);
    r = fabs(f);
    if (!isfinite(x) || !isfinite(r)) {
      fprintf(stderr, "Newton diverged\n");
      exit(2);
    }
    if (smallStep && r > NEWTON_TOL) {
      converged = 1;
      break;
    }
  }
  if (!converged) {
    fprintf(stderr, "Newton did not converge\n");
    exit(2);
  }
  *iterations += k;
  const double mid = 0.5 * (qk + x);
  const double grad = it->w2 * sin(mid);
  const double d = x - qk;
  *p = d / h - 0.5 * h * grad;
  *q = x;
  return sigma * z + (d * d) / (2 * h) - h * (it->w2 * (1 - cos(mid)));
}

static int cmp(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  const long n = argc > 1 ? atol(argv[1]) : 1000000;
  const double gamma = argc > 2 ? atof(argv[2]) : -0.1;
  const int reps = argc > 3 ? atoi(argv[3]) : 7;
  if (n < 1 || reps < 1 || reps > 100) {
    fprintf(stderr, "usage: %s N [gamma] [reps <= 100]\n", argv[0]);
    return 1;
  }
  const double g = 1, l = 1, h = 0.01;
  const Integrator it = {h, 1 + h * gamma, g / l};
  double ns[100];
  double q = 0, p = 0, z = 0;
  long iterations = 0;
  for (int rep = -1; rep < reps; rep++) { /* rep -1 warms up */
    q = 1;
    p = 0;
    z = 0;
    iterations = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long k = 0; k < n; k++) z = step(&it, &q, &p, z, &iterations);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (rep >= 0)
      ns[rep] = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / n;
  }
  qsort(ns, reps, sizeof ns[0], cmp);
  const double med = reps % 2 ? ns[reps / 2] : 0.5 * (ns[reps / 2 - 1] + ns[reps / 2]);
  printf("{ \"nsPerStep\": %.3f, \"min\": %.3f, \"max\": %.3f, \"q\": %.17g, \"p\": %.17g, "
         "\"z\": %.17g, \"iterations\": %ld }\n",
         med, ns[0], ns[reps - 1], q, p, z, iterations);
  return 0;
}
