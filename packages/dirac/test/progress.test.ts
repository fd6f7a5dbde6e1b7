import { PROGRESS_INTERVAL_STEPS } from '@geomech/core';
import { describe, expect, it } from 'vitest';
import { integrateConstrained } from '../src/comparators.js';
import { integrateDirac } from '../src/diracIntegrators.js';
import { pendulum, pendulumInitial } from '../src/holonomicModels.js';

describe('onProgress of the trajectory functions', () => {
  const sys = pendulum({ m: 1, g: 9.81, l: 1 });
  const init = pendulumInitial(0.5, 0, 1);
  const steps = 2 * PROGRESS_INTERVAL_STEPS + 10;
  it('integrateDirac and integrateConstrained report every PROGRESS_INTERVAL_STEPS steps', () => {
    for (const run of [
      (cb: (d: number, t: number) => void) =>
        integrateDirac(sys, 'dirac-2c', init, 0.001, steps, { every: 100, onProgress: cb }),
      (cb: (d: number, t: number) => void) =>
        integrateConstrained(sys, 'rk4', init, 0.001, steps, { every: 100, onProgress: cb }),
    ]) {
      const calls: [number, number][] = [];
      run((d, t) => calls.push([d, t]));
      expect(calls).toEqual([
        [PROGRESS_INTERVAL_STEPS, steps],
        [2 * PROGRESS_INTERVAL_STEPS, steps],
      ]);
    }
  });
});
