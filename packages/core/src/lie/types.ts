/**
 * The one interface behind every Lie group of geomech (see `CONVENTIONS.md` for the conventions
 * every implementation follows: right ⊕/⊖, right Jacobians, `[v, ω]` tangent ordering for SE(n),
 * flat row-major storage).
 *
 * Every operation writes into an output argument given first and returns it; hot operations
 * (`compose`, `act`, `exp`, `log`, and a retraction's `tau`) allocate nothing. Unless a method says
 * otherwise, `out` must not alias an input.
 *
 * @module
 */

/** A uniform random number generator on [0, 1), e.g. a seeded mulberry32 or `Math.random`. */
export type Rng = () => number;

/**
 * A matrix Lie group G with Lie algebra 𝔤 ≅ R^dim.
 *
 * Elements are flat `Float64Array`s of length {@link storageSize}: for matrix groups the N×N matrix
 * row-major (N = {@link matrixSize}); the exceptions (Rⁿ: the vector; unit quaternions: `wxyz`;
 * products: the concatenation of the factors' storages) say so in their doc comment. Tangent
 * vectors are `Float64Array`s of length {@link dim}.
 *
 * **Dimension checks.** Every method checks the lengths of its array arguments exactly and throws
 * a `DimensionError` naming the method and the argument (e.g. `'SE3.exp: tau'`, expected 6, got 3).
 *
 * **Jacobians** (manif's `J_out_in`, `CONVENTIONS.md` § Jacobians of the operations): the optional
 * trailing arguments `J_out_*` receive the right Jacobian of the output with respect to that input,
 * J = ∂(f(X ⊕ δ) ⊖ f(X))/∂δ at δ = 0, a row-major (size of out's tangent) × (size of in's tangent)
 * matrix: dim×dim between group arguments, actionDim×dim and actionDim×actionDim for {@link act}.
 * A Jacobian output must not alias any other argument. When none is passed an operation costs what
 * it costs without Jacobians.
 *
 * **Validity.** Operations assume valid elements ({@link isValid}); `log` additionally rejects
 * grossly invalid input (each group documents its cheap check). NaN inputs propagate to NaN
 * outputs; they never produce a finite result.
 */
export interface LieGroup {
  /** Short name, e.g. `'SO(3)'`, `'SE(3)'`, `'R^4'`. */
  readonly name: string;
  /** Dimension of the group = dimension of 𝔤 = length of a tangent vector. */
  readonly dim: number;
  /** Length of an element's storage. */
  readonly storageSize: number;
  /** N of the N×N matrix representation used by {@link hat}, {@link vee} and {@link toMatrix}. */
  readonly matrixSize: number;
  /** Dimension of the points the group acts on with {@link act}. */
  readonly actionDim: number;

