import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DimensionError } from '../../src/errors.js';
import { DenseLU } from '../../src/linalg/lu.js';
import { symmetricEigen } from '../../src/linalg/spectral.js';
import { StageKktSystem } from '../../src/ocp/stageKkt.js';
import { rng } from '../support/random.js';
import { assembleDense, compactRowOffsets, randomDims, randomKkt } from './kktSupport.js';

/** Inertia [pos, neg, zero] of a dense symmetric matrix from its eigenvalues (zero: |λ| ≤ tol·max|λ|). */
function denseInertia(K: Float64Array, size: number, tol = 1e-10): number[] {
  const { values } = symmetricEigen(K, size);
  let scale = 0;
  for (const v of values) scale = Math.max(scale, Math.abs(v));
  const out = [0, 0, 0];
  for (const v of values) {
    if (Math.abs(v) <= tol * scale) out[2]!++;
    else if (v > 0) out[0]!++;
    else out[1]!++;
  }
  return out;
}

function minAbsEigenRatio(K: Float64Array, size: number): number {
  const { values } = symmetricEigen(K, size);
  let lo = Number.POSITIVE_INFINITY;
  let hi = 0;
  for (const v of values) {
    lo = Math.min(lo, Math.abs(v));
    hi = Math.max(hi, Math.abs(v));
  }
  return lo / hi;
}

/** Solves with the stage-wise factorization; returns the full solution in the dense ordering. */
function stageSolve(kkt: StageKktSystem, rhs: Float64Array): Float64Array {
  const n = kkt.nPrimal;
  const nc = kkt.cOffset[kkt.N + 1]!;
  const ngt = kkt.gOffset[kkt.N + 1]!;
  const rowOff = compactRowOffsets(kkt);
  const nl = rowOff[kkt.N + 1]!;
  const dw = new Float64Array(n);
  const dl = new Float64Array(nc);
  const dm = new Float64Array(ngt);
  const rg = new Float64Array(ngt);
  for (let k = 0; k <= kkt.N; k++) {
    for (let i = 0; i < kkt.localRows[k]!; i++)
      rg[kkt.gOffset[k]! + i] = rhs[n + nc + rowOff[k]! + i]!;
  }
  kkt.solve(rhs.subarray(0, n), rhs.subarray(n, n + nc), rg, dw, dl, dm);
  const out = new Float64Array(n + nc + nl);
  out.set(dw, 0);
  out.set(dl, n);
  for (let k = 0; k <= kkt.N; k++) {
    for (let i = 0; i < kkt.localRows[k]!; i++)
      out[n + nc + rowOff[k]! + i] = dm[kkt.gOffset[k]! + i]!;
  }
  return out;
}

function relResidual(K: Float64Array, size: number, x: Float64Array, b: Float64Array): number {
  let rmax = 0;
  let kmax = 0;
  let xmax = 0;
  for (let i = 0; i < size; i++) {
    let s = -b[i]!;
    let rowAbs = 0;
    for (let j = 0; j < size; j++) {
      s += K[i * size + j]! * x[j]!;
      rowAbs += Math.abs(K[i * size + j]!);
    }
    rmax = Math.max(rmax, Math.abs(s));
    kmax = Math.max(kmax, rowAbs);
    xmax = Math.max(xmax, Math.abs(x[i]!));
  }
  return rmax / (kmax * xmax);
}

function randomRhs(size: number, seed: number): Float64Array {
  const r = rng(seed);
  const b = new Float64Array(size);
  for (let i = 0; i < size; i++) b[i] = 2 * r() - 1;
  return b;
}

