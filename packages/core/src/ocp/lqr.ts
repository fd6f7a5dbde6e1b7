/**
 * Time-varying LQR feedback around a solution of a stage-structured optimal-control problem
 * ({@link StageOcp}): the linearization of the problem at the solution ({@link linearizeOcp}) and
 * the backward Riccati recursion with stage-wise equality constraints ({@link riccatiGains}).
 *
 * ## The linear-quadratic problem
 *
 * In the problem's chart (δx_k: the tangent coordinates of its retraction at x*_k; for a Lie-group
 * state x = x*·cay(δ) or x*·exp(δ), which agree to first order) and δu_k = u_k − u*_k:
 *
 *     minimize   Σ_{k<N} ½[δx_k; δu_k]ᵀ[Q_k S_k; S_kᵀ R_k][δx_k; δu_k] + ½δx_NᵀQ_Nδx_N
 *     subject to δx_{k+1} = A_k δx_k + B_k δu_k
 *                D_k [δx_k; δu_k] = 0                       (equality rows of stage k)
 *
 * The dynamics come from the stage equality c_k(x_k, u_k, x_{k+1}) = 0 by the implicit function
 * theorem: with C = [C_x, C_u, C_y] = ∂c_k/∂(δx_k, u_k, δx_{k+1}) (C_y invertible, the contract of
 * {@link StageOcp}), [A_k, B_k] = −C_y⁻¹[C_x, C_u].
 *
 * The weights are the second-order model of the problem at the solution: with the stage Hessian
 * H_k = ∇²(ℓ_k + λᵀc_k + μᵀg_k − zᵀh_k) over w = (δx_k, u_k) and y = δx_{k+1} (the solver's
 * Lagrangian and multipliers), and G = [A_k, B_k], the block [Q S; Sᵀ R] is
 *
 *     H_ww + H_wy·G + Gᵀ·H_yw + Gᵀ·H_yy·G
 *
 * (the reduced Hessian of stage k on the linearized dynamics: the Hessian of the Lagrangian on the
 * null space of the dynamics' Jacobian, Nocedal & Wright, Numerical Optimization, 2nd ed., §16.2,
 * (16.21)); Q_N is the Hessian of the last stage. The rows D_k are the equality rows g_k and the
 * active inequality rows (z_i > s_i: the multiplier above the slack) of the stage, so a control on
 * an active bound stays on it. The QP is then the one whose solution is the first-order change of
 * the optimum under a change of the state (the sensitivity of the optimum, Fiacco 1976; Pirnay,
 * López-Negrete & Biegler, sIPOPT, Math. Prog. Comp. 4, 2012): at a strict local minimum its
 * reduced Hessian is positive definite, so the recursion below is well defined.
 *
 * User weights (option `weights`) replace H_k by constant Q, R and Q_N (the classical tracking
 * LQR); the dynamics and constraint rows stay those of the problem.
 *
 * ## The recursion (constraints propagated backwards)
 *
 * V_{k+1}(y) = ½yᵀP_{k+1}y on the states that satisfy E_{k+1}y = 0 (rows that the later stages
 * impose on y, e.g. a fixed end state). At stage k, with
 *
 *     Q̂ = Q + AᵀPA,  Ŝ = S + AᵀPB,  R̂ = R + BᵀPB,  M_x = [D_x; E A],  M_u = [D_u; E B]
 *
 * the constraint rows M_x δx + M_u δu = 0 fix the part of δu in the row space of M_u,
 * δu = −M_u⁺M_x δx + Z v (Z an orthonormal basis of the null space of M_u); the rows of the left
 * null space W of M_u, WᵀM_x δx = 0, are what stage k cannot satisfy and pass on to stage k − 1
 * (E_k, the orthonormal row space of WᵀM_x). Minimizing over v:
 *
 *     K_k = K_p + Z (ZᵀR̂Z)⁻¹ Zᵀ(Ŝᵀ − R̂K_p),   K_p = M_u⁺M_x
 *     P_k = Q̂ − ŜK_k − K_kᵀŜᵀ + K_kᵀR̂K_k
 *
 * and the feedback is δu_k = −K_k δx_k. Without constraints this is the textbook recursion
 * K = (R + BᵀPB)⁻¹(Sᵀ + BᵀPA), P = Q + AᵀPA − (S + AᵀPB)K (Anderson & Moore, Optimal Control:
 * Linear Quadratic Methods, 1990, §2.4); with them it is the recursion of Laine & Tomlin
 * ("Efficient computation of feasible solutions in LQ problems with equality constraints", ICRA
 * 2019), with least-squares M_u⁺ where M_u is rank deficient. The elimination runs in two levels,
 * so that a stage's own rows hold exactly even where the rows of the later stages cannot all be
 * met: first [D_x, D_u] (δu = −K₁δx + Z₁v), then the rows E·A, E·B in v (least squares in the
 * controls Z₁ leaves free); K_p and Z combine the two. Ranks are decided by the singular values
 * with the threshold {@link LQR_RANK_RTOL} relative to the largest entry of the level's rows.
 *
 * Everything here is a cold path (once per solution): the matrices are allocated per stage and the
 * rank decisions use core's SVD (`linalg/spectral.ts`).
 *
 * @module
 */
