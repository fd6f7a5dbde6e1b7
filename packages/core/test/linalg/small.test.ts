import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NonFiniteError, SingularMatrixError } from '../../src/errors.js';
import { DenseLU } from '../../src/linalg/lu.js';
import { dot, matMul, matTVec, matVec, norm2, transpose } from '../../src/linalg/matrix.js';
import {
  add3,
  add4,
  addVec3,
  addVec4,
  axisForm3,
  axisForm3Coef,
  cross3,
  det3,
  det4,
  dot3,
  dot4,
  hypot3,
  identity3,
  identity4,
  inv3,
  inv4,
  mul3,
  mul3T,
  mul4,
  mul4T,
  mulT3,
  mulT4,
  mulTVec3,
  mulTVec4,
  mulVec3,
  mulVec4,
  norm3,
  norm4,
  outer3,
  outer4,
  scale3,
  scale4,
  scaleVec3,
  scaleVec4,
  solve3,
  solve4,
  sub3,
  sub4,
  subVec3,
  subVec4,
  transpose3,
  transpose4,
} from '../../src/linalg/small.js';
import { rng, vec } from '../support/random.js';

/** Unit roundoff u = 2⁻⁵³. */
const U = Number.EPSILON / 2;

/**
 * Any entries in [−1, 1], down to the smallest subnormals: for the bitwise tests (aliasing,
 * offsets, exact entrywise operations), where extreme values are the interesting ones.
 */
const unit = fc.double({ min: -1, max: 1, noNaN: true });
const arr = (len: number) =>
  fc.array(unit, { minLength: len, maxLength: len }).map((v) => Float64Array.from(v));
/**
 * Entries from the log-uniform `unit` of ../support/random.ts (magnitudes in [2⁻¹¹, 1], plus exact
 * zeros), for the accuracy tests: their bounds use the standard model fl(x ∘ y) = (x ∘ y)(1 + δ),
 * |δ| ≤ u, which assumes no underflow. Extreme scalings are tested separately with exact
 * expectations.
 */
const arrS = (len: number) => vec(len).map((v) => Float64Array.from(v));

function sub(a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  return Float64Array.from({ length: a.length }, (_, i) => a[i]! - b[i]!);
}

/** Π‖row_i‖₁ ≥ per(|A|), the sum of the absolute values of the terms of det A. */
function rowNorm1Product(a: ArrayLike<number>, n: number): number {
  let p = 1;
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += Math.abs(a[i * n + j]!);
    p *= s;
  }
  return p;
}

/** Hadamard bound Π‖row_i‖₂ ≥ |det A| for an n×n matrix. */
function hadamard(a: ArrayLike<number>, n: number): number {
  let h = 1;
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += a[i * n + j]! ** 2;
    h *= Math.sqrt(s);
  }
  return h;
}

/** Inverse through DenseLU, column by column, and the 1-norm condition estimate. */
function luInverse(a: Float64Array, n: number): { inv: Float64Array; kappa: number } | undefined {
  const lu = new DenseLU(n).factor(a);
  if (lu.isSingular) return undefined;
  const inv = new Float64Array(n * n);
  const e = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    e.fill(0);
    e[j] = 1;
    lu.solve(e, e);
    for (let i = 0; i < n; i++) inv[i * n + j] = e[i]!;
  }
  return { inv, kappa: lu.conditionEstimate() };
}

const RUNS = { numRuns: 200 };

