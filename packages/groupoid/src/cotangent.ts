/**
 * The cotangent groupoid T*G ⇒ A*G of a Lie groupoid G ⇒ Q (spec 003 §3.4, §3.5, §9, §11.2).
 *
 * A point of T*G is an arrow g with a covector µ ∈ T*_gG, stored in the chart coordinates at g
 * (length dim; ⟨µ, v⟩ = µ·v for v in the same coordinates, types.ts). A point of A*G is an
 * {@link AStar} (base q, coefficients p in the dual basis e^i). The structure maps:
 *
 * - source/target, eq. (4): α̃(µ) = (α(g), p_i = ⟨µ, →e_i(g)⟩), β̃(µ) = (β(g), p_i = ⟨µ, ←e_i(g)⟩);
 * - multiplication m̃ (App. A.3): for β̃(µ1) = α̃(µ2), the covector at g1g2 with
 *   ⟨m̃(µ1, µ2), Tm(v1, v2)⟩ = ⟨µ1, v1⟩ + ⟨µ2, v2⟩ for all (v1, v2) ∈ T_{(g1,g2)}G₂ (A.3(ii));
 * - identity ε̃(ν) = π_q^*ν with π_q(v) = v − T(ε∘α)(v) (§3.4, Thm A.2);
 * - inverse ĩ(µ) = −(T_{g⁻¹} i)^*µ ∈ T*_{g⁻¹}G (§3.4).
 *
 * Closed forms exist for the pair groupoid (§3.5(a)), Lie groups (§3.5(b): left/right
 * trivializations, T*G ≅ G ⋉ 𝔤*) and, componentwise, products (§3.5(c)); every other groupoid
 * (and `method: 'generic'`) uses a linear-algebra fallback: tangent maps by fourth-order central
 * differences through the charts, then A.3(ii) solved in the least-squares sense.
 *
 * @module
 */
import {
  DenseQR,
  DimensionError,
  DomainError,
  type LieGroup,
  NotComposableError,
} from '@geomech/core';
import {
  type ArrowCurve,
  CURVE_VELOCITY_STEP,
  CurveVelocityWorkspace,
  curveVelocity,
} from './algebroid.js';
import { LieGroupGroupoid } from './lieGroupGroupoid.js';
import { PairGroupoid } from './pair.js';
import { ProductGroupoid } from './product.js';
import type { AStar, LieGroupoid } from './types.js';

/** A point of T*G: an arrow g and a covector µ ∈ T*_gG in chart coordinates at g (length dim). */
export interface CotangentPoint {
  readonly g: Float64Array;
  readonly mu: Float64Array;
}

/** `'closed-form'` (pair, Lie group, products; generic for other factors) or `'generic'`. */
export type CotangentMethod = 'closed-form' | 'generic';

/** Options of {@link CotangentGroupoid}. */
export interface CotangentGroupoidOptions {
  /** Which formulas to use. Default `'closed-form'`. */
  readonly method?: CotangentMethod;
  /**
   * Tolerance of the momentum part of the composability test β̃(µ1) = α̃(µ2) of m̃, on
   * |p1 − p2|∞ relative to max(1, |p1|∞). Default 1e-10.
   */
  readonly momentumTol?: number;
  /** Step of the central differences of the generic fallback. Default {@link CURVE_VELOCITY_STEP}. */
  readonly step?: number;
}

/** The structure maps of T*G on raw coefficient arrays (arrows and base points handled by G). */
interface CotangentKernel {
  /** p (length r) ← α̃(µ) coefficients. */
  source(p: Float64Array, g: Float64Array, mu: Float64Array): void;
  /** p (length r) ← β̃(µ) coefficients. */
  target(p: Float64Array, g: Float64Array, mu: Float64Array): void;
  /** mu (length dim) ← m̃(µ1, µ2) at g12 = g1g2 (inputs composable; mu aliases nothing). */
  multiply(
    mu: Float64Array,
    g1: Float64Array,
    mu1: Float64Array,
    g2: Float64Array,
    mu2: Float64Array,
    g12: Float64Array,
  ): void;
  /** mu (length dim) ← ε̃(q, ν) at ε(q) (mu aliases nothing). */
  identity(mu: Float64Array, q: Float64Array, nu: Float64Array): void;
  /** mu (length dim) ← ĩ(µ0) at g⁻¹ (mu aliases nothing). */
  inverse(mu: Float64Array, g: Float64Array, mu0: Float64Array): void;
}

/**
 * Pair groupoid Q×Q ⇒ Q (spec 003 §3.5(a)), µ = (p0, p1) at (q0, q1): α̃ = (q0, −p0),
 * β̃ = (q1, p1), m̃((a, b), (−b, c)) = (a, c), ε̃(q, p) = (−p, p), ĩ(a, b) = (−b, −a).
 */