import { DimensionError, DomainError, NonFiniteError } from '../errors.js';
import { DenseLU } from '../linalg/lu.js';
import { columnSpace, nullSpace, pseudoInverse } from '../linalg/spectral.js';
import { newStageEval, type StageOcp } from './problem.js';

/**
 * Relative threshold of the rank decisions of {@link riccatiGains}: a singular value of the
 * constraint rows [M_x, M_u] counts as zero below 1e-9 times their largest entry (well above the
 * rounding of the propagated rows, well below any physical coupling).
 */
export const LQR_RANK_RTOL = 1e-9;

/** One stage k < N of a linear-quadratic problem (module comment); matrices row-major. */
export interface LqrStage {
  /** Dimensions of δx_k, δu_k and δx_{k+1}. */
  readonly nx: number;
  readonly nu: number;
  readonly nxNext: number;
  /** nxNext × nx. */
  readonly A: Float64Array;
  /** nxNext × nu. */
  readonly B: Float64Array;
  /** nx × nx, symmetric. */
  readonly Q: Float64Array;
  /** nu × nu, symmetric. */
  readonly R: Float64Array;
  /** nx × nu (the cross weight δxᵀSδu). */
  readonly S: Float64Array;
  /** Equality rows D = [D_x, D_u]: m × (nx + nu). */
  readonly D: Float64Array;
  readonly m: number;
}

/** The last stage: weight Q_N and equality rows D_N on δx_N. */
export interface LqrTerminal {
  readonly nx: number;
  /** nx × nx, symmetric. */
  readonly Q: Float64Array;
  /** m × nx. */
  readonly D: Float64Array;
  readonly m: number;
}

/** A linear-quadratic problem with stage-wise equality constraints (module comment). */
export interface LqrProblem {
  /** Stages 0..N−1. */
  readonly stages: readonly LqrStage[];
  readonly terminal: LqrTerminal;
}

/** The gains of {@link riccatiGains}. */
export interface LqrGains {
  readonly N: number;
  /** K_k (nu_k × nx_k, row-major) for k < N: δu_k = −K_k δx_k. */
  readonly K: readonly Float64Array[];
  /** P_k (nx_k × nx_k) for k ≤ N: the value function ½δxᵀP_kδx on the states E_kδx = 0. */
  readonly P: readonly Float64Array[];
  /** E_k (rows × nx_k, orthonormal rows) for k ≤ N: what the stages ≥ k impose on δx_k. */
  readonly E: readonly Float64Array[];
  /** Number of rows of each E_k. */
  readonly eRows: Int32Array;
}

// ---------------------------------------------------------------------------------------------
// small dense helpers (row-major; allocate: cold path)

/** C = op(A)·op(B) with A m×k (or k×m when ta), B k×n (or n×k when tb). */
function mm(
  A: Float64Array,
  B: Float64Array,
  m: number,
  k: number,
  n: number,
  ta = false,
  tb = false,
): Float64Array {
  const C = new Float64Array(m * n);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let l = 0; l < k; l++)
        s += (ta ? A[l * m + i]! : A[i * k + l]!) * (tb ? B[j * k + l]! : B[l * n + j]!);
      C[i * n + j] = s;
    }
  }
  return C;
}

function addInto(a: Float64Array, b: Float64Array, scale = 1): Float64Array {
  for (let i = 0; i < a.length; i++) a[i] = a[i]! + scale * b[i]!;
  return a;
}

