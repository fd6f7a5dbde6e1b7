/**
 * Retraction maps τ: 𝔤 → G with τ(x)τ(−x) = e and their trivialized tangents (spec 003 §8.1),
 * for any {@link LieGroup}: the exponential map on every group and the Cayley map on the quadratic
 * matrix groups (SO(2), SO(3), SE(2), SE(3), SE(n)). Conventions: `packages/core/CONVENTIONS.md`.
 *
 * Left-trivialized tangent (the papers'): T_xτ·δ = τ(x)·(dτ_x δ)^. Right-trivialized:
 * T_xτ·δ = (dτᴿ_x δ)^·τ(x). They satisfy dτᴿ_x = dτ_{−x} and dτ⁻¹_x = dτ⁻¹_{−x}·Ad_{τ(x)}.
 *
 * @module
 */
import { DimensionError, DomainError } from '../errors.js';
import { DenseLU } from '../linalg/lu.js';
import type { LieGroup, Retraction } from './types.js';

/**
 * τ = Exp. Its left-trivialized tangent is the right Jacobian: dexp_x = J_r(x), dexp⁻¹_x = J_r(x)⁻¹,
 * and the right-trivialized one the left Jacobian J_l(x) = J_r(−x) (spec 003 §8.1; on SO(3)
 * dexp⁻¹_x = I + x̂/2 + (1 − (θ/2)cot(θ/2))/θ²·x̂²).
 *
 * @example
 * ```ts
 * const R = expRetraction(SO3);
 * R.tau(new Float64Array(9), Float64Array.of(0, 0, 0.1)); // rotation by 0.1 about z
 * ```
 */
export function expRetraction(G: LieGroup): Retraction {
  return {
    name: 'exp',
    group: G,
    tau: (out, x) => G.exp(out, x),
    tauInv: (out, g) => G.log(out, g),
    dtau: (out, x) => G.rjac(out, x),
    dtauInv: (out, x) => G.rjacInv(out, x),
    dtauR: (out, x) => G.ljac(out, x),
    dtauRInv: (out, x) => G.ljacInv(out, x),
  };
}

/**
 * The Cayley map cay(x) = (I − x̂/2)⁻¹(I + x̂/2) on a quadratic matrix group (spec 003 §8.1), with
 * cay⁻¹(g) = 2·((g + I)⁻¹(g − I))∨ and, from d cay = A⁻¹(Δ/2)(cay + I) with A = I − x̂/2,
 * B = I + x̂/2 and cay + I = 2A⁻¹:
 *
 *   dcay_x δ  = (B⁻¹ δ̂ A⁻¹)∨                 (left-trivialized)
 *   dcay⁻¹_x η = (B η̂ A)∨ = (η̂ + [x̂, η̂]/2 − x̂η̂x̂/4)∨
 *
 * which on SO(3) is dcay⁻¹_x = I + x̂/2 + xxᵀ/4 (NOT the right-trivialized I − x̂/2 + xxᵀ/4 of the
 * literature). Works on any {@link LieGroup} whose elements satisfy a quadratic relation
 * (orthogonal or special Euclidean); a group where (I − x̂/2) is singular throws a DomainError.
 * This generic version costs a few N×N solves; SO(3) has closed forms in `so3Retractions`.
 *
 * @example
 * ```ts
 * const C = cayleyRetraction(SE3);
 * const g = C.tau(new Float64Array(16), Float64Array.of(0.1, 0, 0, 0, 0, 0.2));
 * ```
 */