class PairKernel implements CotangentKernel {
  constructor(private readonly n: number) {}
  source(p: Float64Array, _g: Float64Array, mu: Float64Array): void {
    for (let i = 0; i < this.n; i++) p[i] = -mu[i]!;
  }
  target(p: Float64Array, _g: Float64Array, mu: Float64Array): void {
    for (let i = 0; i < this.n; i++) p[i] = mu[this.n + i]!;
  }
  multiply(
    mu: Float64Array,
    _g1: Float64Array,
    mu1: Float64Array,
    _g2: Float64Array,
    mu2: Float64Array,
  ): void {
    const n = this.n;
    for (let i = 0; i < n; i++) {
      mu[i] = mu1[i]!;
      mu[n + i] = mu2[n + i]!;
    }
  }
  identity(mu: Float64Array, _q: Float64Array, nu: Float64Array): void {
    for (let i = 0; i < this.n; i++) {
      mu[i] = -nu[i]!;
      mu[this.n + i] = nu[i]!;
    }
  }
  inverse(mu: Float64Array, _g: Float64Array, mu0: Float64Array): void {
    const n = this.n;
    for (let i = 0; i < n; i++) {
      mu[i] = -mu0[n + i]!;
      mu[n + i] = -mu0[i]!;
    }
  }
}

/**
 * Lie group G ⇒ {e} (spec 003 §3.5(b)) in body chart coordinates (chart g·Exp(x)), where µ is the
 * left trivialization ℓ_g^*µ: β̃(µ) = µ, α̃(µ) = r_g^*µ = Ad_{g⁻¹}ᵀµ (so β̃ = Ad*_g α̃ with
 * Ad*_g = Ad_gᵀ), m̃(µ1, µ2) = µ2 (the body momentum of µ2), ε̃(ν) = ν, ĩ(µ) = Ad_{g⁻¹}ᵀµ at g⁻¹
 * (T_{g⁻¹}i maps body w to body −Ad_{g⁻¹}w at g).
 */
class LieGroupKernel implements CotangentKernel {
  private readonly sEl: Float64Array;
  private readonly sAdj: Float64Array;
  constructor(private readonly L: LieGroup) {
    this.sEl = new Float64Array(L.storageSize);
    this.sAdj = new Float64Array(L.dim * L.dim);
  }
  /** p ← Ad_{g⁻¹}ᵀ µ. */
  source(p: Float64Array, g: Float64Array, mu: Float64Array): void {
    const d = this.L.dim;
    const A = this.L.adj(this.sAdj, this.L.inverse(this.sEl, g));
    for (let j = 0; j < d; j++) {
      let s = 0;
      for (let i = 0; i < d; i++) s += A[i * d + j]! * mu[i]!;
      p[j] = s;
    }
  }
  target(p: Float64Array, _g: Float64Array, mu: Float64Array): void {
    for (let i = 0; i < this.L.dim; i++) p[i] = mu[i]!;
  }
  multiply(
    mu: Float64Array,
    _g1: Float64Array,
    _mu1: Float64Array,
    _g2: Float64Array,
    mu2: Float64Array,
  ): void {
    for (let i = 0; i < this.L.dim; i++) mu[i] = mu2[i]!;
  }
  identity(mu: Float64Array, _q: Float64Array, nu: Float64Array): void {
    for (let i = 0; i < this.L.dim; i++) mu[i] = nu[i]!;
  }
  inverse(mu: Float64Array, g: Float64Array, mu0: Float64Array): void {
    this.source(mu, g, mu0);
  }
}

/** Per-factor buffers of {@link ProductKernel}. */
class ProductSlots {
  readonly g1: Float64Array;
  readonly g2: Float64Array;
  readonly g12: Float64Array;
  readonly mu1: Float64Array;
  readonly mu2: Float64Array;
  readonly mu: Float64Array;
  readonly p: Float64Array;
  readonly q: Float64Array;
  constructor(G: LieGroupoid) {
    this.g1 = new Float64Array(G.arrowDim);
    this.g2 = new Float64Array(G.arrowDim);
    this.g12 = new Float64Array(G.arrowDim);
    this.mu1 = new Float64Array(G.dim);
    this.mu2 = new Float64Array(G.dim);
    this.mu = new Float64Array(G.dim);
    this.p = new Float64Array(G.rank);
    this.q = new Float64Array(G.baseDim);
  }
}

function copyIn(out: Float64Array, src: ArrayLike<number>, off: number, len: number): Float64Array {
  for (let i = 0; i < len; i++) out[i] = src[off + i]!;
  return out;
}

function copyOut(out: Float64Array, off: number, src: ArrayLike<number>, len: number): void {
  for (let i = 0; i < len; i++) out[off + i] = src[i]!;
}