describe.each([3, 4] as const)('n = %i: products against the general matMul / matVec', (n) => {
  const nn = n * n;
  const mul = n === 3 ? mul3 : mul4;
  const mulT_ = n === 3 ? mul3T : mul4T;
  const tMul = n === 3 ? mulT3 : mulT4;
  const mv = n === 3 ? mulVec3 : mulVec4;
  const mtv = n === 3 ? mulTVec3 : mulTVec4;
  const tr = n === 3 ? transpose3 : transpose4;
  const outer = n === 3 ? outer3 : outer4;

  it('A·B, A·Bᵀ, Aᵀ·B, A·v, Aᵀ·v, Aᵀ and a·bᵀ agree to 1e−13·‖A‖‖B‖', () => {
    // Same sums in the same order as matMul, so the difference is at most a few roundings:
    // |Δ| ≤ n·u·|A||B| ≪ 1e−13·‖A‖_F‖B‖_F.
    fc.assert(
      fc.property(arrS(nn), arrS(nn), arrS(n), arrS(n), (a, b, v, w) => {
        const scale = norm2(a) * norm2(b);
        const at = transpose(new Float64Array(nn), a, n, n);
        const bt = transpose(new Float64Array(nn), b, n, n);
        const ref = (x: Float64Array, y: Float64Array) =>
          matMul(new Float64Array(nn), x, y, n, n, n);
        expect(norm2(sub(mul(new Float64Array(nn), a, b), ref(a, b)))).toBeLessThanOrEqual(
          1e-13 * scale,
        );
        expect(norm2(sub(mulT_(new Float64Array(nn), a, b), ref(a, bt)))).toBeLessThanOrEqual(
          1e-13 * scale,
        );
        expect(norm2(sub(tMul(new Float64Array(nn), a, b), ref(at, b)))).toBeLessThanOrEqual(
          1e-13 * scale,
        );
        const vs = norm2(a) * norm2(v);
        expect(
          norm2(sub(mv(new Float64Array(n), a, v), matVec(new Float64Array(n), a, n, n, v))),
        ).toBeLessThanOrEqual(1e-13 * vs);
        expect(
          norm2(sub(mtv(new Float64Array(n), a, v), matTVec(new Float64Array(n), a, n, n, v))),
        ).toBeLessThanOrEqual(1e-13 * vs);
        expect(Array.from(tr(new Float64Array(nn), a))).toEqual(Array.from(at));
        const o = outer(new Float64Array(nn), v, w);
        const ref2 = matMul(new Float64Array(nn), v, w, n, 1, n);
        // single products: exact (up to the sign of zero: matMul skips zero factors)
        expect(norm2(sub(o, ref2))).toBe(0);
      }),
      RUNS,
    );
  });

  it('entrywise add/sub/scale and the vector helpers are exact', () => {
    const add = n === 3 ? add3 : add4;
    const subM = n === 3 ? sub3 : sub4;
    const scale = n === 3 ? scale3 : scale4;
    const addV = n === 3 ? addVec3 : addVec4;
    const subV = n === 3 ? subVec3 : subVec4;
    const scaleV = n === 3 ? scaleVec3 : scaleVec4;
    const dotN = n === 3 ? dot3 : dot4;
    const normN = n === 3 ? norm3 : norm4;
    fc.assert(
      fc.property(arr(nn), arr(nn), arrS(n), arrS(n), unit, (a, b, v, w, s) => {
        expect(Array.from(add(new Float64Array(nn), a, b))).toEqual(
          Array.from(a, (x, i) => x + b[i]!),
        );
        expect(Array.from(subM(new Float64Array(nn), a, b))).toEqual(
          Array.from(a, (x, i) => x - b[i]!),
        );
        expect(Array.from(scale(new Float64Array(nn), a, s))).toEqual(Array.from(a, (x) => s * x));
        expect(Array.from(addV(new Float64Array(n), v, w))).toEqual(
          Array.from(v, (x, i) => x + w[i]!),
        );
        expect(Array.from(subV(new Float64Array(n), v, w))).toEqual(
          Array.from(v, (x, i) => x - w[i]!),
        );
        expect(Array.from(scaleV(new Float64Array(n), v, s))).toEqual(Array.from(v, (x) => s * x));
        expect(Math.abs(dotN(v, w) - dot(v, w))).toBe(0); // same order of summation (±0 aside)
        // unscaled √(v·v) vs the scaled norm2: both within 2u relative of ‖v‖
        expect(Math.abs(normN(v) - norm2(v))).toBeLessThanOrEqual(4 * U * norm2(v));
      }),
      RUNS,
    );
    const id = n === 3 ? identity3 : identity4;
    const eye = id(new Float64Array(nn).fill(7));
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) expect(eye[i * n + j]).toBe(i === j ? 1 : 0);
  });
});

