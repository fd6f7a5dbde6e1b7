/**
 * Every named threshold of the numerical core, in one place (STYLE.md: no bare epsilons scattered
 * through the code). Modules import from here; users may read them to understand a decision.
 *
 * @module
 */

/**
 * Default relative step of central differences, ∛ε ≈ 6.06e-6: it balances the truncation error
 * O(h²·|f‴|) against the rounding error O(ε·|f|/h), giving about ε^(2/3) ≈ 4e-11 relative accuracy.
 */
export const CENTRAL_DIFFERENCE_STEP = Math.cbrt(Number.EPSILON);

/**
 * A Jacobian whose 1-norm condition estimate κ₁ reaches 1/ε ≈ 4.5e15 is treated as singular: a
 * Newton step solved with it has no correct digits. (Exactly singular pivots give κ₁ = ∞.)
 */
export const SINGULAR_JACOBIAN_CONDITION = 1 / Number.EPSILON;

/** Smallest step length λ the backtracking line search tries (halving from 1): 2⁻²⁰. */
export const MIN_LINE_SEARCH_STEP = 2 ** -20;

/** Sufficient-decrease constant c of the Armijo condition φ(x + λΔx) ≤ (1 − 2cλ)·φ(x). */
export const ARMIJO_CONSTANT = 1e-4;

/** Default absolute tolerance on ‖F(x)‖∞. */
export const NEWTON_DEFAULT_TOL = 1e-12;

/** Default relative step tolerance: 4ε, the size below which a step no longer changes x. */
export const NEWTON_DEFAULT_STEP_TOL = 4 * Number.EPSILON;

/**
 * Relative symmetry tolerance of {@link symmetricEigen}: a matrix is accepted as symmetric when
 * `max |a_ij − a_ji| ≤ SYMMETRY_RTOL · max |a_ij|`.
 */
export const SYMMETRY_RTOL = 1e-12;

// ---------------------------------------------------------------------------------------------
// Lie groups. Each group's Taylor branches and near-π branches use these named thresholds.

/**
 * Below this rotation angle θ (radians) the closed forms with sin θ/θ, (1 − cos θ)/θ², … are
 * replaced by their Taylor series in θ² (kept to the θ⁴ term, so the truncation error is O(θ⁶),
 * below 1e-24 relative), avoiding the cancellation of the closed forms near θ = 0.
 */
export const SMALL_ANGLE = 1e-4;