/** Product G1 × G2 (spec 003 §3.5(c)): every map componentwise, A*G = A*G1 × A*G2. */
class ProductKernel implements CotangentKernel {
  private readonly a: ProductSlots;
  private readonly b: ProductSlots;
  constructor(
    private readonly P: ProductGroupoid,
    private readonly k1: CotangentKernel,
    private readonly k2: CotangentKernel,
  ) {
    this.a = new ProductSlots(P.first);
    this.b = new ProductSlots(P.second);
  }
  source(p: Float64Array, g: Float64Array, mu: Float64Array): void {
    this.trivialization(p, g, mu, 'source');
  }
  target(p: Float64Array, g: Float64Array, mu: Float64Array): void {
    this.trivialization(p, g, mu, 'target');
  }
  multiply(
    mu: Float64Array,
    g1: Float64Array,
    mu1: Float64Array,
    g2: Float64Array,
    mu2: Float64Array,
    g12: Float64Array,
  ): void {
    const { P, a, b } = this;
    const d1 = P.first.dim;
    const d2 = P.second.dim;
    P.split(g1, a.g1, b.g1);
    P.split(g2, a.g2, b.g2);
    P.split(g12, a.g12, b.g12);
    copyIn(a.mu1, mu1, 0, d1);
    copyIn(b.mu1, mu1, d1, d2);
    copyIn(a.mu2, mu2, 0, d1);
    copyIn(b.mu2, mu2, d1, d2);
    this.k1.multiply(a.mu, a.g1, a.mu1, a.g2, a.mu2, a.g12);
    this.k2.multiply(b.mu, b.g1, b.mu1, b.g2, b.mu2, b.g12);
    copyOut(mu, 0, a.mu, d1);
    copyOut(mu, d1, b.mu, d2);
  }
  identity(mu: Float64Array, q: Float64Array, nu: Float64Array): void {
    const { P, a, b } = this;
    const b1 = P.first.baseDim;
    const r1 = P.first.rank;
    copyIn(a.q, q, 0, b1);
    copyIn(b.q, q, b1, P.second.baseDim);
    copyIn(a.p, nu, 0, r1);
    copyIn(b.p, nu, r1, P.second.rank);
    this.k1.identity(a.mu, a.q, a.p);
    this.k2.identity(b.mu, b.q, b.p);
    copyOut(mu, 0, a.mu, P.first.dim);
    copyOut(mu, P.first.dim, b.mu, P.second.dim);
  }
  inverse(mu: Float64Array, g: Float64Array, mu0: Float64Array): void {
    const { P, a, b } = this;
    const d1 = P.first.dim;
    const d2 = P.second.dim;
    P.split(g, a.g1, b.g1);
    copyIn(a.mu1, mu0, 0, d1);
    copyIn(b.mu1, mu0, d1, d2);
    this.k1.inverse(a.mu, a.g1, a.mu1);
    this.k2.inverse(b.mu, b.g1, b.mu1);
    copyOut(mu, 0, a.mu, d1);
    copyOut(mu, d1, b.mu, d2);
  }
  private trivialization(
    p: Float64Array,
    g: Float64Array,
    mu: Float64Array,
    which: 'source' | 'target',
  ): void {
    const { P, a, b } = this;
    const d1 = P.first.dim;
    P.split(g, a.g1, b.g1);
    copyIn(a.mu1, mu, 0, d1);
    copyIn(b.mu1, mu, d1, P.second.dim);
    if (which === 'source') {
      this.k1.source(a.p, a.g1, a.mu1);
      this.k2.source(b.p, b.g1, b.mu1);
    } else {
      this.k1.target(a.p, a.g1, a.mu1);
      this.k2.target(b.p, b.g1, b.mu1);
    }
    copyOut(p, 0, a.p, P.first.rank);
    copyOut(p, P.first.rank, b.p, P.second.rank);
  }
}

/** Weights and nodes of the fourth-order central difference f′(0) ≈ Σ c·f(t·h)/h. */
const FD4: readonly (readonly [number, number])[] = [
  [8 / 12, 1],
  [-8 / 12, -1],
  [-1 / 12, 2],
  [1 / 12, -2],
];

/** Iterations of the chord-Newton projection onto α⁻¹(q′) in {@link GenericKernel}. */
const PROJECTION_MAX_ITERATIONS = 30;