describe.each([3, 4] as const)('n = %i: determinant, inverse and solve against DenseLU', (n) => {
  const nn = n * n;
  const det = n === 3 ? det3 : det4;
  const inv = n === 3 ? inv3 : inv4;
  const solve = n === 3 ? solve3 : solve4;
  const mul = n === 3 ? mul3 : mul4;
  const id = n === 3 ? identity3 : identity4;

  it('det agrees with the LU determinant to 16·u·P (P = Π‖rowᵢ‖₁ ≥ per(|A|))', () => {
    // The cofactor formula sums n! products: its rounding error is ≲ (n + log n)·u·per(|A|), and
    // per(|A|) ≤ Π‖rowᵢ‖₁ (not the Hadamard bound Π‖rowᵢ‖₂, which is smaller by up to n^{n/2}: a
    // CI run found 25·u·H). LU with partial pivoting (growth ≤ 2^{n−1}) has an error of the same
    // order. Both are far below 16·u·P.
    fc.assert(
      fc.property(arrS(nn), (a) => {
        const p = rowNorm1Product(a, n);
        const lu = new DenseLU(n).factor(a).determinant();
        expect(Math.abs(det(a) - lu)).toBeLessThanOrEqual(16 * U * p);
      }),
      RUNS,
    );
  });

  it('det(A·B) = det A · det B to 8·u·(H(|A||B|) + H(A)·H(B))', () => {
    // fl(AB) = AB + E with |E| ≤ n·u·|A||B|; the first-order change of det is Σ E_ij·C_ij, with the
    // cofactors bounded through the Hadamard bound of |A||B|: ≲ n·u·H(|A||B|). The two factors'
    // determinants carry ≲ 4·u·H each (previous test), so their product ≲ 8·u·H(A)H(B). Observed
    // ≤ 1.7·u·(H(|A||B|) + H(A)H(B)) over 5·10⁴ samples.
    fc.assert(
      fc.property(arrS(nn), arrS(nn), (a, b) => {
        const ab = mul(new Float64Array(nn), a, b);
        const absProd = mul(new Float64Array(nn), a.map(Math.abs), b.map(Math.abs));
        const bound = 8 * U * (hadamard(absProd, n) + hadamard(a, n) * hadamard(b, n));
        expect(Math.abs(det(ab) - det(a) * det(b))).toBeLessThanOrEqual(bound);
      }),
      RUNS,
    );
  });

  it('inv(A) matches the LU inverse to 8·u·κ₁·‖A⁻¹‖, and inv(A)·A = I to 8·u·κ₁', () => {
    // The adjugate formula is not backward stable, but its forward error is ≲ c·u·κ(A)·‖A⁻¹‖
    // (cofactors and det each carry relative error ~u·κ); so does the LU inverse. For the
    // well-conditioned part of the sample (κ₁ ≤ 1e3) this is the 1e−13 of the specification.
    fc.assert(
      fc.property(arrS(nn), (a) => {
        const ref = luInverse(a, n);
        fc.pre(ref !== undefined && ref.kappa < 1e12);
        if (ref === undefined) return;
        let x: Float64Array;
        try {
          x = inv(new Float64Array(nn), a);
        } catch (e) {
          // only a matrix singular to working precision may be refused
          expect(e).toBeInstanceOf(SingularMatrixError);
          expect(ref.kappa).toBeGreaterThan(1 / (64 * U));
          return;
        }
        const xn = norm2(x);
        expect(norm2(sub(x, ref.inv))).toBeLessThanOrEqual(8 * U * ref.kappa * xn);
        if (ref.kappa <= 1e3) expect(norm2(sub(x, ref.inv))).toBeLessThanOrEqual(1e-13 * xn);
        const xa = mul(new Float64Array(nn), x, a);
        const eye = id(new Float64Array(nn));
        expect(norm2(sub(xa, eye))).toBeLessThanOrEqual(8 * U * ref.kappa * Math.sqrt(n));
      }),
      RUNS,
    );
  });

  it('solve is backward stable (‖b − A·x‖ ≤ 8n·u·‖A‖‖x‖) and agrees with DenseLU', () => {
    fc.assert(
      fc.property(arrS(nn), arrS(n), (a, b) => {
        const lu = new DenseLU(n).factor(a);
        fc.pre(!lu.isSingular);
        const kappa = lu.conditionEstimate();
        fc.pre(kappa < 1e14);
        const x = solve(new Float64Array(n), a, b);
        const r = sub(b, matVec(new Float64Array(n), a, n, n, x));
        expect(norm2(r)).toBeLessThanOrEqual(8 * n * U * norm2(a) * norm2(x));
        const xr = lu.solve(b);
        expect(norm2(sub(x, xr))).toBeLessThanOrEqual(8 * n * U * kappa * norm2(xr));
      }),
      RUNS,
    );
  });

  it('worked examples, rescaling of badly scaled matrices, and errors', () => {
    const d = new Float64Array(nn);
    for (let i = 0; i < n; i++) d[i * n + i] = 2 ** (i + 1);
    const di = inv(new Float64Array(nn), d);
    for (let i = 0; i < n; i++) expect(di[i * n + i]).toBe(2 ** -(i + 1));
    expect(det(d)).toBe(2 ** ((n * (n + 1)) / 2));
    // 1e±200·I: det under/overflows, the rescaled retry inverts it anyway
    for (const s of [1e-200, 1e200]) {
      const a = scaleMatrix(id(new Float64Array(nn)), s);
      const ai = inv(new Float64Array(nn), a);
      for (let i = 0; i < nn; i++) {
        expect(Math.abs(ai[i]! - (i % (n + 1) === 0 ? 1 / s : 0))).toBeLessThanOrEqual((2 * U) / s);
      }
      const x = solve(new Float64Array(n), a, new Float64Array(n).fill(s));
      for (let i = 0; i < n; i++) expect(x[i]).toBeCloseTo(1, 15);
    }
    // singular: a zero row (exactly), and two equal rows
    const z = Float64Array.from({ length: nn }, (_, i) => i + 1);
    for (let j = 0; j < n; j++) z[n + j] = 0;
    expect(det(z)).toBe(0);
    expect(() => inv(new Float64Array(nn), z)).toThrow(SingularMatrixError);
    expect(() => solve(new Float64Array(n), z, new Float64Array(n).fill(1))).toThrow(
      SingularMatrixError,
    );
    const dup = Float64Array.from({ length: nn }, (_, i) => Math.sin(i + 1));
    for (let j = 0; j < n; j++) dup[n + j] = dup[j]!;
    expect(() => solve(new Float64Array(n), dup, new Float64Array(n).fill(1))).toThrow(
      SingularMatrixError,
    );
    // the zero matrix: nothing to rescale
    expect(() => inv(new Float64Array(nn), new Float64Array(nn))).toThrow(SingularMatrixError);
    // non-finite input
    const bad = id(new Float64Array(nn));
    bad[1] = Number.NaN;
    expect(() => inv(new Float64Array(nn), bad)).toThrow(NonFiniteError);
    expect(() => solve(new Float64Array(n), bad, new Float64Array(n))).toThrow(NonFiniteError);
    const rhs = new Float64Array(n);
    rhs[n - 1] = Number.POSITIVE_INFINITY;
    expect(() => solve(new Float64Array(n), id(new Float64Array(nn)), rhs)).toThrow(NonFiniteError);
    // overflow of the solution is singularity to working precision
    const tiny = scaleMatrix(id(new Float64Array(nn)), 1e-300);
    expect(() => solve(new Float64Array(n), tiny, new Float64Array(n).fill(1e300))).toThrow(
      SingularMatrixError,
    );
  });
});

