/**
 * Fig. 7 analogue (spec 001 §7.2 "Quantifying that explanation", §7.3 "Ziegler Fig. 7 effect",
 * §9 item 14): with the load slightly below the buckling load P_c(l0), Dirac-1's monotone link
 * growth (§5.6) lowers P_c(l) ∝ 1/l below P, and the column ends up oscillating about a bent
 * equilibrium; the length-preserving schemes (Dirac-2c of §5.7, RATTLE) stay about the upright one.
 *
 * Setup (spec §7.3, [E]): k = m = l1 = l2 = 1, P = 0.97·P_c(1) = 0.284106, θ0 = (0.3, 0.5) rad
 * from the upward vertical, zero velocity, h = 0.05, T = 3000 (60 000 steps; < 1 s per method).
 * Measured: final link lengths; unwrapped angles θ1, θ2 — their mean over the last 20% of the
 * samples, and max |θ| over the whole run.
 */
import { describe, expect, it } from 'vitest';
import { integrateConstrained } from '../../src/comparators.js';
import { integrateDirac } from '../../src/diracIntegrators.js';
import { zieglerColumn } from '../../src/holonomicModels.js';
import { buckledEquilibria, zieglerCriticalLoad2 } from '../../src/ziegler.js';

const P = 0.97 * zieglerCriticalLoad2(1, 1, 1);
const h = 0.05;
const steps = Math.round(3000 / h);
const z = zieglerColumn({ n: 2, m: 1, k: 1, l: 1, P });
const q0 = z.fromAngles([0.3, 0.5]);
const v0 = new Float64Array(4);

interface Summary {
  /** Final |e1|, |e2|. */
  readonly lengths: readonly [number, number];
  /** Extreme |e1|, |e2| deviation from 1 over the samples. */
  readonly maxLengthError: number;
  /** Mean unwrapped (θ1, θ2) over the last 20% of the samples. */
  readonly mean: readonly [number, number];
  /** max over the run of max(|θ1|, |θ2|), unwrapped. */
  readonly maxAngle: number;
  /** True when |e1| and |e2| never decrease from sample to sample. */
  readonly lengthsMonotone: boolean;
}

function summarize(q: Float64Array, count: number): Summary {
  const th = new Float64Array(2);
  const unwrapped = [0, 0];
  const offset = [0, 0];
  let sum1 = 0;
  let sum2 = 0;
  let tail = 0;
  let maxAngle = 0;
  let maxLengthError = 0;
  let monotone = true;
  const prevLen = [0, 0];
  const len = [0, 0];
  for (let j = 0; j < count; j++) {
    const qj = q.subarray(4 * j, 4 * j + 4);
    z.angles(qj, th);
    for (let i = 0; i < 2; i++) {
      let a = th[i]! + offset[i]!;
      while (a - unwrapped[i]! > Math.PI) {
        offset[i] = offset[i]! - 2 * Math.PI;
        a -= 2 * Math.PI;
      }
      while (a - unwrapped[i]! < -Math.PI) {
        offset[i] = offset[i]! + 2 * Math.PI;
        a += 2 * Math.PI;
      }
      unwrapped[i] = a;
      maxAngle = Math.max(maxAngle, Math.abs(a));
    }
    len[0] = Math.hypot(qj[0]!, qj[1]!);
    len[1] = Math.hypot(qj[2]! - qj[0]!, qj[3]! - qj[1]!);
    for (let i = 0; i < 2; i++) {
      maxLengthError = Math.max(maxLengthError, Math.abs(len[i]! - 1));
      if (j > 0 && len[i]! < prevLen[i]! * (1 - 1e-15)) monotone = false;
      prevLen[i] = len[i]!;
    }
    if (j >= 0.8 * count) {
      sum1 += unwrapped[0]!;
      sum2 += unwrapped[1]!;
      tail++;
    }
  }
  return {
    lengths: [len[0]!, len[1]!],
    maxLengthError,
    mean: [sum1 / tail, sum2 / tail],
    maxAngle,
    lengthsMonotone: monotone,
  };
}

describe('Ziegler column, Fig. 7 mechanism (spec §7.3, §9 item 14)', () => {
  it('Dirac-1: links lengthen > 10%, P_c(l) drops below P, the column buckles', () => {
    const tr = integrateDirac(z, 'dirac-1', { q0, v0 }, h, steps, { every: 5 });
    const s = summarize(tr.q, tr.count);
    // §5.6: per-link length non-decreasing; §7.3 reference (1.1027, 1.1981)
    expect(s.lengthsMonotone).toBe(true);
    expect(s.lengths[0]).toBeGreaterThan(1.1);
    expect(s.lengths[1]).toBeGreaterThan(1.15);
    expect(zieglerCriticalLoad2(1, s.lengths[0], s.lengths[1])).toBeLessThan(P);
    // buckled: last-20% mean θ1 < −0.4 (§9 item 14), reference (−0.592, −0.839)
    expect(s.mean[0]).toBeLessThan(-0.4);
    expect(s.mean[1]).toBeLessThan(-0.6);
    // angles grow beyond the initial amplitude 0.5 to the buckled equilibrium's size (≈ 1.13)
    expect(s.maxAngle).toBeGreaterThan(1);
    // the oscillation centre is near the buckled equilibrium of the drifted column (−0.651, −0.922)
    const eq = buckledEquilibria({ lengths: [...s.lengths] }, P).find((e) => e.theta[0]! < 0);
    expect(eq).toBeDefined();
    expect(Math.abs(s.mean[0] - eq!.theta[0]!)).toBeLessThan(0.1);
    expect(Math.abs(s.mean[1] - eq!.theta[1]!)).toBeLessThan(0.1);
  });

  it('Dirac-2c: lengths stay within 1e-4 of 1 and the column oscillates about upright', () => {
    const tr = integrateDirac(z, 'dirac-2c', { q0, v0 }, h, steps, { every: 5 });
    const s = summarize(tr.q, tr.count);
    expect(s.maxLengthError).toBeLessThan(1e-4); // measured 1.5e-6
    expect(Math.abs(s.mean[0])).toBeLessThan(0.05); // measured −0.006
    expect(Math.abs(s.mean[1])).toBeLessThan(0.05); // measured −0.008
    expect(s.maxAngle).toBeLessThan(0.51); // never beyond the initial θ2 = 0.5
    // no buckled state exists for the undrifted column at this load
    expect(buckledEquilibria({ n: 2 }, P)).toHaveLength(0);
  });

  it('RATTLE: lengths exact to 1e-12, oscillation about upright', () => {
    const tr = integrateConstrained(z, 'rattle', { q0, v0 }, h, steps, { every: 5 });
    const s = summarize(tr.q, tr.count);
    expect(s.maxLengthError).toBeLessThan(1e-12);
    expect(Math.abs(s.mean[0])).toBeLessThan(0.05);
    expect(Math.abs(s.mean[1])).toBeLessThan(0.05);
    expect(s.maxAngle).toBeLessThan(0.51);
  });
});