function symmetrize(a: Float64Array, n: number): void {
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) {
      const v = 0.5 * (a[i * n + j]! + a[j * n + i]!);
      a[i * n + j] = v;
      a[j * n + i] = v;
    }
  }
}

/** Lower Cholesky factor of an n×n symmetric matrix, or null when it is not positive definite. */
function cholesky(a: Float64Array, n: number): Float64Array | null {
  const L = new Float64Array(n * n);
  let scale = 0;
  for (let i = 0; i < n; i++) scale = Math.max(scale, Math.abs(a[i * n + i]!));
  for (let j = 0; j < n; j++) {
    let d = a[j * n + j]!;
    for (let l = 0; l < j; l++) d -= L[j * n + l]! ** 2;
    // a pivot at the level of the rounding errors of the diagonal counts as not positive
    if (!(d > 1e-14 * scale)) return null;
    const r = Math.sqrt(d);
    L[j * n + j] = r;
    for (let i = j + 1; i < n; i++) {
      let s = a[i * n + j]!;
      for (let l = 0; l < j; l++) s -= L[i * n + l]! * L[j * n + l]!;
      L[i * n + j] = s / r;
    }
  }
  return L;
}

/** X ← (LLᵀ)⁻¹B for B n×p (in a copy). */
function choleskySolve(L: Float64Array, n: number, B: Float64Array, p: number): Float64Array {
  const X = Float64Array.from(B);
  for (let c = 0; c < p; c++) {
    for (let i = 0; i < n; i++) {
      let s = X[i * p + c]!;
      for (let l = 0; l < i; l++) s -= L[i * n + l]! * X[l * p + c]!;
      X[i * p + c] = s / L[i * n + i]!;
    }
    for (let i = n - 1; i >= 0; i--) {
      let s = X[i * p + c]!;
      for (let l = i + 1; l < n; l++) s -= L[l * n + i]! * X[l * p + c]!;
      X[i * p + c] = s / L[i * n + i]!;
    }
  }
  return X;
}

function transpose(a: Float64Array, m: number, n: number): Float64Array {
  const t = new Float64Array(n * m);
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) t[j * m + i] = a[i * n + j]!;
  return t;
}

function maxAbs(a: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s = Math.max(s, Math.abs(a[i]!));
  return s;
}

/** Orthonormal rows spanning the row space of an r×n matrix (rank threshold `tol`). */
function rowSpace(
  a: Float64Array,
  r: number,
  n: number,
  tol: number,
): { E: Float64Array; rows: number } {
  if (r === 0 || n === 0) return { E: new Float64Array(0), rows: 0 };
  const { basis, d } = columnSpace(transpose(a, r, n), n, r, tol);
  return { E: transpose(basis, n, d), rows: d };
}

function checkMatrix(what: string, a: Float64Array, n: number): void {
  if (!(a instanceof Float64Array) || a.length !== n)
    throw new DimensionError(
      `riccatiGains: ${what}`,
      n,
      a instanceof Float64Array ? a.length : typeof a,
    );
  for (let i = 0; i < n; i++)
    if (!Number.isFinite(a[i]!)) throw new NonFiniteError(`riccatiGains: ${what}`, i);
}

/**
 * Solves the rows M_u δu = −M_x δx as far as δu can (module comment): δu = −K_p δx + Z v with
 * K_p = M_u⁺M_x (least squares) and Z (n × d) an orthonormal basis of the null space of M_u; `rest`
 * (q × nx) are the rows WᵀM_x of the left null space W of M_u, which δu cannot satisfy. Ranks by
 * {@link LQR_RANK_RTOL} relative to the largest entry of [M_x, M_u].
 */
function eliminate(
  Mu: Float64Array,
  Mx: Float64Array,
  rows: number,
  n: number,
  nx: number,
): { Kp: Float64Array; Z: Float64Array; d: number; rest: Float64Array; q: number } {
  if (rows === 0 || n === 0) {
    // no rows, or no controls: every row is left for the earlier stages
    return {
      Kp: new Float64Array(n * nx),
      Z: identityOf(n),
      d: n,
      rest: Float64Array.from(Mx),
      q: n === 0 ? rows : 0,
    };
  }
  const tol = LQR_RANK_RTOL * Math.max(maxAbs(Mx), maxAbs(Mu));
  const Kp = mm(pseudoInverse(Mu, rows, n, tol), Mx, n, rows, nx);
  const ns = nullSpace(Mu, rows, n, tol);
  const W = nullSpace(transpose(Mu, rows, n), n, rows, tol);
  const rest = W.d === 0 ? new Float64Array(0) : mm(W.basis, Mx, W.d, rows, nx, true);
  return { Kp, Z: ns.basis, d: ns.d, rest, q: W.d };
}

