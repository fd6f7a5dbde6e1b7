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

// Stumpff functions c_k(θ²) (sym/stumpff.ts): the smooth θ² primitives of symbolic Lie-group formulas

/**
 * The Stumpff function c_k(t) = Σ (−t)^m/(2m + k)! is summed from its Maclaurin series for
 * |t| ≤ max(STUMPFF_SERIES_MIN, k(k − 1)) and from its closed forms beyond. Inside that radius the
 * terms decrease from the first (|t| < (k + 1)(k + 2)), so Horner's rule loses no digits; outside
 * it each step of the upward recurrence c_k = (1/(k − 2)! − c_{k−2})/t amplifies the error of
 * c_{k−2} by about k(k − 1)/|t| ≤ 1. The closed forms of c₀, c₁ (cos θ, sin θ/θ) and c₂ (half-angle
 * form 2 sin²(θ/2)/θ²) have no cancellation, so radius 1 serves only to avoid 0/0 at θ = 0.
 */
export const STUMPFF_SERIES_MIN = 1;

/**
 * For t < 0 every term of the Stumpff series is positive, so Horner's rule is accurate for any
 * |t|; it is used up to |t| = 400 (θ = 20, about 40 terms), where the closed forms (cosh θ,
 * sinh θ/θ, …) take over: there c_{k−2} ≥ cosh(20)/(k − 2)!·… ≫ 1/(k − 2)!, so the upward
 * recurrence c_k = (c_{k−2} − 1/(k − 2)!)/|t| cancels nothing.
 */
export const STUMPFF_SERIES_NEGATIVE = 400;

// SO(3) (so3.ts, so3quat.ts, so3Retractions.ts)

/**
 * SO(3) `log` switches to its near-π branch when π − θ < SO3_LOG_NEAR_PI (radians). There the
 * generic Log(R) = θ/sin θ · vee((R − Rᵀ)/2) loses digits (error ≈ πε/sin θ in the result: about
 * 2e-15 at π − 0.1, 3e-14 at π − 1e-3, ~1e-3 at π − 1e-12), so the axis comes from the symmetric
 * part (R + Rᵀ)/2 = cos θ·I + (1 − cos θ)·nnᵀ, whose error stays ≈ ε because 1 − cos θ ≈ 2, and
 * only its sign from the skew part. Any value in (0, π/2) is correct; at 0.1 both branches agree
 * to a few ε.
 */
export const SO3_LOG_NEAR_PI = 0.1;

// Validity and projection of group elements (every group's isValid, normalize and log)

/**
 * Default tolerance of `LieGroup.isValid`: an element passes when its defect in the group's own
 * measure (‖RᵀR − I‖ as the largest entry, |‖q‖ − 1|, the homogeneous last row, …) is at most
 * 1e-9. Elements built by the group operations stay within ≈ 1e-15 per operation, so 1e-9 allows
 * ~10⁶ compositions of rounding drift and still rejects anything that is not meant as an element.
 */
export const GROUP_VALIDITY_TOL = 1e-9;

/**
 * `log` of SO(3), SE(3), SE₂(3) and unit quaternions rejects its argument with a DomainError when
 * the cheap invariant it can test without extra work is off by more than this: sin²θ + cos²θ = 1
 * for the sine and cosine `log` reads from R (|vee((R − Rᵀ)/2)|² + ((tr R − 1)/2)² − 1, which is
 * ≈ (2 + cos θ)·δ for a rotation scaled by 1 + δ), or ‖q‖² = 1. 1e-6 is far above the drift of
 * any integration (≈ 1e-15 per step) and far below what a non-rotation gives (2I: 5.25,
 * diag(1, 1, −1): −1). The test is necessary, not sufficient: `isValid` is the full check.
 */
export const LOG_ELEMENT_TOL = 1e-6;