function scaleMatrix(a: Float64Array, s: number): Float64Array {
  for (let i = 0; i < a.length; i++) a[i] = a[i]! * s;
  return a;
}

describe('cross3', () => {
  it('anticommutes exactly, is orthogonal to its factors, and obeys Lagrange’s identity', () => {
    fc.assert(
      fc.property(arrS(3), arrS(3), (a, b) => {
        const ab = cross3(new Float64Array(3), a, b);
        const ba = cross3(new Float64Array(3), b, a);
        // x − y = −(y − x) exactly in IEEE arithmetic, and the products are the same numbers
        for (let i = 0; i < 3; i++) expect(Math.abs(ab[i]! + ba[i]!)).toBe(0);
        const na = norm2(a);
        const nb = norm2(b);
        // each component has error ≤ 2u·|a||b|: |a·(a×b)| ≤ 6u·‖a‖²‖b‖ (Cauchy–Schwarz, 3 terms)
        expect(Math.abs(dot3(a, ab))).toBeLessThanOrEqual(8 * U * na * na * nb);
        expect(Math.abs(dot3(b, ab))).toBeLessThanOrEqual(8 * U * na * nb * nb);
        // ‖a×b‖² + (a·b)² = ‖a‖²‖b‖²
        const lhs = dot3(ab, ab) + dot3(a, b) ** 2;
        expect(Math.abs(lhs - na * na * nb * nb)).toBeLessThanOrEqual(16 * U * na * na * nb * nb);
        // a×b = â·b with the hat matrix
        const hat = Float64Array.of(0, -a[2]!, a[1]!, a[2]!, 0, -a[0]!, -a[1]!, a[0]!, 0);
        expect(norm2(sub(ab, mulVec3(new Float64Array(3), hat, b)))).toBeLessThanOrEqual(
          4 * U * na * nb,
        );
      }),
      RUNS,
    );
    expect(
      Array.from(cross3(new Float64Array(3), Float64Array.of(1, 0, 0), Float64Array.of(0, 1, 0))),
    ).toEqual([0, 0, 1]);
    expect(norm3(Float64Array.of(2, 3, 6))).toBe(7);
    expect(norm4(Float64Array.of(1, 1, 1, 1))).toBe(2);
  });
});