// ---------------------------------------------------------------------------------------------

/**
 * The backward Riccati recursion with stage-wise equality constraints (module comment): the gains
 * K_k of the optimal feedback δu_k = −K_k δx_k of a linear-quadratic problem, the value matrices
 * P_k and the rows E_k the later stages impose on δx_k.
 *
 * @throws DimensionError for matrices of the wrong size or chained dimensions that do not match;
 *   NonFiniteError for a NaN or infinite entry; DomainError when the reduced Hessian Zᵀ(R + BᵀPB)Z
 *   of a stage is not positive definite (not a strict minimum: no optimal feedback).
 * @example
 * ```ts
 * // scalar x_{k+1} = x_k + u_k, cost Σ ½(x² + u²), two stages, no terminal weight
 * const one = Float64Array.of(1);
 * const stage = { nx: 1, nu: 1, nxNext: 1, A: one, B: one, Q: one, R: one,
 *   S: Float64Array.of(0), D: new Float64Array(0), m: 0 };
 * const { K } = riccatiGains({ stages: [stage, stage],
 *   terminal: { nx: 1, Q: Float64Array.of(0), D: new Float64Array(0), m: 0 } });
 * // K[1] = [0] (nothing after the last control), K[0] = [0.5]
 * ```
 */
export function riccatiGains(problem: LqrProblem): LqrGains {
  const N = problem.stages.length;
  const t = problem.terminal;
  checkMatrix('terminal.Q', t.Q, t.nx * t.nx);
  checkMatrix('terminal.D', t.D, t.m * t.nx);
  const K: Float64Array[] = new Array(N);
  const P: Float64Array[] = new Array(N + 1);
  const E: Float64Array[] = new Array(N + 1);
  const eRows = new Int32Array(N + 1);
  const PN = Float64Array.from(t.Q);
  symmetrize(PN, t.nx);
  P[N] = PN;
  const eN = rowSpace(t.D, t.m, t.nx, LQR_RANK_RTOL * maxAbs(t.D));
  E[N] = eN.E;
  eRows[N] = eN.rows;
  for (let k = N - 1; k >= 0; k--) {
    const s = problem.stages[k]!;
    const { nx, nu, nxNext: ny, m } = s;
    const Pn = P[k + 1]!;
    if (ny !== (k + 1 < N ? problem.stages[k + 1]!.nx : t.nx))
      throw new DimensionError(
        `riccatiGains: stages[${k}].nxNext`,
        k + 1 < N ? problem.stages[k + 1]!.nx : t.nx,
        ny,
      );
    checkMatrix(`stages[${k}].A`, s.A, ny * nx);
    checkMatrix(`stages[${k}].B`, s.B, ny * nu);
    checkMatrix(`stages[${k}].Q`, s.Q, nx * nx);
    checkMatrix(`stages[${k}].R`, s.R, nu * nu);
    checkMatrix(`stages[${k}].S`, s.S, nx * nu);
    checkMatrix(`stages[${k}].D`, s.D, m * (nx + nu));
    const PA = mm(Pn, s.A, ny, ny, nx);
    const PB = mm(Pn, s.B, ny, ny, nu);
    const Qh = addInto(mm(s.A, PA, nx, ny, nx, true), s.Q);
    const Sh = addInto(mm(s.A, PB, nx, ny, nu, true), s.S);
    const Rh = addInto(mm(s.B, PB, nu, ny, nu, true), s.R);
    symmetrize(Qh, nx);
    symmetrize(Rh, nu);
    // the stage's own rows D first (exactly), then the rows E_{k+1} the later stages impose on
    // δx_{k+1} = Aδx + Bδu (least squares within the controls D leaves free)
    const Dx = new Float64Array(m * nx);
    const Du = new Float64Array(m * nu);
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < nx; j++) Dx[i * nx + j] = s.D[i * (nx + nu) + j]!;
      for (let j = 0; j < nu; j++) Du[i * nu + j] = s.D[i * (nx + nu) + nx + j]!;
    }
    const one = eliminate(Du, Dx, m, nu, nx);
    let Kk = one.Kp;
    let Z = one.Z;
    let d = one.d;
    const rest = [one.rest];
    let restRows = one.q;
    const r = eRows[k + 1]!;
    if (r > 0) {
      const Eu = mm(E[k + 1]!, s.B, r, ny, nu);
      const Ex = mm(E[k + 1]!, s.A, r, ny, nx);
      // δu = −K_p1 δx + Z₁v: rows (E B Z₁) v = −(E A − E B K_p1) δx
      const X2 = addInto(Ex, mm(Eu, one.Kp, r, nu, nx), -1);
      const two = eliminate(mm(Eu, one.Z, r, nu, one.d), X2, r, one.d, nx);
      Kk = addInto(Float64Array.from(one.Kp), mm(one.Z, two.Kp, nu, one.d, nx));
      Z = mm(one.Z, two.Z, nu, one.d, two.d);
      d = two.d;
      rest.push(two.rest);
      restRows += two.q;
    }
    if (d > 0) {
      // minimize over v in δu = −K_p δx + Z v
      const RZ = mm(Rh, Z, nu, nu, d);
      const Rz = mm(Z, RZ, d, nu, d, true);
      symmetrize(Rz, d);
      const L = cholesky(Rz, d);
      if (L === null)
        throw new DomainError(
          `riccatiGains: stage ${k}`,
          'a reduced Hessian Zᵀ(R + BᵀPB)Z that is not positive definite',
          'a strict minimum of the linear-quadratic problem (positive curvature on the feasible controls)',
        );
      // rhs = Zᵀ(Ŝᵀ − R̂K_p)
      const St = transpose(Sh, nx, nu);
      addInto(St, mm(Rh, Kk, nu, nu, nx), -1);
      const rhs = mm(Z, St, d, nu, nx, true);
      const v = choleskySolve(L, d, rhs, nx);
      addInto(Kk, mm(Z, v, nu, d, nx));
    }
    // P_k = Q̂ − ŜK − KᵀŜᵀ + KᵀR̂K
    const SK = mm(Sh, Kk, nx, nu, nx);
    const Pk = Float64Array.from(Qh);
    addInto(Pk, SK, -1);
    addInto(Pk, transpose(SK, nx, nx), -1);
    addInto(Pk, mm(Kk, mm(Rh, Kk, nu, nu, nx), nx, nu, nx, true));
    symmetrize(Pk, nx);
    K[k] = Kk;
    P[k] = Pk;
    // rows left for the earlier stages
    const stacked = new Float64Array(restRows * nx);
    let off = 0;
    for (const part of rest) {
      stacked.set(part, off);
      off += part.length;
    }
    const e = rowSpace(stacked, restRows, nx, LQR_RANK_RTOL * maxAbs(stacked));
    E[k] = e.E;
    eRows[k] = e.rows;
  }
  return { N, K, P, E, eRows };
}