/**
 * The linear-algebra fallback for any Lie groupoid (spec 003 §3.4, §9):
 *
 * - α̃, β̃ exactly from the invariant fields, eq. (4);
 * - m̃: T_{(g1,g2)}G₂ (dimension 2r + b) is spanned by (→e_i(g1), 0), (0, ←e_i(g2)) and the lifts
 *   (Tβ₁⁺u_k, Tα₂⁺u_k) of the base directions u_k (Tβ₁ = T_{g1}β, Tα₂ = T_{g2}α by central
 *   differences, ⁺ the minimum-norm right inverse). Tm of each basis vector is the velocity of
 *   s ↦ m(chart_{g1}(s v1), k2(s)), k2(s) = chart_{g2}(s v2) projected onto α⁻¹(β(k1(s))) by a
 *   chord Newton iteration with Tα₂⁺; the 2r + b equations ⟨m̃, Tm(v1,v2)⟩ = ⟨µ1,v1⟩ + ⟨µ2,v2⟩
 *   for the r + b unknowns are solved by least squares (consistent iff β̃(µ1) = α̃(µ2));
 * - ε̃(ν) = (I − E)ᵀy with E = T_{ε(q)}(ε∘α) by central differences and y the minimum-norm
 *   solution of Lᵀy = ν, L = [←e_1 … ←e_r](ε(q)) (so ⟨ε̃(ν), v⟩ = ⟨ν, L⁺(v − Ev)⟩);
 * - ĩ(µ) = −Jᵀµ with J = T_{g⁻¹}i by central differences.
 */
class GenericKernel implements CotangentKernel {
  private readonly n: number;
  private readonly r: number;
  private readonly b: number;
  private readonly e: Float64Array;
  private readonly field: Float64Array;
  private readonly Tb1: Float64Array;
  private readonly Ta2: Float64Array;
  private readonly qrTb1: DenseQR;
  private readonly qrTa2: DenseQR;
  private readonly qrRows: DenseQR;
  private readonly qrL: DenseQR;
  private readonly V: Float64Array;
  private readonly A: Float64Array;
  private readonly rhs: Float64Array;
  private readonly u: Float64Array;
  private readonly x1: Float64Array;
  private readonly x2: Float64Array;
  private readonly dx: Float64Array;
  private readonly k1: Float64Array;
  private readonly k2: Float64Array;
  private readonly qp: Float64Array;
  private readonly qm: Float64Array;
  private readonly q1: Float64Array;
  private readonly res: Float64Array;
  private readonly col: Float64Array;
  private readonly corr: Float64Array;
  private readonly arrow: Float64Array;
  private readonly arrow2: Float64Array;
  private readonly y: Float64Array;
  private readonly M: Float64Array;
  private readonly ws: CurveVelocityWorkspace;
  /** Current pair, basis vector and arrows of the curve closures. */
  private cg1: Float64Array;
  private cg2: Float64Array;
  private cv1: Float64Array;
  private cv2: Float64Array;
  /** Coordinate index and base arrow of the unit / inverse curve closures. */
  private cj = 0;
  private cAt: Float64Array;
  private readonly productCurve: ArrowCurve;
  /** s ↦ ε(α(chart(cAt, s e_cj))). */
  private readonly unitCurve: ArrowCurve;
  /** s ↦ i(chart(cAt, s e_cj)). */
  private readonly inverseCurve: ArrowCurve;

  constructor(
    private readonly G: LieGroupoid,
    private readonly step: number,
  ) {
    const n = G.dim;
    const r = G.rank;
    const b = G.baseDim;
    this.n = n;
    this.r = r;
    this.b = b;
    this.e = new Float64Array(Math.max(n, r, b));
    this.field = new Float64Array(n);
    this.Tb1 = new Float64Array(b * n);
    this.Ta2 = new Float64Array(b * n);
    this.qrTb1 = new DenseQR(b, n);
    this.qrTa2 = new DenseQR(b, n);
    this.qrRows = new DenseQR(2 * r + b, n);
    this.qrL = new DenseQR(r, n);
    this.V = new Float64Array((2 * r + b) * 2 * n);
    this.A = new Float64Array((2 * r + b) * n);
    this.rhs = new Float64Array(2 * r + b);
    this.u = new Float64Array(b);
    this.x1 = new Float64Array(n);
    this.x2 = new Float64Array(n);
    this.dx = new Float64Array(n);
    this.k1 = new Float64Array(G.arrowDim);
    this.k2 = new Float64Array(G.arrowDim);
    this.qp = new Float64Array(b);
    this.qm = new Float64Array(b);
    this.q1 = new Float64Array(b);
    this.res = new Float64Array(b);
    this.col = new Float64Array(n);
    this.corr = new Float64Array(n);
    this.arrow = new Float64Array(G.arrowDim);
    this.arrow2 = new Float64Array(G.arrowDim);
    this.y = new Float64Array(n);
    this.M = new Float64Array(n * n);
    this.ws = new CurveVelocityWorkspace(G);
    this.cg1 = this.k1;
    this.cg2 = this.k2;
    this.cv1 = this.x1;
    this.cv2 = this.x2;
    this.cAt = this.arrow2;
    this.productCurve = (out, s) => this.curveProduct(out, s);
    this.unitCurve = (out, s) => {
      this.e.fill(0);
      this.e[this.cj] = s;
      G.chart(this.arrow, this.cAt, this.e);
      return G.identityAt(out, G.source(this.qp, this.arrow));
    };
    this.inverseCurve = (out, s) => {
      this.e.fill(0);
      this.e[this.cj] = s;
      return G.inverse(out, G.chart(this.arrow, this.cAt, this.e));
    };
  }