/**
 * SO(2) and SE(2) `log` return the angle of the rotation nearest to the 2×2 block M,
 * atan2((m₂₁ − m₁₂)/2, (m₁₁ + m₂₂)/2); it is undefined when both arguments vanish (every 2×2
 * reflection, the zero matrix). They throw a DomainError when c² + s² ≤ SO2_LOG_DEGENERATE·‖M‖²_F/2
 * (for a rotation c² + s² = ‖M‖²_F/2 = 1; for a reflection it is 0 up to rounding, ≈ ε²).
 */
export const SO2_LOG_DEGENERATE = 1e-12;

/**
 * `normalize` of rotation blocks (SO(3), SE(3), SE₂(3), SE(n)) iterates Newton–Schulz,
 * X ← X(3I − XᵀX)/2, when ‖XᵀX − I‖_F < ROTATION_NEWTON_SCHULZ_RADIUS and det X > 0. The defect
 * e = 1 − σ² of every singular value σ obeys e ← (3e² + e³)/4 (quadratic convergence to the polar
 * factor, the nearest rotation), so from e ≤ 0.5 six steps reach e < 1e-24 and a drift of 1e-12
 * needs one. Farther matrices go to the global method (SO(3): the quaternion eigenvector of
 * Bar-Itzhack's 4×4 matrix; SE(n): an SVD).
 */
export const ROTATION_NEWTON_SCHULZ_RADIUS = 0.5;

/** Most Newton–Schulz steps of a `normalize` (six suffice from the radius above). */
export const ROTATION_NEWTON_SCHULZ_MAX_STEPS = 10;

/**
 * Once ‖XᵀX − I‖_F ≤ ROTATION_NEWTON_SCHULZ_FINAL = √ε ≈ 1.5e-8, one more Newton–Schulz step
 * leaves a defect (3e² + e³)/4 < ε, below rounding, and the iteration stops after it (measured:
 * max |(RᵀR − I)_ij| ≤ 7.4e-16 over 2·10⁴ rotations perturbed by 1e-13 … 1e-1; Shoemake's random
 * rotations themselves reach 8.3e-16).
 */
export const ROTATION_NEWTON_SCHULZ_FINAL = Math.sqrt(Number.EPSILON);

/** Most cyclic Jacobi sweeps of the 4×4 symmetric eigenproblem in SO(3) `normalize` (≈ 5 needed). */
export const JACOBI_MAX_SWEEPS = 50;

/**
 * Roll-pitch-yaw extraction (`rpyFromRotation`): when |cos pitch| = ‖(r₂₁, r₂₂)‖ is at most
 * GIMBAL_LOCK_COS_PITCH (8ε: zero up to the rounding of a rotation matrix) roll is set to 0 and
 * yaw carries the whole rotation about the vertical; above it roll = atan2(r₂₁, r₂₂) and yaw is
 * solved from R·Rx(roll)ᵀ, which keeps the round trip accurate to a few ε at any pitch.
 */
export const GIMBAL_LOCK_COS_PITCH = 8 * Number.EPSILON;

// SE(3) (se3.ts)

/**
 * Below this rotation angle θ (radians) the SE(3) coefficients with a high-order cancellation,
 * C = (θ − sin θ)/θ³, c₂ = (θ² + 2cos θ − 2)/(2θ⁴) and c₃ = (2θ − 3 sin θ + θ cos θ)/(2θ⁵) of
 * V(θ) and Q(ρ, θ), are summed from their Maclaurin series in θ² (nine terms: truncation
 * < 1e-19 relative for θ < 1). The closed forms lose ≈ ε/θ⁴ relative in c₃, which Q multiplies by
 * θ³, so a plain SMALL_ANGLE switch would leave an error ≈ ε/θ in the Jacobians (≈ 1e-12 at
 * θ = 1e-4); at θ ≥ 1 the closed forms are accurate to a few ε.
 */
export const SE3_SERIES_ANGLE = 1;

// SE(2) (se2.ts)

/**
 * Below this |θ| (radians) the SE(2) Jacobian coefficients (θ − sin θ)/θ² and
 * ((θ/2)cot(θ/2) − 1)/θ are evaluated by their series to θ⁹ (truncation < 1e-20 at 0.1) instead of
 * the closed forms, which cancel: their absolute error is ≈ ε/θ (6e-13 at θ = 1e-4, 1e-15 at 0.1).
 * The other SE(2) coefficients (sin θ/θ, (1 − cos θ)/θ², (θ/2)cot(θ/2)) do not cancel and switch
 * at {@link SMALL_ANGLE}.
 */