describe('StageKktSystem: solves against a dense LU of the assembled KKT matrix', () => {
  it('random stage structures (n_u = 0 stages, boundary rows up to n_x, cross-stage Hessians, indefinite W)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 30 }),
        fc.integer({ min: 1, max: 7 }),
        fc.boolean(),
        (seed, N, regularize) => {
          const dims = randomDims(seed, N);
          const deltaC = regularize ? 1e-3 : 0;
          const deltaW = regularize ? 0.5 : 0;
          const kkt = randomKkt({ dims, seed: seed + 1, shift: 0 });
          const { K, size } = assembleDense(kkt, deltaW, deltaC);
          // skip the (measure-zero, but numerically possible) nearly singular draws
          fc.pre(minAbsEigenRatio(K, size) > 1e-7);
          const status = kkt.factor(deltaW, deltaC);
          if (status === 'singular') return; // an intermediate pivot block of an indefinite W is singular
          expect(['ok', 'wrongInertia']).toContain(status);
          expect(Array.from(kkt.inertia)).toEqual(denseInertia(K, size));
          const b = randomRhs(size, seed + 2);
          const x = stageSolve(kkt, b);
          const ref = new DenseLU(size).factor(K).solve(b);
          let err = 0;
          let scale = 0;
          for (let i = 0; i < size; i++) {
            err = Math.max(err, Math.abs(x[i]! - ref[i]!));
            scale = Math.max(scale, Math.abs(ref[i]!));
          }
          expect(relResidual(K, size, x, b)).toBeLessThan(1e-10);
          expect(err / scale).toBeLessThan(1e-6);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('positive definite stage Hessians: status ok, inertia (n, m, 0), residual ≤ 1e-12‖K‖‖Δ‖', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 30 }),
        fc.integer({ min: 1, max: 12 }),
        (seed, N) => {
          const dims = randomDims(seed, N);
          const kkt = randomKkt({ dims, seed: seed + 7, shift: 8 });
          const { K, size } = assembleDense(kkt, 0, 0);
          fc.pre(minAbsEigenRatio(K, size) > 1e-6);
          expect(kkt.factor(0, 0)).toBe('ok');
          expect(Array.from(kkt.inertia)).toEqual([kkt.nPrimal, kkt.nEquality, 0]);
          expect(denseInertia(K, size)).toEqual([kkt.nPrimal, kkt.nEquality, 0]);
          const b = randomRhs(size, seed + 3);
          expect(relResidual(K, size, stageSolve(kkt, b), b)).toBeLessThan(1e-12);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a terminal state constraint of n_x rows with n_u < n_x (carried through many stages)', () => {
    // x ∈ R⁴, u ∈ R¹: the terminal constraint needs ≥ 4 stages of control (relative degree 4)
    const N = 40;
    const dims = Array.from({ length: N + 1 }, (_, k) => ({
      nx: 4,
      nu: k < N ? 1 : 0,
      ng: k === 0 || k === N ? 4 : 0,
    }));
    const kkt = new StageKktSystem(dims);
    const h = 0.02;
    for (let k = 0; k <= N; k++) {
      const nw = kkt.nx[k]! + kkt.nu[k]!;
      const ny = kkt.ny[k]!;
      const hw = nw + ny;
      const ho = kkt.hessOffset[k]!;
      if (k < N) kkt.hess[ho + 4 * hw + 4] = h; // cost h·u²/2 only
      const co = kkt.cJacOffset[k]!;
      // chain of integrators: x⁺ = x + h·shift(x) + h·u e₄, written as c = A x + B u − x⁺
      for (let i = 0; i < ny; i++) {
        kkt.cJac[co + i * hw + i] = 1;
        if (i < 3) kkt.cJac[co + i * hw + i + 1] = h;
        if (i === 3) kkt.cJac[co + i * hw + 4] = h;
        kkt.cJac[co + i * hw + nw + i] = -1;
      }
      const go = kkt.gJacOffset[k]!;
      for (let i = 0; i < kkt.ng[k]!; i++) kkt.gJac[go + i * nw + i] = 1;
    }
    const { K, size } = assembleDense(kkt, 0, 0);
    expect(kkt.factor(0, 0)).toBe('ok');
    expect(kkt.carriedRows).toBe(8);
    expect(denseInertia(K, size)).toEqual([kkt.nPrimal, kkt.nEquality, 0]);
    const b = randomRhs(size, 5);
    expect(relResidual(K, size, stageSolve(kkt, b), b)).toBeLessThan(1e-12);
  });
});