function identityOf(n: number): Float64Array {
  const I = new Float64Array(n * n);
  for (let i = 0; i < n; i++) I[i * n + i] = 1;
  return I;
}

// ---------------------------------------------------------------------------------------------
// linearization of a StageOcp at a solution

/** A point of a {@link StageOcp} with its multipliers (an `OcpResult` is one). */
export interface OcpPoint {
  /** Flat state storage. */
  readonly x: Float64Array;
  readonly u: Float64Array;
  /** Multipliers of the dynamics, equality and inequality rows; slacks of the inequalities. */
  readonly lambda: Float64Array;
  readonly mu: Float64Array;
  readonly z: Float64Array;
  readonly s: Float64Array;
}

/** User weights of {@link linearizeOcp}: constant matrices in the stage's coordinates. */
export interface LqrWeights {
  /** n_x × n_x, symmetric (every stage must have this n_x). */
  readonly Q: ArrayLike<number>;
  /** n_u × n_u, symmetric positive definite on the feasible controls. */
  readonly R: ArrayLike<number>;
  /** Terminal weight n_x × n_x. Default Q. */
  readonly QN?: ArrayLike<number>;
}

/** Options of {@link linearizeOcp} and {@link ocpFeedbackGains}. */
export interface LqrOptions {
  /**
   * `'lagrangian'` (default): the Hessian of the Lagrangian at the solution (module comment), or
   * constant user weights.
   */
  readonly weights?: 'lagrangian' | LqrWeights;
}