export const SE2_SERIES_ANGLE = 0.1;

// Matrix functions (linalg/expm.ts: expm, logm, phi1m)

/**
 * Thresholds θ_m of the scaling and squaring matrix exponential for the Padé degrees
 * m = 3, 5, 7, 9, 13 (in this order): the [m/m] approximant is used unscaled when
 * η = max(‖A^p‖₁^{1/p}, ‖A^{p+1}‖₁^{1/(p+1)}) ≤ θ_m, which bounds its backward error by
 * u = 2⁻⁵³ (Higham 2005, Table 2.3; θ₁₃ = 4.25 as in Al-Mohy & Higham 2009, Algorithm 5.1, and
 * SciPy). Otherwise A is scaled by 2⁻ˢ with 2⁻ˢη ≤ θ₁₃.
 */
export const EXPM_PADE_THETA: readonly number[] = [
  1.495585217958292e-2, 2.53939833006323e-1, 9.504178996162932e-1, 2.097847961257068, 4.25,
];

/**
 * Thresholds θ_m, m = 1 … 16, of the [m/m] Padé approximant r_m of log(1 + x) used by `logm`:
 * the largest x with |r_m(−x) − log(1 − x)| ≤ u·|log(1 − x)| (u = 2⁻⁵³), computed with 60-digit
 * arithmetic (mpmath) and rounded down to 3 digits. By the Kenney–Laub bound
 * ‖r_m(X) − log(I + X)‖ ≤ |r_m(−‖X‖) − log(1 − ‖X‖)|, ‖X‖₁ ≤ θ_m keeps the truncation error
 * below u relative to |log(1 − ‖X‖)|. (Higham 2001, Table 2.1 lists the absolute-error version,
 * e.g. 1.10e-5 for m = 1; the two agree to 1% for m ≥ 12.)
 */
export const EXPM_LOGM_PADE_THETA: readonly number[] = [
  3.65e-8, 3.75e-4, 8.19e-3, 3.78e-2, 9.29e-2, 1.65e-1, 2.45e-1, 3.25e-1, 3.99e-1, 4.66e-1, 5.26e-1,
  5.78e-1, 6.23e-1, 6.62e-1, 6.97e-1, 7.26e-1,
];

/**
 * Most square roots `logm` takes before giving up with a DomainError. Each root halves the
 * logarithm, so 64 roots reduce ‖log A‖ by 2⁶⁴ ≈ 1.8e19; matrices whose eigenvalues span the
 * whole double range (|log λ| ≤ 745) need about 11.
 */
export const EXPM_LOGM_MAX_SQUARE_ROOTS = 64;

/**
 * The assumed iteration count of the first square root in `logm`'s stopping test
 * 2(j₁ − j₂)/3 < it (Higham 2008, Algorithm 11.10: it₀ = 5). One more root costs `it`
 * Denman–Beavers iterations of ≈ 4n³ flops, one Padé degree ≈ 8n³/3 flops (an LU and n solves),
 * so the root is taken only if it saves more than 3·it/2 degrees.
 */
export const EXPM_LOGM_SQRT_COST_GUESS = 5;

/**
 * Most iterations of one Denman–Beavers square root. With determinantal scaling the iteration
 * converges in ≲ 10 steps for matrices with eigenvalues off (−∞, 0]; reaching 100 means an
 * eigenvalue on or numerically at the negative real axis (the iteration then wanders).
 */
export const EXPM_SQRT_MAX_ITERATIONS = 100;

/**
 * The scaled Denman–Beavers iteration stops scaling (μ = 1) once ‖M_k − I‖₁ < 1e-2, where it
 * converges quadratically anyway and scaling would only add rounding (Higham 2008, §6.5).
 */
export const EXPM_SQRT_SCALING_OFF = 1e-2;