describe('StageKktSystem: local rows with their own diagonals', () => {
  it('random per-row diagonals D_i (kept inequality rows) and partially used row capacity', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 30 }),
        fc.integer({ min: 1, max: 8 }),
        (seed, N) => {
          const r = rng(seed + 9);
          const dims = randomDims(seed, N).map((d) => ({ ...d, ng: d.ng + 2 }));
          const kkt = randomKkt({ dims, seed: seed + 1, shift: 3 });
          for (let k = 0; k <= N; k++) {
            kkt.localRows[k] = dims[k]!.ng - Math.floor(3 * r());
            for (let i = 0; i < kkt.localRows[k]!; i++) {
              // mostly tiny diagonals (active inequalities), some zero (equalities), some O(1)
              const t = r();
              kkt.rowReg[kkt.gOffset[k]! + i] = t < 0.3 ? 0 : t < 0.8 ? 10 ** (-12 * r()) : 2 * r();
            }
          }
          const deltaC = r() < 0.5 ? 0 : 1e-6;
          const { K, size } = assembleDense(kkt, 0, deltaC);
          fc.pre(minAbsEigenRatio(K, size) > 1e-9);
          const status = kkt.factor(0, deltaC);
          if (status === 'singular') return;
          expect(['ok', 'wrongInertia']).toContain(status);
          expect(Array.from(kkt.inertia)).toEqual(denseInertia(K, size));
          const b = randomRhs(size, seed + 4);
          expect(relResidual(K, size, stageSolve(kkt, b), b)).toBeLessThan(1e-10);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('StageKktSystem: singular and special cases', () => {
  it('dependent constraints are singular (zero pivot); δ_c > 0 restores a nonsingular matrix with inertia (n, m, 0)', () => {
    const dims = [
      { nx: 2, nu: 1, ng: 0 },
      { nx: 2, nu: 1, ng: 0 },
      { nx: 2, nu: 0, ng: 3 },
    ];
    const kkt = randomKkt({ dims, seed: 11, shift: 6 });
    // third terminal row = first + second: J has dependent rows
    const go = kkt.gJacOffset[2]!;
    for (let j = 0; j < 2; j++)
      kkt.gJac[go + 2 * 2 + j] = kkt.gJac[go + j]! + kkt.gJac[go + 2 + j]!;
    expect(kkt.factor(0, 0)).toBe('singular');
    expect(kkt.inertia[2]).toBeGreaterThan(0);
    const { K, size } = assembleDense(kkt, 0, 0);
    expect(denseInertia(K, size)[2]).toBe(1);
    expect(kkt.factor(0, 1e-6)).toBe('ok');
    expect(Array.from(kkt.inertia)).toEqual([kkt.nPrimal, kkt.nEquality, 0]);
    const reg = assembleDense(kkt, 0, 1e-6);
    expect(denseInertia(reg.K, reg.size)).toEqual([kkt.nPrimal, kkt.nEquality, 0]);
    const b = randomRhs(reg.size, 3);
    expect(relResidual(reg.K, reg.size, stageSolve(kkt, b), b)).toBeLessThan(1e-12);
  });

  it('a negative curvature direction on the null space: wrongInertia, and a large δ_w makes it ok', () => {
    const dims = [
      { nx: 1, nu: 1, ng: 1 },
      { nx: 1, nu: 0, ng: 0 },
    ];
    const kkt = new StageKktSystem(dims);
    // min −½u² + ½x₁² with x₀ = 0 fixed, x₁ = x₀ + u: reduced Hessian in u is −1 + 1 = 0 → use −2
    const ho = kkt.hessOffset[0]!;
    kkt.hess[ho + 1 * 3 + 1] = -2;
    kkt.hess[kkt.hessOffset[1]!] = 1;
    const co = kkt.cJacOffset[0]!;
    kkt.cJac.set([1, 1, -1], co);
    kkt.gJac.set([1, 0], kkt.gJacOffset[0]!);
    expect(kkt.factor(0, 0)).toBe('wrongInertia');
    expect(kkt.factor(0, 0)).toBe('wrongInertia');
    expect(Array.from(kkt.inertia)).toEqual([2, 3, 0]);
    const { K, size } = assembleDense(kkt, 0, 0);
    expect(denseInertia(K, size)).toEqual([2, 3, 0]);
    expect(kkt.factor(1.5, 0)).toBe('ok');
  });

  it('a singular dynamics Jacobian E_k is reported with its stage', () => {
    const dims = [
      { nx: 2, nu: 1, ng: 0 },
      { nx: 2, nu: 1, ng: 0 },
      { nx: 2, nu: 0, ng: 0 },
    ];
    const kkt = randomKkt({ dims, seed: 4, shift: 3 });
    const co = kkt.cJacOffset[1]!;
    const hw = 3 + 2;
    for (let i = 0; i < 2; i++) kkt.cJac[co + i * hw + 3] = kkt.cJac[co + i * hw + 4]!;
    expect(kkt.factor(0, 0)).toBe('singularDynamics');
    expect(kkt.failStage).toBe(1);
  });

  it('NaN in the data gives nonFinite', () => {
    const kkt = randomKkt({ dims: randomDims(3, 3), seed: 5, shift: 4 });
    kkt.hess[0] = Number.NaN;
    expect(kkt.factor(0, 0)).toBe('nonFinite');
  });

  it('more than OCP_MAX_CARRIED_CONSTRAINTS state-only rows: tooManyCarried', () => {
    const N = 70;
    const dims = Array.from({ length: N + 1 }, () => ({ nx: 1, nu: 1, ng: 1 }));
    const kkt = new StageKktSystem(dims);
    for (let k = 0; k <= N; k++) {
      const ny = kkt.ny[k]!;
      const hw = 2 + ny;
      kkt.hess[kkt.hessOffset[k]! + 0] = 1;
      kkt.hess[kkt.hessOffset[k]! + hw + 1] = 1;
      if (ny) kkt.cJac.set([1, 1, -1], kkt.cJacOffset[k]!);
      kkt.gJac.set([1, 0], kkt.gJacOffset[k]!); // g = x_k: state only
    }
    expect(kkt.factor(0, 0)).toBe('tooManyCarried');
  });

  it('validates its dimensions', () => {
    expect(() => new StageKktSystem([])).toThrow(DimensionError);
    expect(() => new StageKktSystem([{ nx: 0, nu: 1, ng: 0 }])).toThrow(DimensionError);
    expect(() => new StageKktSystem([{ nx: 1, nu: -1, ng: 0 }])).toThrow(DimensionError);
    expect(() => new StageKktSystem([{ nx: 1, nu: 0.5, ng: 0 }])).toThrow(DimensionError);
    const kkt = new StageKktSystem([{ nx: 1, nu: 0, ng: 0 }]);
    expect(() =>
      kkt.solve(
        new Float64Array(1),
        new Float64Array(0),
        new Float64Array(0),
        new Float64Array(1),
        new Float64Array(0),
        new Float64Array(0),
      ),
    ).toThrow(DimensionError);
  });

  it('the example of the class comment', () => {
    const kkt = new StageKktSystem([{ nx: 1, nu: 1, ng: 1 }]);
    kkt.hess.set([1, 0, 0, 1]);
    kkt.gJac.set([1, 1]);
    expect(kkt.factor(0, 0)).toBe('ok');
    expect(Array.from(kkt.inertia)).toEqual([2, 1, 0]);
    const dw = new Float64Array(2);
    const dMu = new Float64Array(1);
    kkt.solve(
      Float64Array.of(1, 0),
      new Float64Array(0),
      Float64Array.of(1),
      dw,
      new Float64Array(0),
      dMu,
    );
    expect(dw[0]).toBeCloseTo(1, 14);
    expect(dw[1]).toBeCloseTo(0, 14);
    expect(dMu[0]).toBeCloseTo(0, 14);
  });
});

/** Bytes of every typed array an object holds in its own fields (private ones included). */
function typedArrayBytes(o: object): number {
  let bytes = 0;
  for (const v of Object.values(o)) {
    if (v instanceof Float64Array || v instanceof Int32Array) bytes += v.byteLength;
  }
  return bytes;
}

describe('StageKktSystem.bufferSizes: the memory of the stage KKT system before allocating it', () => {
  it('equals the bytes of the buffers the constructor allocates, for several stage shapes', () => {
    const shapes: { nx: number; nu: number; ng: number }[][] = [
      [{ nx: 1, nu: 1, ng: 1 }],
      // the plate-ball: R² × SO(3), 2 controls, a branch inequality per stage, 5 + 1 terminal rows
      [
        { nx: 5, nu: 2, ng: 6 },
        ...Array.from({ length: 9 }, () => ({ nx: 5, nu: 2, ng: 1 })),
        { nx: 5, nu: 0, ng: 6 },
      ],
      // state-only rows at many stages (a larger carried capacity) and varying state dimensions
      [
        { nx: 3, nu: 0, ng: 3 },
        { nx: 4, nu: 2, ng: 5 },
        { nx: 2, nu: 1, ng: 0 },
        { nx: 6, nu: 3, ng: 2 },
        { nx: 1, nu: 0, ng: 1 },
      ],
      ...[1, 2, 3].map((seed) => randomDims(seed, 6)),
    ];
    for (const dims of shapes) {
      const sizes = StageKktSystem.bufferSizes(dims);
      const kkt = new StageKktSystem(dims);
      expect(sizes.bytes).toBe(typedArrayBytes(kkt));
      expect(sizes.bytes).toBe(8 * sizes.float64 + 4 * sizes.int32);
    }
  });

  it('grows linearly in the number of stages (plate-ball shape: the bytes per stage)', () => {
    const plate = (n: number) => [
      { nx: 5, nu: 2, ng: 6 },
      ...Array.from({ length: n - 1 }, () => ({ nx: 5, nu: 2, ng: 1 })),
      { nx: 5, nu: 0, ng: 6 },
    ];
    const b1 = StageKktSystem.bufferSizes(plate(100)).bytes;
    const b2 = StageKktSystem.bufferSizes(plate(200)).bytes;
    expect(b2 - b1).toBe(StageKktSystem.bufferSizes(plate(300)).bytes - b2);
    // per middle stage (n_x 5, n_u 2, n_g 1, n_y 5; carried capacity 15): 522 Float64 and 39
    // Int32 entries , as allocated
    expect((b2 - b1) / 100).toBe(8 * 522 + 4 * 39);
    expect(
      typedArrayBytes(new StageKktSystem(plate(200))) -
        typedArrayBytes(new StageKktSystem(plate(100))),
    ).toBe(b2 - b1);
  });
});

describe('StageKktSystem.refactor: reuses the dynamics factors', () => {
  it('is bit-identical to factor after changing δ_w, δ_c and the Hessian (cJac unchanged)', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const dims = randomDims(seed, 1 + (seed % 6));
      const a = randomKkt({ dims, seed: seed + 1, shift: 0 });
      const b = randomKkt({ dims, seed: seed + 1, shift: 0 });
      // a: factor, then change the Hessian and refactor; b: the same data, factored from scratch
      a.factor(0, 0);
      for (const kkt of [a, b]) {
        for (let k = 0; k <= kkt.N; k++) {
          const hw = kkt.nx[k]! + kkt.nu[k]! + kkt.ny[k]!;
          for (let i = 0; i < hw; i++) kkt.hess[kkt.hessOffset[k]! + i * hw + i]! += 0.25;
        }
      }
      const sa = a.refactor(0.5, 1e-3);
      const sb = b.factor(0.5, 1e-3);
      expect(sa).toBe(sb);
      expect(Array.from(a.inertia)).toEqual(Array.from(b.inertia));
      if (sa !== 'ok' && sa !== 'wrongInertia') continue;
      const size = a.nPrimal + a.cOffset[a.N + 1]! + compactRowOffsets(a)[a.N + 1]!;
      const rhs = randomRhs(size, seed + 2);
      expect(Array.from(stageSolve(a, rhs))).toEqual(Array.from(stageSolve(b, rhs)));
    }
  });
});