/**
 * The linear-quadratic model of a {@link StageOcp} at a point with multipliers (module comment):
 * A_k, B_k from the stage Jacobians of c_k by the implicit function theorem, the reduced Hessians
 * of the Lagrangian (or the user weights), and the equality rows (g_k and the active inequality
 * rows, z_i > s_i). The last stage must have no controls.
 *
 * @throws DimensionError for a point or weights of the wrong size; DomainError when the problem
 *   cannot be evaluated at the point, ∂c_k/∂x_{k+1} is singular or the last stage has controls.
 * @example
 * ```ts
 * // x_{k+1} = x_k + u_k (c = x + u − x_{k+1}), cost Σ ½u², N = 1
 * const problem: StageOcp = {
 *   N: 1,
 *   dims: (k) => ({ nx: 1, nu: k < 1 ? 1 : 0, ng: 0, nh: 0 }),
 *   stateStorage: () => 1,
 *   retract: (_k, out, x, dx) => { out[0] = x[0]! + dx[0]!; },
 *   evaluate: (k, x, u, xn, level, sigma, _l, _m, _e, out) => {
 *     out.cost = k < 1 ? 0.5 * u[0]! ** 2 : 0;
 *     if (k < 1) out.c[0] = x[0]! + u[0]! - xn![0]!;
 *     if (level === 0) return;
 *     out.costGrad.fill(0);
 *     if (k < 1) { out.costGrad[1] = u[0]!; out.cJac.set([1, 1, -1]); }
 *     if (level === 2) { out.hess.fill(0); if (k < 1) out.hess[4] = sigma; }
 *   },
 * };
 * const zero = new Float64Array(0);
 * const lq = linearizeOcp(problem, { x: Float64Array.of(1, 1), u: Float64Array.of(0),
 *   lambda: Float64Array.of(0), mu: zero, z: zero, s: zero });
 * // lq.stages[0].A = [1], B = [1], R = [1]
 * ```
 */