  source(p: Float64Array, g: Float64Array, mu: Float64Array): void {
    this.pairWithFields(p, g, mu, 'right');
  }

  target(p: Float64Array, g: Float64Array, mu: Float64Array): void {
    this.pairWithFields(p, g, mu, 'left');
  }

  multiply(
    mu: Float64Array,
    g1: Float64Array,
    mu1: Float64Array,
    g2: Float64Array,
    mu2: Float64Array,
    g12: Float64Array,
  ): void {
    const { G, n, r, b, V, A, rhs, e } = this;
    const rows = 2 * r + b;
    const w = 2 * n;
    V.fill(0);
    // (→e_i(g1), 0) and (0, ←e_i(g2))
    e.fill(0);
    for (let i = 0; i < r; i++) {
      e[i] = 1;
      G.rightField(this.field, g1, e);
      copyOut(V, i * w, this.field, n);
      G.leftField(this.field, g2, e);
      copyOut(V, (r + i) * w + n, this.field, n);
      e[i] = 0;
    }
    if (b > 0) {
      this.baseJacobian(this.Tb1, g1, 'target');
      this.baseJacobian(this.Ta2, g2, 'source');
      this.qrTb1.factor(this.Tb1, b, n);
      this.qrTa2.factor(this.Ta2, b, n);
      for (let k = 0; k < b; k++) {
        this.u.fill(0);
        this.u[k] = 1;
        this.qrTb1.solveLeastSquares(this.u, this.col);
        copyOut(V, (2 * r + k) * w, this.col, n);
        this.qrTa2.solveLeastSquares(this.u, this.col);
        copyOut(V, (2 * r + k) * w + n, this.col, n);
      }
    }
    this.cg1 = g1;
    this.cg2 = g2;
    for (let row = 0; row < rows; row++) {
      copyIn(this.cv1, V, row * w, n);
      copyIn(this.cv2, V, row * w + n, n);
      curveVelocity(this.col, G, g12, this.productCurve, this.step, this.ws);
      copyOut(A, row * n, this.col, n);
      let s = 0;
      for (let i = 0; i < n; i++) s += mu1[i]! * this.cv1[i]! + mu2[i]! * this.cv2[i]!;
      rhs[row] = s;
    }
    this.qrRows.factor(A, rows, n).solveLeastSquares(rhs, mu);
  }

  identity(mu: Float64Array, q: Float64Array, nu: Float64Array): void {
    const { G, n, r, e, M, y } = this;
    const eq = G.identityAt(this.arrow2, q);
    // Lᵀ (r×n): row i = ←e_i(ε(q)); y = min-norm solution of Lᵀy = ν
    e.fill(0);
    for (let i = 0; i < r; i++) {
      e[i] = 1;
      G.leftField(this.field, eq, e);
      copyOut(this.A, i * n, this.field, n);
      e[i] = 0;
    }
    this.qrL.factor(this.A, r, n).solveLeastSquares(nu, y);
    // E = T_{ε(q)}(ε∘α), column j = velocity of s ↦ ε(α(chart(ε(q), s e_j)))
    for (let j = 0; j < n; j++) {
      this.cj = j;
      this.cAt = eq;
      curveVelocity(this.col, G, eq, this.unitCurve, this.step, this.ws);
      for (let i = 0; i < n; i++) M[i * n + j] = this.col[i]!;
    }
    e.fill(0);
    for (let j = 0; j < n; j++) {
      let s = y[j]!;
      for (let i = 0; i < n; i++) s -= M[i * n + j]! * y[i]!;
      mu[j] = s;
    }
  }