describe('StageKktSystem.refactorShifted: the regularizations from kkt.shifts', () => {
  it('is bit-identical to refactor(δ_w, δ_c), local rows with their own diagonals included', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const dims = randomDims(seed, 1 + (seed % 6));
      const a = randomKkt({ dims, seed: seed + 3, shift: 0 });
      const b = randomKkt({ dims, seed: seed + 3, shift: 0 });
      // non-uniform row diagonals D_i (kept inequality rows) at every other local row: the
      // rotated diagonal U·diag(D + δ_c)·Uᵀ is then formed with the Householder reflections
      for (const kkt of [a, b]) {
        for (let i = 0; i < kkt.rowReg.length; i += 2) kkt.rowReg[i] = 0.1 + 0.01 * i;
      }
      a.factor(0, 0);
      b.factor(0, 0);
      const dW = 0.3 + 0.01 * seed;
      const dC = seed % 3 === 0 ? 0 : 1e-4 * seed;
      a.shifts[0] = dW;
      a.shifts[1] = dC;
      const sa = a.refactorShifted();
      const sb = b.refactor(dW, dC);
      expect(sa).toBe(sb);
      expect(Array.from(a.inertia)).toEqual(Array.from(b.inertia));
      expect(Array.from(b.shifts)).toEqual([dW, dC]);
      if (sa !== 'ok' && sa !== 'wrongInertia') continue;
      const size = a.nPrimal + a.cOffset[a.N + 1]! + compactRowOffsets(a)[a.N + 1]!;
      const rhs = randomRhs(size, seed + 4);
      expect(Array.from(stageSolve(a, rhs))).toEqual(Array.from(stageSolve(b, rhs)));
    }
  });

  it('solves the system W + δ_w I it was given (TSDoc example: δ_w = 2 fixes the inertia)', () => {
    const kkt = new StageKktSystem([{ nx: 1, nu: 1, ng: 1 }]);
    kkt.hess.set([0, 0, 0, -1]);
    kkt.gJac.set([1, 1]);
    expect(kkt.factor(0, 0)).toBe('wrongInertia');
    kkt.shifts[0] = 2;
    expect(kkt.refactorShifted()).toBe('ok');
    expect(Array.from(kkt.inertia)).toEqual([2, 1, 0]);
    // [[2, 0, 1], [0, 1, 1], [1, 1, 0]] [w; μ] = [0, 0, 1]: w = (1/3, 2/3), μ = −2/3
    const dw = new Float64Array(2);
    const dMu = new Float64Array(1);
    kkt.solve(
      new Float64Array(2),
      new Float64Array(0),
      Float64Array.of(1),
      dw,
      new Float64Array(0),
      dMu,
    );
    expect(Math.abs(dw[0]! - 1 / 3)).toBeLessThan(1e-15);
    expect(Math.abs(dw[1]! - 2 / 3)).toBeLessThan(1e-15);
    expect(Math.abs(dMu[0]! + 2 / 3)).toBeLessThan(1e-15);
  });
});