// ---------------------------------------------------------------------------------------------
// Aliasing and offsets, for every kernel: the result must not depend on where operands live
// ---------------------------------------------------------------------------------------------

type Run = (out: Float64Array, ins: Float64Array[], outOff: number, offs: number[]) => unknown;
interface Kernel {
  name: string;
  out: number;
  ins: number[];
  run: Run;
}

const S = 1.75;
const kernels: Kernel[] = [
  { name: 'mul3', out: 9, ins: [9, 9], run: (o, [a, b], oo, [x, y]) => mul3(o, a!, b!, oo, x, y) },
  {
    name: 'mul3T',
    out: 9,
    ins: [9, 9],
    run: (o, [a, b], oo, [x, y]) => mul3T(o, a!, b!, oo, x, y),
  },
  {
    name: 'mulT3',
    out: 9,
    ins: [9, 9],
    run: (o, [a, b], oo, [x, y]) => mulT3(o, a!, b!, oo, x, y),
  },
  {
    name: 'mulVec3',
    out: 3,
    ins: [9, 3],
    run: (o, [a, v], oo, [x, y]) => mulVec3(o, a!, v!, oo, x, y),
  },
  {
    name: 'mulTVec3',
    out: 3,
    ins: [9, 3],
    run: (o, [a, v], oo, [x, y]) => mulTVec3(o, a!, v!, oo, x, y),
  },
  { name: 'transpose3', out: 9, ins: [9], run: (o, [a], oo, [x]) => transpose3(o, a!, oo, x) },
  { name: 'inv3', out: 9, ins: [9], run: (o, [a], oo, [x]) => inv3(o, a!, oo, x) },
  {
    name: 'solve3',
    out: 3,
    ins: [9, 3],
    run: (o, [a, b], oo, [x, y]) => solve3(o, a!, b!, oo, x, y),
  },
  { name: 'add3', out: 9, ins: [9, 9], run: (o, [a, b], oo, [x, y]) => add3(o, a!, b!, oo, x, y) },
  { name: 'sub3', out: 9, ins: [9, 9], run: (o, [a, b], oo, [x, y]) => sub3(o, a!, b!, oo, x, y) },
  { name: 'scale3', out: 9, ins: [9], run: (o, [a], oo, [x]) => scale3(o, a!, S, oo, x) },
  {
    name: 'addVec3',
    out: 3,
    ins: [3, 3],
    run: (o, [a, b], oo, [x, y]) => addVec3(o, a!, b!, oo, x, y),
  },
  {
    name: 'subVec3',
    out: 3,
    ins: [3, 3],
    run: (o, [a, b], oo, [x, y]) => subVec3(o, a!, b!, oo, x, y),
  },
  { name: 'scaleVec3', out: 3, ins: [3], run: (o, [a], oo, [x]) => scaleVec3(o, a!, S, oo, x) },
  {
    name: 'cross3',
    out: 3,
    ins: [3, 3],
    run: (o, [a, b], oo, [x, y]) => cross3(o, a!, b!, oo, x, y),
  },
  {
    name: 'outer3',
    out: 9,
    ins: [3, 3],
    run: (o, [a, b], oo, [x, y]) => outer3(o, a!, b!, oo, x, y),
  },
  { name: 'identity3', out: 9, ins: [], run: (o, _, oo) => identity3(o, oo) },
  {
    name: 'mul4',
    out: 16,
    ins: [16, 16],
    run: (o, [a, b], oo, [x, y]) => mul4(o, a!, b!, oo, x, y),
  },
  {
    name: 'mul4T',
    out: 16,
    ins: [16, 16],
    run: (o, [a, b], oo, [x, y]) => mul4T(o, a!, b!, oo, x, y),
  },
  {
    name: 'mulT4',
    out: 16,
    ins: [16, 16],
    run: (o, [a, b], oo, [x, y]) => mulT4(o, a!, b!, oo, x, y),
  },
  {
    name: 'mulVec4',
    out: 4,
    ins: [16, 4],
    run: (o, [a, v], oo, [x, y]) => mulVec4(o, a!, v!, oo, x, y),
  },
  {
    name: 'mulTVec4',
    out: 4,
    ins: [16, 4],
    run: (o, [a, v], oo, [x, y]) => mulTVec4(o, a!, v!, oo, x, y),
  },
  { name: 'transpose4', out: 16, ins: [16], run: (o, [a], oo, [x]) => transpose4(o, a!, oo, x) },
  { name: 'inv4', out: 16, ins: [16], run: (o, [a], oo, [x]) => inv4(o, a!, oo, x) },
  {
    name: 'solve4',
    out: 4,
    ins: [16, 4],
    run: (o, [a, b], oo, [x, y]) => solve4(o, a!, b!, oo, x, y),
  },
  {
    name: 'add4',
    out: 16,
    ins: [16, 16],
    run: (o, [a, b], oo, [x, y]) => add4(o, a!, b!, oo, x, y),
  },
  {
    name: 'sub4',
    out: 16,
    ins: [16, 16],
    run: (o, [a, b], oo, [x, y]) => sub4(o, a!, b!, oo, x, y),
  },
  { name: 'scale4', out: 16, ins: [16], run: (o, [a], oo, [x]) => scale4(o, a!, S, oo, x) },
  {
    name: 'addVec4',
    out: 4,
    ins: [4, 4],
    run: (o, [a, b], oo, [x, y]) => addVec4(o, a!, b!, oo, x, y),
  },
  {
    name: 'subVec4',
    out: 4,
    ins: [4, 4],
    run: (o, [a, b], oo, [x, y]) => subVec4(o, a!, b!, oo, x, y),
  },
  { name: 'scaleVec4', out: 4, ins: [4], run: (o, [a], oo, [x]) => scaleVec4(o, a!, S, oo, x) },
  {
    name: 'outer4',
    out: 16,
    ins: [4, 4],
    run: (o, [a, b], oo, [x, y]) => outer4(o, a!, b!, oo, x, y),
  },
  { name: 'identity4', out: 16, ins: [], run: (o, _, oo) => identity4(o, oo) },
];