export function linearizeOcp(
  problem: StageOcp,
  point: OcpPoint,
  options: LqrOptions = {},
): LqrProblem {
  const N = problem.N;
  const dims = Array.from({ length: N + 1 }, (_, k) => problem.dims(k));
  let xs = 0;
  let us = 0;
  let ls = 0;
  let gs = 0;
  let hs = 0;
  for (let k = 0; k <= N; k++) {
    xs += problem.stateStorage(k);
    us += dims[k]!.nu;
    if (k < N) ls += dims[k + 1]!.nx;
    gs += dims[k]!.ng;
    hs += dims[k]!.nh;
  }
  const sizes: [keyof OcpPoint, number][] = [
    ['x', xs],
    ['u', us],
    ['lambda', ls],
    ['mu', gs],
    ['z', hs],
    ['s', hs],
  ];
  for (const [key, n] of sizes) {
    const a = point[key];
    if (a.length !== n) throw new DimensionError(`linearizeOcp: point.${key}`, n, a.length);
  }
  if (dims[N]!.nu !== 0)
    throw new DomainError('linearizeOcp: the last stage', `${dims[N]!.nu} controls`, 'no controls');
  const weights = options.weights ?? 'lagrangian';
  const user = weights === 'lagrangian' ? undefined : weights;
  if (user !== undefined) {
    const nx = dims[0]!.nx;
    const nu = dims[0]!.nu;
    for (let k = 0; k <= N; k++) {
      if (dims[k]!.nx !== nx)
        throw new DimensionError(`linearizeOcp: weights (stage ${k} n_x)`, nx, dims[k]!.nx);
      if (k < N && dims[k]!.nu !== nu)
        throw new DimensionError(`linearizeOcp: weights (stage ${k} n_u)`, nu, dims[k]!.nu);
    }
    const check = (what: string, a: ArrayLike<number>, n: number) => {
      if (a.length !== n) throw new DimensionError(`linearizeOcp: weights.${what}`, n, a.length);
      for (let i = 0; i < n; i++)
        if (!Number.isFinite(a[i]!)) throw new NonFiniteError(`linearizeOcp: weights.${what}`, i);
    };
    check('Q', user.Q, nx * nx);
    check('R', user.R, nu * nu);
    if (user.QN !== undefined) check('QN', user.QN, nx * nx);
  }
  const stages: LqrStage[] = [];
  let terminal: LqrTerminal | undefined;
  let xo = 0;
  let uo = 0;
  let lo = 0;
  let go = 0;
  let ho = 0;
  for (let k = 0; k <= N; k++) {
    const d = dims[k]!;
    const nx = d.nx;
    const nu = d.nu;
    const nw = nx + nu;
    const ny = k < N ? dims[k + 1]!.nx : 0;
    const ns = problem.stateStorage(k);
    const x = point.x.subarray(xo, xo + ns);
    const xNext =
      k < N ? point.x.subarray(xo + ns, xo + ns + problem.stateStorage(k + 1)) : undefined;
    const u = point.u.subarray(uo, uo + nu);
    const lambda = point.lambda.subarray(lo, lo + ny);
    const mu = point.mu.subarray(go, go + d.ng);
    const eta = new Float64Array(d.nh);
    for (let i = 0; i < d.nh; i++) eta[i] = -point.z[ho + i]!;
    const out = newStageEval(d, ny);
    problem.evaluate(k, x, u, xNext, 2, 1, lambda, mu, eta, out);
    let finite = Number.isFinite(out.cost);
    for (const a of [out.cJac, out.gJac, out.hJac, out.hess]) {
      for (let i = 0; i < a.length && finite; i++) finite = Number.isFinite(a[i]!);
    }
    if (!finite)
      throw new DomainError(
        `linearizeOcp: stage ${k}`,
        'NaN or ±∞',
        'a point where the problem can be evaluated',
      );
    // equality rows: g and the active inequalities (z > s)
    const rows: number[] = [];
    for (let i = 0; i < d.ng; i++) rows.push(i);
    const active: number[] = [];
    for (let i = 0; i < d.nh; i++) if (point.z[ho + i]! > point.s[ho + i]!) active.push(i);
    const m = d.ng + active.length;
    const D = new Float64Array(m * nw);
    D.set(out.gJac.subarray(0, d.ng * nw));
    for (let r = 0; r < active.length; r++) {
      const i = active[r]!;
      D.set(out.hJac.subarray(i * nw, (i + 1) * nw), (d.ng + r) * nw);
    }
    const hw = nw + ny;
    if (k === N) {
      const Q = new Float64Array(nx * nx);
      if (user === undefined) {
        for (let i = 0; i < nx; i++)
          for (let j = 0; j < nx; j++) Q[i * nx + j] = out.hess[i * hw + j]!;
      } else Q.set(Array.from(user.QN ?? user.Q));
      terminal = { nx, Q, D, m };
      break;
    }
    // [A, B] = −C_y⁻¹[C_x, C_u] (implicit function theorem on c_k = 0)
    const lu = new DenseLU(ny).factor(
      Float64Array.from(
        { length: ny * ny },
        (_, e) => out.cJac[Math.floor(e / ny) * hw + nw + (e % ny)]!,
      ),
    );
    if (lu.isSingular)
      throw new DomainError(
        `linearizeOcp: stage ${k}`,
        'a singular ∂c/∂x_{k+1}',
        'an invertible Jacobian of the dynamics in the next state',
      );
    const G = new Float64Array(ny * nw);
    const col = new Float64Array(ny);
    const sol = new Float64Array(ny);
    for (let j = 0; j < nw; j++) {
      for (let i = 0; i < ny; i++) col[i] = -out.cJac[i * hw + j]!;
      lu.solve(col, sol);
      for (let i = 0; i < ny; i++) G[i * nw + j] = sol[i]!;
    }
    const A = new Float64Array(ny * nx);
    const B = new Float64Array(ny * nu);
    for (let i = 0; i < ny; i++) {
      for (let j = 0; j < nx; j++) A[i * nx + j] = G[i * nw + j]!;
      for (let j = 0; j < nu; j++) B[i * nu + j] = G[i * nw + nx + j]!;
    }
    let Hw: Float64Array;
    if (user === undefined) {
      // H_ww + H_wy G + Gᵀ H_yw + Gᵀ H_yy G
      const Hww = new Float64Array(nw * nw);
      const Hwy = new Float64Array(nw * ny);
      const Hyy = new Float64Array(ny * ny);
      for (let i = 0; i < nw; i++) {
        for (let j = 0; j < nw; j++) Hww[i * nw + j] = out.hess[i * hw + j]!;
        for (let j = 0; j < ny; j++) Hwy[i * ny + j] = out.hess[i * hw + nw + j]!;
      }
      for (let i = 0; i < ny; i++)
        for (let j = 0; j < ny; j++) Hyy[i * ny + j] = out.hess[(nw + i) * hw + nw + j]!;
      const HwyG = mm(Hwy, G, nw, ny, nw);
      Hw = addInto(addInto(Hww, HwyG), transpose(HwyG, nw, nw));
      addInto(Hw, mm(G, mm(Hyy, G, ny, ny, nw), nw, ny, nw, true));
      symmetrize(Hw, nw);
    } else {
      Hw = new Float64Array(nw * nw);
      for (let i = 0; i < nx; i++)
        for (let j = 0; j < nx; j++) Hw[i * nw + j] = user.Q[i * nx + j]!;
      for (let i = 0; i < nu; i++)
        for (let j = 0; j < nu; j++) Hw[(nx + i) * nw + nx + j] = user.R[i * nu + j]!;
    }
    const Q = new Float64Array(nx * nx);
    const R = new Float64Array(nu * nu);
    const S = new Float64Array(nx * nu);
    for (let i = 0; i < nx; i++) {
      for (let j = 0; j < nx; j++) Q[i * nx + j] = Hw[i * nw + j]!;
      for (let j = 0; j < nu; j++) S[i * nu + j] = Hw[i * nw + nx + j]!;
    }
    for (let i = 0; i < nu; i++)
      for (let j = 0; j < nu; j++) R[i * nu + j] = Hw[(nx + i) * nw + nx + j]!;
    stages.push({ nx, nu, nxNext: ny, A, B, Q, R, S, D, m });
    xo += ns;
    uo += nu;
    lo += ny;
    go += d.ng;
    ho += d.nh;
  }
  return { stages, terminal: terminal! };
}