  inverse(mu: Float64Array, g: Float64Array, mu0: Float64Array): void {
    const { G, n, e, M } = this;
    const gi = G.inverse(this.arrow2, g);
    // J = T_{g⁻¹}i: column j = velocity at g of s ↦ i(chart(g⁻¹, s e_j))
    for (let j = 0; j < n; j++) {
      this.cj = j;
      this.cAt = gi;
      curveVelocity(this.col, G, g, this.inverseCurve, this.step, this.ws);
      for (let i = 0; i < n; i++) M[i * n + j] = this.col[i]!;
    }
    e.fill(0);
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += M[i * n + j]! * mu0[i]!;
      mu[j] = -s;
    }
  }

  private pairWithFields(
    p: Float64Array,
    g: Float64Array,
    mu: Float64Array,
    which: 'left' | 'right',
  ): void {
    const { G, e } = this;
    e.fill(0);
    for (let i = 0; i < this.r; i++) {
      e[i] = 1;
      if (which === 'left') G.leftField(this.field, g, e);
      else G.rightField(this.field, g, e);
      e[i] = 0;
      let s = 0;
      for (let j = 0; j < this.n; j++) s += mu[j]! * this.field[j]!;
      p[i] = s;
    }
  }

  /** J (b×n) ← T_g α or T_g β by fourth-order central differences through the chart at g. */
  private baseJacobian(J: Float64Array, g: Float64Array, which: 'source' | 'target'): void {
    const { G, n, b, e, step } = this;
    e.fill(0);
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < b; i++) J[i * n + j] = 0;
      for (const [c, t] of FD4) {
        e[j] = t * step;
        G.chart(this.arrow, g, e);
        if (which === 'source') G.source(this.qp, this.arrow);
        else G.target(this.qp, this.arrow);
        for (let i = 0; i < b; i++) J[i * n + j] = J[i * n + j]! + (c * this.qp[i]!) / step;
      }
      e[j] = 0;
    }
  }

  /** out ← m(chart_{g1}(s v1), k2(s)) with k2(s) on α⁻¹(β(k1(s))) near chart_{g2}(s v2). */
  private curveProduct(out: Float64Array, s: number): Float64Array {
    const { G, n, b } = this;
    const x = this.dx;
    for (let i = 0; i < n; i++) x[i] = s * this.cv1[i]!;
    G.chart(this.k1, this.cg1, x);
    for (let i = 0; i < n; i++) x[i] = s * this.cv2[i]!;
    G.chart(this.k2, this.cg2, x);
    if (b > 0) {
      const q1 = G.target(this.q1, this.k1);
      let scale = 1;
      for (let i = 0; i < b; i++) scale = Math.max(scale, Math.abs(q1[i]!));
      let prev = Number.POSITIVE_INFINITY;
      for (let it = 0; it < PROJECTION_MAX_ITERATIONS; it++) {
        G.source(this.qm, this.k2);
        let err = 0;
        for (let i = 0; i < b; i++) {
          this.res[i] = this.qm[i]! - q1[i]!;
          err = Math.max(err, Math.abs(this.res[i]!));
        }
        if (err <= 4 * Number.EPSILON * scale || !(err < prev)) break;
        prev = err;
        // x ← x − Tα₂⁺(α(chart(g2, x)) − β(k1))
        this.qrTa2.solveLeastSquares(this.res, this.corr);
        for (let i = 0; i < n; i++) x[i] = x[i]! - this.corr[i]!;
        G.chart(this.k2, this.cg2, x);
      }
    }
    return G.multiply(out, this.k1, this.k2);
  }
}

function kernelFor(G: LieGroupoid, method: CotangentMethod, step: number): CotangentKernel {
  if (method === 'closed-form') {
    if (G instanceof PairGroupoid) return new PairKernel(G.baseDim);
    if (G instanceof LieGroupGroupoid) return new LieGroupKernel(G.group);
    if (G instanceof ProductGroupoid)
      return new ProductKernel(
        G,
        kernelFor(G.first, method, step),
        kernelFor(G.second, method, step),
      );
  }
  return new GenericKernel(G, step);
}

/**
 * The cotangent groupoid T*G ⇒ A*G of a Lie groupoid G (spec 003 §3.4, §11.2): the symplectic
 * groupoid in which discrete Lagrangian dynamics happen. Closed forms for
 * {@link PairGroupoid} (§3.5(a)), {@link LieGroupGroupoid} (§3.5(b)) and products of these
 * (§3.5(c), componentwise); the generic fallback (tangent maps by central differences, A.3(ii) by
 * least squares; accuracy ≈ 1e-11) for other groupoids or with `method: 'generic'`.
 *
 * Covectors are in chart coordinates at their arrow (length dim), {@link AStar} coefficients in
 * the dual basis e^i (length rank). Methods with an `out` argument allocate nothing when it is
 * given (closed forms; the generic fallback too, its scratch is preallocated); the instance owns
 * scratch and is not re-entrant.
 *
 * @example
 * ```ts
 * const T = new CotangentGroupoid(new PairGroupoid(1));
 * const g1 = Float64Array.of(0, 1); // q0 = 0 → q1 = 1
 * const g2 = Float64Array.of(1, 3);
 * T.cotTarget(g1, Float64Array.of(2, 5)); // { base: [1], p: [5] }
 * T.cotSource(g2, Float64Array.of(-5, 7)); // { base: [1], p: [5] }: composable
 * T.cotMultiply(g1, Float64Array.of(2, 5), g2, Float64Array.of(-5, 7)); // { g: [0, 3], mu: [2, 7] }
 * ```
 */
export class CotangentGroupoid {
  /** The method in use (`'closed-form'` falls back to generic for unknown factors). */
  readonly method: CotangentMethod;
  /** Relative tolerance of the momentum part of the composability test. */
  readonly momentumTol: number;
  private readonly kernel: CotangentKernel;
  private readonly pA: Float64Array;
  private readonly pB: Float64Array;
  private readonly qA: Float64Array;
  private readonly gTmp: Float64Array;
  private readonly muTmp: Float64Array;