/** Runs a kernel; returns its output, or the error class name if it threw. */
function attempt(k: Kernel, ins: Float64Array[]): number[] | string {
  try {
    const out = new Float64Array(k.out);
    k.run(
      out,
      ins,
      0,
      ins.map(() => 0),
    );
    return Array.from(out);
  } catch (e) {
    return (e as Error).name;
  }
}

describe.each(kernels)('$name: aliasing and offsets', (k) => {
  const insArb = fc.tuple(...k.ins.map((len) => arr(len)));

  it('out aliasing any same-sized input (and all of them at once) gives the same result', () => {
    fc.assert(
      fc.property(insArb, (insRaw) => {
        const ins = insRaw as Float64Array[];
        const expected = attempt(k, ins);
        const same = k.ins.map((len, i) => (len === k.out ? i : -1)).filter((i) => i >= 0);
        const cases = same.map((i) => [i]);
        if (same.length > 1) cases.push(same);
        for (const group of cases) {
          // out is the storage of the inputs in `group`, all holding the same values as input group[0]
          const shared = Float64Array.from(ins[group[0]!]!);
          const args = ins.map((x, i) => (group.includes(i) ? shared : Float64Array.from(x)));
          const plain = args.map((x) => Float64Array.from(x));
          const want = group.length > 1 ? attempt(k, plain) : expected;
          let got: number[] | string;
          try {
            k.run(
              shared,
              args,
              0,
              args.map(() => 0),
            );
            got = Array.from(shared);
          } catch (e) {
            got = (e as Error).name;
          }
          expect(got).toEqual(want);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('offsets locate every operand; nothing outside them is read or written', () => {
    fc.assert(
      fc.property(
        insArb,
        fc.integer({ min: 0, max: 5 }),
        fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 2, maxLength: 2 }),
        (insRaw, oo, offs) => {
          const ins = insRaw as Float64Array[];
          const expected = attempt(k, ins);
          // inputs surrounded by NaN: reading outside would poison the result
          const bufs = ins.map((x, i) => {
            const b = new Float64Array(offs[i]! + x.length + 3).fill(Number.NaN);
            b.set(x, offs[i]!);
            return b;
          });
          const out = new Float64Array(oo + k.out + 3).fill(-12345);
          let got: number[] | string;
          try {
            k.run(out, bufs, oo, offs);
            got = Array.from(out.subarray(oo, oo + k.out));
          } catch (e) {
            got = (e as Error).name;
          }
          expect(got).toEqual(expected);
          for (let i = 0; i < out.length; i++) {
            if (i < oo || i >= oo + k.out) expect(out[i]).toBe(-12345);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('scalar kernels at offsets', () => {
  it('det3, det4, dot3, dot4, norm3, norm4 read only their operands', () => {
    fc.assert(
      fc.property(arr(16), arr(4), fc.integer({ min: 0, max: 5 }), (a, v, off) => {
        const pad = (x: Float64Array) => {
          const b = new Float64Array(off + x.length + 2).fill(Number.NaN);
          b.set(x, off);
          return b;
        };
        const a9 = a.subarray(0, 9);
        const v3 = v.subarray(0, 3);
        expect(det3(pad(a9), off)).toBe(det3(a9));
        expect(det4(pad(a), off)).toBe(det4(a));
        expect(dot3(pad(v3), pad(v3), off, off)).toBe(dot3(v3, v3));
        expect(dot4(pad(v), pad(v), off, off)).toBe(dot4(v, v));
        expect(norm3(pad(v3), off)).toBe(norm3(v3));
        expect(norm4(pad(v), off)).toBe(norm4(v));
      }),
      RUNS,
    );
  });
});

describe('axisForm3Coef: a·I + b·x̂ + c·xxᵀ with (a, b, c) read from an array', () => {
  it('equals axisForm3 bit for bit, at offsets, in place over x or coef, and equals the definition', () => {
    const rand = rng(77);
    for (let k = 0; k < 200; k++) {
      const x = Float64Array.of(rand() - 0.5, 2 * rand() - 1, 3 * rand() - 1.5);
      const [a, b, c] = [rand() - 0.5, rand() - 0.5, rand() - 0.5];
      const ref = axisForm3(new Float64Array(9), x, a, b, c);
      // the definition: a·I + b·x̂ + c·xxᵀ, x̂ = [[0, −x₃, x₂], [x₃, 0, −x₁], [−x₂, x₁, 0]]
      const hat = [0, -x[2]!, x[1]!, x[2]!, 0, -x[0]!, -x[1]!, x[0]!, 0];
      for (let i = 0; i < 3; i++)
        for (let j = 0; j < 3; j++) {
          const def = (i === j ? a : 0) + b * hat[3 * i + j]! + c * x[i]! * x[j]!;
          expect(Math.abs(ref[3 * i + j]! - def)).toBeLessThan(1e-15);
        }
      expect(Array.from(axisForm3Coef(new Float64Array(9), x, Float64Array.of(a, b, c)))).toEqual(
        Array.from(ref),
      );
      // offsets: out at 2, x at 1, coef at 3 of one buffer each
      const out = new Float64Array(12).fill(7);
      const xs = Float64Array.of(9, x[0]!, x[1]!, x[2]!);
      const ks = Float64Array.of(9, 9, 9, a, b, c);
      axisForm3Coef(out, xs, ks, 2, 1, 3);
      expect(Array.from(out)).toEqual([7, 7, ...Array.from(ref), 7]);
      // in place: x and coef inside the output buffer (both are read before the first write)
      const buf = new Float64Array(9);
      buf.set(x, 0);
      buf.set([a, b, c], 3);
      expect(Array.from(axisForm3Coef(buf, buf, buf, 0, 0, 3))).toEqual(Array.from(ref));
    }
  });
});

describe('hypot3: the bits of Math.hypot without its allocation', () => {
  // Object.is: the same double bit for bit (±0 and NaN included)
  const out = new Float64Array(2);
  const same = (x: number, y: number, z: number): boolean =>
    Object.is(hypot3(out, 1, [x, y, z])[1], Math.hypot(x, y, z));

  it('equals Math.hypot bit for bit on doubles of every scale, sign and order', () => {
    fc.assert(
      fc.property(fc.double(), fc.double(), fc.double(), (x, y, z) => same(x, y, z)),
      { numRuns: 20000 },
    );
  });

  it('equals Math.hypot on the special values and on 10⁵ hot calls (optimized code)', () => {
    const special = [0, -0, 1, -1, 1e-320, 1e300, -1e300, Infinity, -Infinity, Number.NaN];
    for (const x of special)
      for (const y of special) for (const z of special) expect(same(x, y, z)).toBe(true);
    const r = rng(15);
    let mismatches = 0;
    for (let i = 0; i < 100000; i++) {
      const x = (r() - 0.5) * 10 ** (r() * 8 - 4);
      const y = (r() - 0.5) * 10 ** (r() * 8 - 4);
      const z = (r() - 0.5) * 10 ** (r() * 8 - 4);
      if (!same(x, y, z)) mismatches++;
    }
    expect(mismatches).toBe(0);
    expect(hypot3(out, 0, Float64Array.of(2, 3, 6))[0]).toBe(7);
    expect(hypot3(out, 0, [1e200, 1e200, 0])[0]).toBe(Math.SQRT2 * 1e200);
    expect(hypot3(out, 0, [9, 2, 3, 6], 1)[0]).toBe(7); // aOff
  });
});
