import { DiscreteForce, DomainError } from '@geomech/core';
import { describe, expect, it } from 'vitest';
import {
  BorderedMatrix,
  bandedForceJacobian,
  ForceNode,
  forceBandwidth,
} from '../src/borderedStep.js';
import { RattleStepper } from '../src/comparators.js';
import { DiracStepper } from '../src/diracIntegrators.js';
import { zieglerColumn } from '../src/holonomicModels.js';

const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i]! - b[i]!));
  return d;
};

describe('banded force Jacobian (grouped central differences) of the damped Ziegler column', () => {
  const links = 8;
  const sys = zieglerColumn({ n: links, P: 0.01, damping: 0.3 });
  const force = sys.force!;
  const n = sys.n;
  const h = 0.01;
  const theta = Array.from({ length: links }, (_, i) => 0.2 * Math.sin(i + 1));
  const q0 = sys.fromAngles(theta);
  const q1 = sys.fromAngles(theta.map((x, i) => x + 0.01 * Math.cos(3 * i)));
  const u = new Float64Array(0);
  it('declares half-bandwidth 5, and the dense Jacobian vanishes outside it', () => {
    expect(forceBandwidth(force, n)).toBe(5);
    const fd = new DiscreteForce(force, h, 'midpoint');
    const dense = new Float64Array(n * n);
    fd.jacobian(undefined, dense, undefined, 0, q0, q1, u);
    let outside = 0;
    let inside = 0;
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        const v = Math.abs(dense[i * n + j]!);
        if (Math.abs(i - j) > 5) outside = Math.max(outside, v);
        else inside = Math.max(inside, v);
      }
    expect(outside).toBe(0);
    expect(inside).toBeGreaterThan(1);
  });
  it('equals the dense central-difference Jacobian ∂F̄/∂q_{k+1} to 1e-7 (both carry O(e²) errors), q1 restored bit for bit', () => {
    const fd = new DiscreteForce(force, h, 'midpoint');
    const dense = new Float64Array(n * n);
    fd.jacobian(undefined, dense, undefined, 0, q0, q1, u);
    const k = 5;
    const w = 2 * k + 1;
    const band = new Float64Array(n * w);
    const copy = Float64Array.from(q1);
    const s = () => new Float64Array(n);
    const node = new ForceNode(fd);
    node.setTime(0);
    bandedForceJacobian(band, node, k, q0, q1, u, s(), s(), s(), s());
    expect(Array.from(q1)).toEqual(Array.from(copy));
    let diff = 0;
    for (let i = 0; i < n; i++)
      for (let j = Math.max(0, i - k); j <= Math.min(n - 1, i + k); j++)
        diff = Math.max(diff, Math.abs(band[i * w + j - i + k]! - dense[i * n + j]!));
    expect(diff).toBeLessThan(1e-7);
  });
  it('rejects a bandwidth that is not a non-negative integer', () => {
    expect(() => forceBandwidth({ ...force, jacobianBandwidth: -1 } as typeof force, n)).toThrow(
      DomainError,
    );
  });
});

describe('BorderedMatrix: the banded (interleaved) solve equals the dense one', () => {
  it('n = 16 (8 links), A of half-bandwidth 5: agreement 1e-13, half-bandwidth independent of n', () => {
    const kOf: number[] = [];
    for (const links of [8, 64]) {
      const sys = zieglerColumn({ n: links });
      const band = sys.band!;
      const { n, m } = sys;
      const B = new BorderedMatrix(n, m, band, 5);
      const D = new BorderedMatrix(n, m, null, -1);
      const C = new Float64Array(m * band.width);
      band.C(C, sys.fromAngles(Array.from({ length: links }, (_, i) => 0.3 * Math.cos(i))));
      for (const M of [B, D]) {
        M.clear();
        for (let i = 0; i < n; i++)
          for (let j = Math.max(0, i - 5); j <= Math.min(n - 1, i + 5); j++)
            M.set(i, j, i === j ? 4 + Math.sin(i) : 0.1 * Math.cos(i + 2 * j));
        for (let a = 0; a < m; a++)
          for (let t = 0; t < band.width; t++) {
            const j = band.first[a]! + t;
            if (j < 0 || j >= n) continue;
            M.set(j, n + a, C[a * band.width + t]!);
            M.set(n + a, j, 2 * C[a * band.width + t]!);
          }
        expect(M.factor()).toBe(true);
      }
      const x = Float64Array.from({ length: n + m }, (_, i) => Math.sin(0.7 * i + 1));
      const y = Float64Array.from(x);
      B.solve(x);
      D.solve(y);
      expect(maxAbsDiff(x, y)).toBeLessThan(1e-13 * Math.max(1, ...Array.from(y, Math.abs)));
      // the stored half-bandwidth: read it off the permutation of the widest coupling
      let k = 0;
      for (let i = 0; i < n; i++)
        k = Math.max(k, Math.abs(B.pos[Math.min(n - 1, i + 5)]! - B.pos[i]!));
      kOf.push(k);
    }
    expect(kOf[0]).toBe(kOf[1]);
  });
});

describe('forced banded steps equal the dense path to ~1e-12 (damped Ziegler column, n = 32)', () => {
  // measured over 100 steps at h = 0.01: Dirac-2c 4.6e-16 and RATTLE 4.0e-13 in the state (the
  // dense RATTLE stops its multiplier Newton at the 1e-12 round-off floor of φ); asserted 1e-14
  // and 2e-12. 196 forced Newton iterations on the banded Dirac path.
  const links = 32;
  const sys = zieglerColumn({ n: links, P: 0.001, damping: 0.2 });
  const { band: _b, ...rest } = sys;
  const dense = rest as typeof sys;
  const force = sys.force!;
  const theta = Array.from({ length: links }, (_, i) => 0.05 * (1 + Math.sin(i)));
  const q0 = sys.fromAngles(theta);
  const h = 0.01;
  it('Dirac-2c and RATTLE', () => {
    const d = [
      new DiracStepper(sys, 'dirac-2c', { force }),
      new DiracStepper(dense, 'dirac-2c', { force }),
    ];
    expect(d[0]!.ws.band).not.toBeNull();
    expect(d[1]!.ws.band).toBeNull();
    // f_d⁻ in line 3 makes the forced step a Newton solve; the right rectangle keeps it explicit.
    expect(d[0]!.method.isExplicit).toBe(false);
    expect(
      new DiracStepper(sys, 'dirac-2c', { force, forceQuadrature: 'right' }).method.isExplicit,
    ).toBe(true);
    const sd = d.map((st) => {
      const x = st.initialState(q0, new Float64Array(sys.n));
      st.reset(x);
      return x;
    });
    const r = [new RattleStepper(sys, { force }), new RattleStepper(dense, { force })];
    const sr = r.map((st) => {
      st.reset();
      const z = new Float64Array(2 * sys.n);
      z.set(q0);
      return z;
    });
    let dDiff = 0;
    let rDiff = 0;
    let its = 0;
    for (let k = 0; k < 100; k++) {
      d.forEach((st, i) => {
        const it = st.step(sd[i]!, k, h);
        if (i === 0) its += it;
      });
      r.forEach((st, i) => {
        st.step(sr[i]!, k, h);
      });
      dDiff = Math.max(dDiff, maxAbsDiff(sd[0]!, sd[1]!));
      rDiff = Math.max(rDiff, maxAbsDiff(sr[0]!, sr[1]!));
    }
    expect(its).toBeGreaterThan(50);
    expect(dDiff).toBeLessThan(1e-14);
    expect(rDiff).toBeLessThan(2e-12);
  });
});