  constructor(
    /** The underlying Lie groupoid G ⇒ Q. */
    readonly groupoid: LieGroupoid,
    options: CotangentGroupoidOptions = {},
  ) {
    this.method = options.method ?? 'closed-form';
    if (this.method !== 'closed-form' && this.method !== 'generic')
      throw new DomainError(
        'CotangentGroupoid: method',
        this.method,
        "must be 'closed-form' or 'generic'",
      );
    this.momentumTol = options.momentumTol ?? 1e-10;
    if (!(this.momentumTol >= 0))
      throw new DomainError('CotangentGroupoid: momentumTol', this.momentumTol, 'must be >= 0');
    const step = options.step ?? CURVE_VELOCITY_STEP;
    if (!(step > 0 && Number.isFinite(step)))
      throw new DomainError('CotangentGroupoid: step', step, 'must be positive and finite');
    this.kernel = kernelFor(groupoid, this.method, step);
    this.pA = new Float64Array(groupoid.rank);
    this.pB = new Float64Array(groupoid.rank);
    this.qA = new Float64Array(groupoid.baseDim);
    this.gTmp = new Float64Array(groupoid.arrowDim);
    this.muTmp = new Float64Array(groupoid.dim);
  }

  /** A fresh {@link AStar} of the right sizes (zero). */
  newAStar(): AStar {
    return {
      base: new Float64Array(this.groupoid.baseDim),
      p: new Float64Array(this.groupoid.rank),
    };
  }

  /** A fresh {@link CotangentPoint} of the right sizes (zero). */
  newPoint(): CotangentPoint {
    return { g: new Float64Array(this.groupoid.arrowDim), mu: new Float64Array(this.groupoid.dim) };
  }

  /**
   * α̃(µ) = (α(g), p), p_i = ⟨µ, →e_i(g)⟩ (eq. (4)); pair: (q0, −p0); Lie group: Ad_{g⁻¹}ᵀµ
   * (the right trivialization r_g^*µ, "spatial").
   *
   * @example
   * ```ts
   * new CotangentGroupoid(new PairGroupoid(1)).cotSource(Float64Array.of(0, 1), Float64Array.of(2, 5));
   * // { base: [0], p: [-2] }
   * ```
   */
  cotSource(g: Float64Array, mu: Float64Array, out: AStar = this.newAStar()): AStar {
    this.checkCovector(mu);
    this.checkAStar(out);
    this.groupoid.source(out.base, g);
    this.kernel.source(this.pA, g, mu);
    out.p.set(this.pA);
    return out;
  }

  /**
   * β̃(µ) = (β(g), p), p_i = ⟨µ, ←e_i(g)⟩ (eq. (4)); pair: (q1, p1); Lie group: µ itself (the left
   * trivialization ℓ_g^*µ, "body"; β̃ = Ad*_g α̃ with Ad*_g = Ad_gᵀ).
   *
   * @example
   * ```ts
   * new CotangentGroupoid(new PairGroupoid(1)).cotTarget(Float64Array.of(0, 1), Float64Array.of(2, 5));
   * // { base: [1], p: [5] }
   * ```
   */
  cotTarget(g: Float64Array, mu: Float64Array, out: AStar = this.newAStar()): AStar {
    this.checkCovector(mu);
    this.checkAStar(out);
    this.groupoid.target(out.base, g);
    this.kernel.target(this.pA, g, mu);
    out.p.set(this.pA);
    return out;
  }

  /**
   * max(|β(g1) − α(g2)|, |β̃(µ1) − α̃(µ2)|∞): zero exactly when (µ1, µ2) is composable in T*G.
   *
   * @example
   * ```ts
   * const T = new CotangentGroupoid(new PairGroupoid(1));
   * T.cotGap(Float64Array.of(0, 1), Float64Array.of(2, 5), Float64Array.of(1, 3), Float64Array.of(-4, 7)); // 1
   * ```
   */
  cotGap(g1: Float64Array, mu1: Float64Array, g2: Float64Array, mu2: Float64Array): number {
    this.checkCovector(mu1);
    this.checkCovector(mu2);
    this.kernel.target(this.pA, g1, mu1);
    this.kernel.source(this.pB, g2, mu2);
    let gap = this.groupoid.gap(g1, g2);
    for (let i = 0; i < this.groupoid.rank; i++)
      gap = Math.max(gap, Math.abs(this.pA[i]! - this.pB[i]!));
    return gap;
  }