/** The feedback of {@link ocpFeedbackGains}: the linear-quadratic model and its gains. */
export interface OcpFeedbackGains extends LqrGains {
  readonly model: LqrProblem;
}

/**
 * Time-varying LQR gains around a solution of a {@link StageOcp}: {@link riccatiGains} of
 * {@link linearizeOcp}. The feedback law is u_k = u*_k − K_k δx_k with δx_k the chart
 * coordinates of x_k at x*_k (for a Lie-group state, log(x*_k⁻¹x_k) to first order).
 *
 * @throws as {@link linearizeOcp} and {@link riccatiGains}.
 * @example
 * ```ts
 * // steer x₀ to x₂ = 0 with x_{k+1} = x_k + u_k and Σ ½u²: the solver's example problem
 * const problem: StageOcp = {
 *   N: 2,
 *   dims: (k) => ({ nx: 1, nu: k < 2 ? 1 : 0, ng: k === 0 || k === 2 ? 1 : 0, nh: 0 }),
 *   stateStorage: () => 1,
 *   retract: (_k, out, x, dx) => { out[0] = x[0]! + dx[0]!; },
 *   evaluate: (k, x, u, xn, level, sigma, lambda, _mu, _eta, out) => {
 *     out.cost = k < 2 ? 0.5 * u[0]! ** 2 : 0;
 *     if (k < 2) out.c[0] = x[0]! + u[0]! - xn![0]!;
 *     if (k === 0) out.g[0] = x[0]! - 1;
 *     if (k === 2) out.g[0] = x[0]!;
 *     if (level === 0) return;
 *     out.costGrad.fill(0);
 *     if (k < 2) { out.costGrad[1] = u[0]!; out.cJac.set([1, 1, -1]); }
 *     if (k !== 1) out.gJac[0] = 1;
 *     if (level === 2) { out.hess.fill(0); if (k < 2) out.hess[4] = sigma; }
 *   },
 * };
 * const result = new OcpSolver(problem).solve({ x: [0, 0, 0], u: [0, 0] });
 * const { K } = ocpFeedbackGains(problem, result);
 * // K[0] = [0.5] (split the error over two steps), K[1] = [1] (remove the rest)
 * ```
 */
export function ocpFeedbackGains(
  problem: StageOcp,
  point: OcpPoint,
  options: LqrOptions = {},
): OcpFeedbackGains {
  const model = linearizeOcp(problem, point, options);
  return { ...riccatiGains(model), model };
}
