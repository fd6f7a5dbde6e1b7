/*
 * The whole-process yardstick of `geomech simulate rigid-body --method MAP --steps N --every K`
 * (issue 20: "the whole `geomech simulate rigid-body` process for 10^6 steps within 3x of a C program
 * doing the same steps, start-up included"): the CLI's run with its defaults (I = diag(1, 2, 3),
 * h = 0.1, xi_1 = (0.8, -0.5, 0.3), G_0 = I) made by the step of bench/c/rigidbody_step.c (the same
 * step as RigidBodyStepper, same Newton stopping rule, same operation order), keeping every K-th
 * state and the last as the CLI's core `integrate` does (the kept states' G and xi in one buffer,
 * allocated before the run), then printing the last kept state.
 *
 * The CLI also derives pi, the Casimir, the spatial momentum and the energy of each kept state and
 * writes them as JSON; with K = N that is two states, nothing next to 10^6 steps.
 *
 * Usage: rigidbody_run cayley|exp STEPS EVERY   (1 <= EVERY, 1 <= STEPS <= 10^9)
 * Prints {"steps", "kept", "t", "R": [9], "xi": [3], "iterations"} with %.17g (R and xi of the last kept
 * state; iterations summed over the steps), the fields of the CLI's JSON series they compare with.
 *
 * Build: cc -O2 -ffp-contract=off -o rigidbody_run rigidbody_run.c -lm
 */
#define RIGIDBODY_STEP_NO_MAIN
#include "rigidbody_step.c"

int main(int argc, char **argv) {
  if (argc != 4 || (strcmp(argv[1], "cayley") != 0 && strcmp(argv[1], "exp") != 0)) {
    fprintf(stderr, "usage: %s cayley|exp STEPS EVERY\n", argv[0]);
    return 1;
  }
  const long steps = atol(argv[2]);
  const long every = atol(argv[3]);
  if (steps < 1 || steps > 1000000000L || every < 1) {
    fprintf(stderr, "need 1 <= STEPS <= 1e9 and EVERY >= 1\n");
    return 1;
  }
  Body b = {{1, 2, 3}, 0.1, strcmp(argv[1], "exp") == 0, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0}};
  /* kept states: every EVERY-th and the last (core's integrate, the CLI's keptStates) */
  const long kept = steps / every + 1 + (steps % every == 0 ? 0 : 1);
  double *samples = malloc((size_t)kept * 12 * sizeof(double));
  if (samples == NULL) fail("out of memory");
  double G[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  double xi[3] = {0.8, -0.5, 0.3};
  long n = 0;
  memcpy(samples, G, sizeof G);
  memcpy(samples + 9, xi, sizeof xi);
  n = 1;
  long iterations = 0;
  for (long k = 1; k <= steps; k++) {
    iterations += step(&b, G, xi);
    if (k % every == 0 || k == steps) {
      memcpy(samples + 12 * n, G, sizeof G);
      memcpy(samples + 12 * n + 9, xi, sizeof xi);
      n++;
    }
  }
  const double *last = samples + 12 * (n - 1);
  printf("{ \"steps\": %ld, \"kept\": %ld, \"t\": %.17g, \"R\": [%.17g, %.17g, %.17g, %.17g, %.17g, %.17g, %.17g, "
         "%.17g, %.17g], \"xi\": [%.17g, %.17g, %.17g], \"iterations\": %ld }\n",
         steps, n, (double)steps * b.h, last[0], last[1], last[2], last[3], last[4], last[5], last[6], last[7],
         last[8], last[9], last[10], last[11], iterations);
  free(samples);
  return n == kept ? 0 : 3;
}