  /**
   * m̃(µ1, µ2) ∈ T*_{g1g2}G (App. A.3): the covector with ⟨m̃, Tm(v1, v2)⟩ = ⟨µ1, v1⟩ + ⟨µ2, v2⟩
   * on T_{(g1,g2)}G₂ (A.3(ii)); pair: (a, c) from (a, b), (−b, c) (concatenated outer momenta);
   * Lie group: µ2 in body coordinates (keeps the body momentum of µ2 = the spatial momentum of µ1).
   * `out` may alias the inputs.
   *
   * @throws NotComposableError when β(g1) ≠ α(g2) or β̃(µ1) ≠ α̃(µ2) (relative tolerance
   *   {@link momentumTol}); its `gap` is the larger defect.
   *
   * @example
   * ```ts
   * const T = new CotangentGroupoid(new PairGroupoid(1));
   * T.cotMultiply(Float64Array.of(0, 1), Float64Array.of(2, 5), Float64Array.of(1, 3), Float64Array.of(-5, 7));
   * // { g: [0, 3], mu: [2, 7] }
   * ```
   */
  cotMultiply(
    g1: Float64Array,
    mu1: Float64Array,
    g2: Float64Array,
    mu2: Float64Array,
    out: CotangentPoint = this.newPoint(),
  ): CotangentPoint {
    const G = this.groupoid;
    this.checkCovector(mu1);
    this.checkCovector(mu2);
    this.checkPoint(out);
    if (!G.isComposable(g1, g2)) throw new NotComposableError(G.gap(g1, g2));
    this.kernel.target(this.pA, g1, mu1);
    this.kernel.source(this.pB, g2, mu2);
    let gap = 0;
    let scale = 1;
    for (let i = 0; i < G.rank; i++) {
      gap = Math.max(gap, Math.abs(this.pA[i]! - this.pB[i]!));
      scale = Math.max(scale, Math.abs(this.pA[i]!));
    }
    if (gap > this.momentumTol * scale) throw new NotComposableError(gap);
    G.multiply(this.gTmp, g1, g2);
    this.kernel.multiply(this.muTmp, g1, mu1, g2, mu2, this.gTmp);
    out.g.set(this.gTmp);
    out.mu.set(this.muTmp);
    return out;
  }

  /**
   * ε̃(ν) = π_q^*ν ∈ T*_{ε(q)}G, π_q(v) = v − T(ε∘α)(v) (§3.4, Thm A.2); pair:
   * ε̃(q, p) = (q, q; −p, p); Lie group: ν (body coordinates at e).
   *
   * @example
   * ```ts
   * new CotangentGroupoid(new PairGroupoid(1)).cotIdentity({ base: Float64Array.of(2), p: Float64Array.of(3) });
   * // { g: [2, 2], mu: [-3, 3] }
   * ```
   */
  cotIdentity(nu: AStar, out: CotangentPoint = this.newPoint()): CotangentPoint {
    this.checkAStar(nu);
    this.checkPoint(out);
    this.qA.set(nu.base);
    this.pA.set(nu.p);
    this.groupoid.identityAt(this.gTmp, this.qA);
    this.kernel.identity(this.muTmp, this.qA, this.pA);
    out.g.set(this.gTmp);
    out.mu.set(this.muTmp);
    return out;
  }

  /**
   * ĩ(µ) = −(T_{g⁻¹}i)^*µ ∈ T*_{g⁻¹}G (§3.4); pair: (q1, q0; −b, −a) from (q0, q1; a, b); Lie
   * group: Ad_{g⁻¹}ᵀµ in body coordinates at g⁻¹. `out` may alias the inputs.
   *
   * @example
   * ```ts
   * new CotangentGroupoid(new PairGroupoid(1)).cotInverse(Float64Array.of(0, 1), Float64Array.of(2, 5));
   * // { g: [1, 0], mu: [-5, -2] }
   * ```
   */
  cotInverse(
    g: Float64Array,
    mu: Float64Array,
    out: CotangentPoint = this.newPoint(),
  ): CotangentPoint {
    this.checkCovector(mu);
    this.checkPoint(out);
    this.kernel.inverse(this.muTmp, g, mu);
    this.groupoid.inverse(this.gTmp, g);
    out.g.set(this.gTmp);
    out.mu.set(this.muTmp);
    return out;
  }

  private checkCovector(mu: Float64Array): void {
    if (mu.length !== this.groupoid.dim)
      throw new DimensionError(
        `CotangentGroupoid(${this.groupoid.name}): covector`,
        this.groupoid.dim,
        mu.length,
      );
  }

  private checkAStar(a: AStar): void {
    const G = this.groupoid;
    if (a.base.length !== G.baseDim)
      throw new DimensionError(
        `CotangentGroupoid(${G.name}): A* base point`,
        G.baseDim,
        a.base.length,
      );
    if (a.p.length !== G.rank)
      throw new DimensionError(`CotangentGroupoid(${G.name}): A* coefficients`, G.rank, a.p.length);
  }

  private checkPoint(x: CotangentPoint): void {
    const G = this.groupoid;
    if (x.g.length !== G.arrowDim)
      throw new DimensionError(`CotangentGroupoid(${G.name}): out arrow`, G.arrowDim, x.g.length);
    this.checkCovector(x.mu);
  }
}