export function cayleyRetraction(G: LieGroup): Retraction {
  const N = G.matrixSize;
  const d = G.dim;
  const NN = N * N;
  const xh = new Float64Array(NN);
  const A = new Float64Array(NN);
  const B = new Float64Array(NN);
  const M = new Float64Array(NN);
  const P = new Float64Array(NN);
  const Q = new Float64Array(NN);
  const e = new Float64Array(d);
  const col = new Float64Array(d);
  const rhs = new Float64Array(N);
  const luA = new DenseLU(N);
  const luB = new DenseLU(N);
  const neg = new Float64Array(d);

  const mul = (out: Float64Array, a: Float64Array, b: Float64Array) => {
    for (let i = 0; i < N; i++)
      for (let j = 0; j < N; j++) {
        let s = 0;
        for (let k = 0; k < N; k++) s += a[i * N + k]! * b[k * N + j]!;
        out[i * N + j] = s;
      }
    return out;
  };
  /** out ← L⁻¹·m (lu of L) column by column. */
  const leftSolve = (out: Float64Array, lu: DenseLU, m: Float64Array) => {
    for (let j = 0; j < N; j++) {
      for (let i = 0; i < N; i++) rhs[i] = m[i * N + j]!;
      lu.solve(rhs, rhs);
      for (let i = 0; i < N; i++) out[i * N + j] = rhs[i]!;
    }
    return out;
  };
  /** out ← m·L⁻¹ = (L⁻ᵀ mᵀ)ᵀ, row by row. */
  const rightSolve = (out: Float64Array, lu: DenseLU, m: Float64Array) => {
    for (let i = 0; i < N; i++) {
      for (let j = 0; j < N; j++) rhs[j] = m[i * N + j]!;
      lu.solveTranspose(rhs, rhs);
      for (let j = 0; j < N; j++) out[i * N + j] = rhs[j]!;
    }
    return out;
  };
  /** A = I − x̂/2, B = I + x̂/2, factored. */
  const prepare = (x: Float64Array) => {
    if (x.length !== d) throw new DimensionError(`cayley(${G.name}): x`, d, x.length);
    G.hat(xh, x);
    for (let i = 0; i < NN; i++) {
      A[i] = -0.5 * xh[i]!;
      B[i] = 0.5 * xh[i]!;
    }
    for (let i = 0; i < N; i++) {
      A[i * N + i] = A[i * N + i]! + 1;
      B[i * N + i] = B[i * N + i]! + 1;
    }
    luA.factor(A);
    luB.factor(B);
    if (luA.isSingular || luB.isSingular) {
      throw new DomainError(
        `cayley(${G.name}): x`,
        Array.from(x).join(','),
        'I ± x^/2 must be invertible',
      );
    }
  };
  const dcayLeft = (out: Float64Array, x: Float64Array, inverse: boolean) => {
    if (out.length !== d * d) throw new DimensionError(`cayley(${G.name}): out`, d * d, out.length);
    prepare(x);
    for (let j = 0; j < d; j++) {
      e.fill(0);
      e[j] = 1;
      G.hat(M, e);
      if (inverse) {
        mul(P, B, M);
        mul(Q, P, A); // B η̂ A
      } else {
        leftSolve(P, luB, M);
        rightSolve(Q, luA, P); // B⁻¹ δ̂ A⁻¹
      }
      G.vee(col, Q);
      for (let i = 0; i < d; i++) out[i * d + j] = col[i]!;
    }
    return out;
  };
  const negate = (x: Float64Array) => {
    if (x.length !== d) throw new DimensionError(`cayley(${G.name}): x`, d, x.length);
    for (let i = 0; i < d; i++) neg[i] = -x[i]!;
    return neg;
  };

  return {
    name: 'cay',
    group: G,
    tau(out, x) {
      prepare(x);
      leftSolve(M, luA, B);
      return G.fromMatrix(out, M);
    },
    tauInv(out, g) {
      G.toMatrix(M, g);
      for (let i = 0; i < NN; i++) {
        P[i] = M[i]!; // g + I
        Q[i] = 2 * M[i]!; // 2(g − I)
      }
      for (let i = 0; i < N; i++) {
        P[i * N + i] = P[i * N + i]! + 1;
        Q[i * N + i] = Q[i * N + i]! - 2;
      }
      luA.factor(P);
      if (luA.isSingular)
        throw new DomainError(`cayInv(${G.name}): g`, 'g', 'g + I must be invertible');
      leftSolve(M, luA, Q);
      return G.vee(out, M);
    },
    dtau: (out, x) => dcayLeft(out, x, false),
    dtauInv: (out, x) => dcayLeft(out, x, true),
    dtauR: (out, x) => dcayLeft(out, negate(x), false),
    dtauRInv: (out, x) => dcayLeft(out, negate(x), true),
  };
}

/**
 * The coadjoint action in the papers' convention (spec 003 §2): Ad*_X is the transpose of Ad_X,
 * ⟨Ad*_X ν, ξ⟩ = ⟨ν, Ad_X ξ⟩, a right action (Ad*_{XY} = Ad*_Y Ad*_X). On SO(3), Ad*_g ν = gᵀν.
 * `scratch` (dim×dim) avoids allocation in loops.
 */
export function coAdjoint(
  G: LieGroup,
  out: Float64Array,
  X: Float64Array,
  nu: Float64Array,
  scratch: Float64Array = new Float64Array(G.dim * G.dim),
): Float64Array {
  const d = G.dim;
  if (((out.length - d) | (nu.length - d) | (scratch.length - d * d)) !== 0)
    throw new DimensionError(
      `coAdjoint(${G.name}): ${out.length !== d ? 'out' : nu.length !== d ? 'nu' : 'scratch'}`,
      out.length !== d || nu.length !== d ? d : d * d,
      out.length !== d ? out.length : nu.length !== d ? nu.length : scratch.length,
    );
  G.adj(scratch, X);
  for (let j = 0; j < d; j++) {
    let s = 0;
    for (let i = 0; i < d; i++) s += scratch[i * d + j]! * nu[i]!;
    out[j] = s;
  }
  return out;
}