/**
 * Once ‖M_k − I‖₁ ≤ 2√ε ≈ 3e-8 one more unscaled Denman–Beavers step gives
 * ‖M_{k+1} − I‖₁ ≤ ‖M_k − I‖₁²/(4(1 − ‖M_k − I‖₁)) ≤ ε, and the iteration stops after it.
 */
export const EXPM_SQRT_FINAL_STEP = 2 * Math.sqrt(Number.EPSILON);

// SE(n) (lie/sen.ts)

/**
 * `SEnGroup.random` draws ω ∈ [−1, 1]^{n(n−1)/2} and scales it down to |ω| ≤ 3, which bounds
 * every rotation angle of R = exp(ω^) by ‖ω^‖₂ ≤ |ω| ≤ 3 < π: random elements stay on the
 * principal branch of Log, where log∘exp = id, with θ/sin θ ≤ 21 (the conditioning of Log).
 */
export const SEN_RANDOM_MAX_ANGLE = 3;

// ---------------------------------------------------------------------------------------------
// Singular value decomposition and eigenvalues (linalg/spectral.ts)

/**
 * Entries below SVD_FLUSH_RTOL·max|a_ij| are flushed to zero before an SVD (2⁻¹⁰⁴ ≈ 5e-32, i.e. ε²
 * relative: far below rounding). Kept from the JAMA SVD once used here (it lost orthonormality
 * of its singular vectors when subnormal entries met O(1) ones: ‖VᵀV − I‖ = 0.27 for a 5×6
 * matrix); for the one-sided Jacobi SVD it keeps the column norms' squares clear of underflow.
 */
export const SVD_FLUSH_RTOL = 2 ** -104;

/**
 * Most sweeps of the one-sided Jacobi SVD and of the cyclic Jacobi symmetric eigensolver
 * (`linalg/spectral.ts`). Both converge quadratically once the off-diagonal part is small
 * (Golub & Van Loan, 4th ed., §8.5.3, §8.6.3): 6–12 sweeps for n ≤ 100 (measured in the tests);
 * 60 is a guard against a hang, never reached on finite input.
 */
export const SPECTRAL_MAX_SWEEPS = 60;

/**
 * Most Francis double-shift QR iterations spent on one eigenvalue (or pair) by `eigenvalues`
 * (Numerical Recipes' `hqr`: exceptional shifts at 10 and 20, give up at 30).
 */
export const HQR_MAX_ITERATIONS = 30;

// ---------------------------------------------------------------------------------------------
// Optimal control: the stage-wise KKT factorization and the interior-point method (ocp/)

/**
 * A pivot of the symmetric indefinite LDLᵀ factorizations of the stage-wise KKT factorization
 * (`StageKktSystem`) counts as zero when |pivot| ≤ OCP_PIVOT_ZERO_RTOL·r, r the largest entry of
 * the pivot's row in its block. An exactly singular block gives pivots of a few ε·r·(Bunch–Kaufman
 * growth ≤ 2.57 per step) ≈ 1e-15·r; 1e-12 leaves three digits of margin. The test is per row
 * because interior-point blocks carry entries Σ = z/s ≈ 1/μ for active bounds next to O(1)
 * curvature, which a block-wide threshold would declare zero. A zero pivot makes the
 * interior-point method regularize (δ_c, then δ_w, as IPOPT).
 */
export const OCP_PIVOT_ZERO_RTOL = 1e-12;

/**
 * Curvature margin of the second-order verdict: the reduced Hessian at the solution counts as
 * positive definite (`minimum`) when the KKT matrix shifted by −ε on the primal diagonal still has
 * the inertia of a descent step, ε = OCP_SECOND_ORDER_MARGIN·(largest entry of the Lagrangian
 * Hessian and the constraint Jacobians, not of Σ); a curvature within ±ε is `singular`.
 * Measured on S4 (φ = 1, targets about e3, tol 1e-8 and 1e-10, by lowering the margin until the
 * verdict changes): the flat direction that the e3 symmetry leaves without the gauge has a
 * curvature between 1e-12 and 1e-11 relative at n = 200…4000 (round-off of the factorization,
 * not the KKT tolerance); the smallest genuine curvature with the gauge falls like 1/n² and lies
 * between 1e-8 and 1e-7 relative at n = 2000 and 4000. The former margin 1e-7 therefore called
 * the gauged minimum `singular` from n = 2000 on; 1e-9 separates the two by two orders of
 * magnitude on each side, and the genuine curvature reaches it only near n ≈ 10⁴·√10.
 */