  /** out ← e. */
  identity(out: Float64Array): Float64Array;
  /**
   * out ← a·b. `out` may alias `a` or `b`. J_out_a = Ad_{b⁻¹}, J_out_b = I (dim×dim).
   */
  compose(
    out: Float64Array,
    a: Float64Array,
    b: Float64Array,
    J_out_a?: Float64Array,
    J_out_b?: Float64Array,
  ): Float64Array;
  /** out ← a⁻¹. `out` may alias `a`. J_out_a = −Ad_a. */
  inverse(out: Float64Array, a: Float64Array, J_out_a?: Float64Array): Float64Array;
  /**
   * out ← Exp(τ) = exp(τ^) (the group exponential, from the algebra in R^dim coordinates).
   * J_out_tau = J_r(τ).
   */
  exp(out: Float64Array, tau: Float64Array, J_out_tau?: Float64Array): Float64Array;
  /**
   * out ← Log(X), the inverse of {@link exp} on its principal branch. J_out_X = J_r⁻¹(Log X).
   * Assumes X valid; see each group for the cheap check that rejects non-elements.
   */
  log(out: Float64Array, X: Float64Array, J_out_X?: Float64Array): Float64Array;
  /** out ← τ^, the N×N algebra matrix (row-major). */
  hat(out: Float64Array, tau: Float64Array): Float64Array;
  /** out ← m∨, inverse of {@link hat} (reads only the entries hat writes). */
  vee(out: Float64Array, m: Float64Array): Float64Array;
  /**
   * out ← X·p, the action on points of R^actionDim. `out` may alias `p`. J_out_X = ∂((X ⊕ δ)·p)/∂δ
   * (actionDim×dim), J_out_p = ∂(X·p)/∂p (actionDim×actionDim).
   */
  act(
    out: Float64Array,
    X: Float64Array,
    p: Float64Array,
    J_out_X?: Float64Array,
    J_out_p?: Float64Array,
  ): Float64Array;
  /** out ← Ad_X, the dim×dim matrix with (X τ^ X⁻¹)∨ = Ad_X τ. */
  adj(out: Float64Array, X: Float64Array): Float64Array;
  /** out ← ad_τ, the dim×dim matrix with ad_τ σ = [τ^, σ^]∨ = (τ^σ^ − σ^τ^)∨. */
  smallAdj(out: Float64Array, tau: Float64Array): Float64Array;
  /** out ← X ⊕ τ = X·Exp(τ). J_out_X = Ad_{Exp(−τ)} = Ad_{Exp(τ)}⁻¹, J_out_tau = J_r(τ). */
  rplus(
    out: Float64Array,
    X: Float64Array,
    tau: Float64Array,
    J_out_X?: Float64Array,
    J_out_tau?: Float64Array,
  ): Float64Array;
  /** out ← Y ⊖ X = Log(X⁻¹·Y). J_out_Y = J_r⁻¹(out), J_out_X = −J_l⁻¹(out). */
  rminus(
    out: Float64Array,
    Y: Float64Array,
    X: Float64Array,
    J_out_Y?: Float64Array,
    J_out_X?: Float64Array,
  ): Float64Array;
  /** out ← τ ⊕ X = Exp(τ)·X. J_out_tau = Ad_{X⁻¹}·J_r(τ), J_out_X = I. */
  lplus(
    out: Float64Array,
    tau: Float64Array,
    X: Float64Array,
    J_out_tau?: Float64Array,
    J_out_X?: Float64Array,
  ): Float64Array;
  /** out ← Y ⊖ˡ X = Log(Y·X⁻¹). J_out_Y = J_r⁻¹(out)·Ad_X, J_out_X = −J_r⁻¹(out)·Ad_X. */
  lminus(
    out: Float64Array,
    Y: Float64Array,
    X: Float64Array,
    J_out_Y?: Float64Array,
    J_out_X?: Float64Array,
  ): Float64Array;
  /** out ← X⁻¹·Y. J_out_X = −Ad_{Y⁻¹X} = −Ad_{out⁻¹}, J_out_Y = I. */
  between(
    out: Float64Array,
    X: Float64Array,
    Y: Float64Array,
    J_out_X?: Float64Array,
    J_out_Y?: Float64Array,
  ): Float64Array;
  /** out ← J_r(τ): Exp(τ + δ) ≈ Exp(τ)·Exp(J_r(τ) δ). dim×dim. */
  rjac(out: Float64Array, tau: Float64Array): Float64Array;
  /** out ← J_l(τ): Exp(τ + δ) ≈ Exp(J_l(τ) δ)·Exp(τ). J_l(τ) = J_r(−τ). */
  ljac(out: Float64Array, tau: Float64Array): Float64Array;
  /** out ← J_r(τ)⁻¹. */
  rjacInv(out: Float64Array, tau: Float64Array): Float64Array;
  /** out ← J_l(τ)⁻¹. */
  ljacInv(out: Float64Array, tau: Float64Array): Float64Array;
  /** out ← a random element (for tests), drawn with `rng`. */
  random(out: Float64Array, rng: Rng): Float64Array;
  /** out ← the N×N matrix of X (row-major); the identity copy for matrix-stored groups. */
  toMatrix(out: Float64Array, X: Float64Array): Float64Array;
  /** out ← the element with matrix M (N×N row-major); no re-orthonormalization. */
  fromMatrix(out: Float64Array, M: Float64Array): Float64Array;
  /**
   * Whether X is an element of the group to within `tol` (default `GROUP_VALIDITY_TOL` = 1e-9),
   * in the group's own measure (each group documents it: e.g. ‖RᵀR − I‖ ≤ tol and det R > 0).
   * False for any NaN or infinite entry.
   */
  isValid(X: Float64Array, tol?: number): boolean;
  /**
   * out ← the element nearest to X (each group documents its projection and accuracy), e.g. after
   * drift from many compositions. `out` may alias `X`.
   * @throws DomainError when X has a non-finite entry or no nearest element exists.
   */
  normalize(out: Float64Array, X: Float64Array): Float64Array;
}

/**
 * A retraction τ: 𝔤 → G (spec 003 §8.1): an analytic local diffeomorphism near 0 with
 * τ(x)τ(−x) = e, and its trivialized tangents. With the paper's *left*-trivialized tangent
 * dτ_x defined by T_xτ·δ = τ(x)·(dτ_x δ)^ (so dτ for τ = exp is the right Jacobian J_r), and the
 * right-trivialized one by T_xτ·δ = (dτᴿ_x δ)^·τ(x), which satisfy
 *   dτᴿ_x = dτ_{−x}   and   dτ⁻¹_x = dτ⁻¹_{−x}·Ad_{τ(x)}   (spec 003 §8.1).
 */
export interface Retraction {
  /** `'exp'`, `'cay'` or `'skew'`. */
  readonly name: string;
  readonly group: LieGroup;
  /** out ← τ(x). */
  tau(out: Float64Array, x: Float64Array): Float64Array;
  /** out ← τ⁻¹(g). */
  tauInv(out: Float64Array, g: Float64Array): Float64Array;
  /** out ← dτ_x (left-trivialized, dim×dim). */
  dtau(out: Float64Array, x: Float64Array): Float64Array;
  /** out ← dτ_x⁻¹ (left-trivialized). */
  dtauInv(out: Float64Array, x: Float64Array): Float64Array;
  /** out ← dτᴿ_x = dτ_{−x} (right-trivialized). */
  dtauR(out: Float64Array, x: Float64Array): Float64Array;
  /** out ← (dτᴿ_x)⁻¹ = dτ⁻¹_{−x}. */
  dtauRInv(out: Float64Array, x: Float64Array): Float64Array;
}