export const OCP_SECOND_ORDER_MARGIN = 1e-9;

/**
 * When the unregularized KKT matrix at the solution is singular, the second-order verdict factors it
 * again with the dual regularization δ = OCP_SECOND_ORDER_DUAL_REG·(Hessian/Jacobian scale) on the
 * constraint rows: W + JᵀJ/δ then has the inertia of W on null(J) (Finsler's lemma) when the
 * penalty 1/δ dominates W off the null space, which 1e6 relative does for constraints whose
 * Jacobian is not itself nearly rank-deficient; and δ stays far above the curvature margin
 * {@link OCP_SECOND_ORDER_MARGIN}.
 */
export const OCP_SECOND_ORDER_DUAL_REG = 1e-6;

/**
 * A stage's equality constraints g_k are split by Householder QR with column pivoting of ∂g_k/∂u_k:
 * rows whose remaining control part has norm ≤ OCP_LOCAL_RANK_RTOL·max|∂g_k/∂(x_k, u_k)| are not
 * eliminated by the stage's controls but carried to earlier stages (exactly, with their small control
 * part kept). Carrying is always exact; eliminating a row through a tiny pivot would put gains of
 * 1/pivot into the cost-to-go, so only numerically rank-deficient rows (≈ ε relative) are carried.
 */
export const OCP_LOCAL_RANK_RTOL = 1e-10;

/**
 * Most equality constraint rows the stage-wise KKT factorization carries at one stage (constraints
 * that the later controls cannot eliminate: terminal and initial conditions, state-only path
 * equalities). Each carried row costs O(n_x) work per stage; boundary conditions carry at most
 * 2·n_x rows. State-only inequality rows (state bounds, inequalities on the state alone) that the
 * interior-point method would keep as rows are condensed into the Hessian instead when keeping
 * them would exceed this limit (and every kept inequality row is condensed when the factorization
 * still reports too many, e.g. both sides of narrow two-sided bounds kept at a centred start); a problem whose state-only equalities alone need more gets status
 * `stepComputationFailed` with a message naming this limit.
 */
export const OCP_MAX_CARRIED_CONSTRAINTS = 64;

/**
 * The dynamics Jacobian ∂c_k/∂x_{k+1} (which the stage-wise factorization inverts) is treated as
 * singular when its LU factorization with partial pivoting has a pivot |u_ii| ≤
 * OCP_DYNAMICS_SINGULAR_RTOL·max|entry|: a numerically singular matrix gives pivots of a few ε.
 */
export const OCP_DYNAMICS_SINGULAR_RTOL = 1e-14;

/**
 * The interior-point method keeps an inequality row h_i − s_i = 0 as a row of the KKT system (with
 * diagonal −s_i/z_i) when Σ_i = z_i/s_i > OCP_SLACK_CONDENSE_SIGMA, and condenses it into the
 * Hessian as J_h,iᵀΣ_iJ_h,i otherwise. Condensing a strongly active row adds entries of size
 * z/s ≈ 1/μ, and a direction that keeps several active rows satisfied then has its O(1) curvature
 * computed by cancelling them (an error of ε·z/s: ~1e-7 at μ = 1e-9, ~0.1 in a restoration phase
 * with z ≈ ρ = 1000); as a row it is an equality constraint with a tiny regularization. With the
 * problem scaled so that gradients are O(1) (IPOPT's gradient-based scaling), Σ = 1 separates the
 * two regimes: condensed rows add at most O(1) entries, kept rows carry diagonals of at most 1.
 */
export const OCP_SLACK_CONDENSE_SIGMA = 1;
