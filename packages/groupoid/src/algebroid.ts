/**
 * Lie groupoid morphisms and their induced Lie algebroid morphisms (spec 003 §6, Def 4.1), a
 * numerical checker of the morphism laws, the morphisms the library ships (projection of a
 * product onto a factor, Lie group homomorphisms such as conjugation g ↦ a g a⁻¹ and the
 * rotation part SE(n) → SO(n)), and {@link curveVelocity}, the chart finite difference the
 * checkers of this package share.
 *
 * @module
 */
import { DimensionError, DomainError, type LieGroup, type Rng, SO2, SO3 } from '@geomech/core';
import { LieGroupGroupoid } from './lieGroupGroupoid.js';
import type { ProductGroupoid } from './product.js';
import type { LieGroupoid } from './types.js';

/** Default step of {@link curveVelocity} (fourth-order central differences: error ≈ 1e-12). */
export const CURVE_VELOCITY_STEP = 1e-3;

/** Weights and nodes of the fourth-order central difference f′(0) ≈ Σ c·f(t·h)/h. */
const FD4: readonly (readonly [number, number])[] = [
  [8 / 12, 1],
  [-8 / 12, -1],
  [-1 / 12, 2],
  [1 / 12, -2],
];

/** A curve s ↦ c(s) of arrows: writes c(s) into `out` and returns it. */
export type ArrowCurve = (out: Float64Array, s: number) => Float64Array;

/**
 * Scratch of {@link curveVelocity} for one groupoid (no allocation per call).
 *
 * @example
 * ```ts
 * const G = new PairGroupoid(2);
 * const ws = new CurveVelocityWorkspace(G); // reuse across many curveVelocity(…, step, ws) calls
 * ```
 */
export class CurveVelocityWorkspace {
  readonly k: Float64Array;
  readonly xp1: Float64Array;
  readonly xm1: Float64Array;
  readonly xp2: Float64Array;
  readonly xm2: Float64Array;
  constructor(readonly groupoid: LieGroupoid) {
    this.k = new Float64Array(groupoid.arrowDim);
    this.xp1 = new Float64Array(groupoid.dim);
    this.xm1 = new Float64Array(groupoid.dim);
    this.xp2 = new Float64Array(groupoid.dim);
    this.xm2 = new Float64Array(groupoid.dim);
  }
}

/**
 * out (length dim) ← c′(0) in the chart coordinates at `at` (normally `at` = c(0)): the fourth-order
 * central difference [8(x(h) − x(−h)) − (x(2h) − x(−2h))]/(12h) of x(s) = chart_at⁻¹(c(s)). This
 * is how tangent maps (Tm, Ti, TΦ, …) of spec 003 §3.2, §6, §9 are evaluated on vectors.
 *
 * @example
 * ```ts
 * const G = new LieGroupGroupoid(SO3);
 * const g = G.random(new Float64Array(9), Math.random);
 * const v = Float64Array.of(0.1, 0, 0);
 * // the velocity of s ↦ g·Exp(s v) is ←v(g) = v (chart coordinates at g)
 * curveVelocity(new Float64Array(3), G, g, (out, s) => G.leftRetract(out, g, v.map((x) => s * x)));
 * ```
 */
export function curveVelocity(
  out: Float64Array,
  G: LieGroupoid,
  at: Float64Array,
  curve: ArrowCurve,
  step = CURVE_VELOCITY_STEP,
  ws: CurveVelocityWorkspace = new CurveVelocityWorkspace(G),
): Float64Array {
  if (!(step > 0 && Number.isFinite(step)))
    throw new DomainError('curveVelocity: step', step, 'must be positive and finite');
  const { k, xp1, xm1, xp2, xm2 } = ws;
  G.chartInverse(xp1, at, curve(k, step));
  G.chartInverse(xm1, at, curve(k, -step));
  G.chartInverse(xp2, at, curve(k, 2 * step));
  G.chartInverse(xm2, at, curve(k, -2 * step));
  for (let i = 0; i < G.dim; i++)
    out[i] = (8 * (xp1[i]! - xm1[i]!) - (xp2[i]! - xm2[i]!)) / (12 * step);
  return out;
}

/**
 * A Lie groupoid morphism Φ: G ⇒ Q → G′ ⇒ Q′ (spec 003 Def 4.1) with its base map Φ₀ and its
 * induced Lie algebroid morphism AΦ: AG → AG′, characterized by
 * ←(AΦ v)(Φ(g)) = TΦ(←v(g)) and →(AΦ w)(Φ(g)) = TΦ(→w(g)).
 */
export interface GroupoidMorphism {
  /** Human-readable name. */
  readonly name: string;
  /** The domain G. */
  readonly from: LieGroupoid;
  /** The codomain G′. */
  readonly to: LieGroupoid;
  /** out (length to.arrowDim) ← Φ(g). */
  map(out: Float64Array, g: Float64Array): Float64Array;
  /** out (length to.baseDim) ← Φ₀(q). */
  baseMap(out: Float64Array, q: Float64Array): Float64Array;
  /** out (length to.rank) ← AΦ(v) ∈ A′_{Φ₀(q)} for v ∈ A_q (coefficients in the bases e_i, e′_j). */
  algebroidMap(out: Float64Array, q: Float64Array, v: Float64Array): Float64Array;
}

/** The largest defect of each law of Def 4.1 over the samples of {@link morphismDefect}. */
export interface MorphismDefect {
  /** max gap′(Φg, Φh) over composable (g, h): (Φg, Φh) ∈ G′₂. */
  readonly composable: number;
  /** max |Φ(gh) − Φ(g)Φ(h)|∞ / max(1, |Φ(gh)|∞). */
  readonly multiplicative: number;
  /** max |α′(Φg) − Φ₀(α g)|∞ / max(1, |·|∞). */
  readonly source: number;
  /** max |β′(Φg) − Φ₀(β g)|∞ / max(1, |·|∞). */
  readonly target: number;
  /** max |Φ(ε(q)) − ε′(Φ₀ q)|∞ / max(1, |·|∞). */
  readonly identity: number;
  /** max |Φ(g⁻¹) − (Φ g)⁻¹|∞ / max(1, |·|∞) (the corrected Φ∘i = i′∘Φ, spec 003 §6 FLAG). */
  readonly inverse: number;
  /** max |TΦ(←v(g)) − ←(AΦ v)(Φg)|∞ / max(1, |·|∞), TΦ by chart finite differences. */
  readonly leftAlgebroid: number;
  /** max |TΦ(→w(g)) − →(AΦ w)(Φg)|∞ / max(1, |·|∞), TΦ by chart finite differences. */
  readonly rightAlgebroid: number;
  /** max |ρ′(AΦ v) − TΦ₀(ρ(v))|∞ / max(1, |·|∞), TΦ₀ by central differences. */
  readonly anchor: number;
}

/** Options of {@link morphismDefect}. */
export interface MorphismDefectOptions {
  /** Step of the finite differences. Default {@link CURVE_VELOCITY_STEP}. */
  readonly step?: number;
  /** Largest |v_i| of the random algebroid vectors. Default 1. */
  readonly scale?: number;
}

function relDiff(a: ArrayLike<number>, b: ArrayLike<number>, n: number): number {
  let d = 0;
  let s = 1;
  for (let i = 0; i < n; i++) {
    d = Math.max(d, Math.abs(a[i]! - b[i]!));
    s = Math.max(s, Math.abs(a[i]!), Math.abs(b[i]!));
  }
  return d / s;
}

/**
 * Measures the laws of a Lie groupoid morphism (spec 003 Def 4.1, with the corrected
 * Φ∘i = i′∘Φ) on `samples` random composable pairs (g, h) drawn with `rng`:
 * (Φg, Φh) ∈ G′₂, Φ(gh) = Φ(g)Φ(h), α′∘Φ = Φ₀∘α, β′∘Φ = Φ₀∘β, Φ∘ε = ε′∘Φ₀, Φ∘i = i′∘Φ, and
 * the induced algebroid morphism TΦ(←v(g)) = ←(AΦ v)(Φ g), TΦ(→w(g)) = →(AΦ w)(Φ g) (with
 * v ∈ A_{β(g)}, w ∈ A_{α(g)}) and ρ′∘AΦ = TΦ₀∘ρ, the tangent maps by fourth-order central
 * differences along the retractions (error ≈ 1e-11). Returns the largest relative defect of each
 * law. Cold path (allocates).
 *
 * @throws DomainError when `samples` is not a positive integer.
 *
 * @example
 * ```ts
 * const G = new LieGroupGroupoid(SO3);
 * const a = G.random(new Float64Array(9), Math.random);
 * const d = morphismDefect(conjugationMorphism(G, a), Math.random, 10);
 * d.multiplicative; // ~1e-16 (round-off)
 * d.leftAlgebroid; // ~1e-12 (finite differences)
 * ```
 */
export function morphismDefect(
  Phi: GroupoidMorphism,
  rng: Rng,
  samples: number,
  options: MorphismDefectOptions = {},
): MorphismDefect {
  if (!Number.isInteger(samples) || samples < 1)
    throw new DomainError('morphismDefect: samples', samples, 'must be a positive integer');
  const step = options.step ?? CURVE_VELOCITY_STEP;
  const scale = options.scale ?? 1;
  const G = Phi.from;
  const H = Phi.to;
  const g = new Float64Array(G.arrowDim);
  const h = new Float64Array(G.arrowDim);
  const gh = new Float64Array(G.arrowDim);
  const gInv = new Float64Array(G.arrowDim);
  const eq = new Float64Array(G.arrowDim);
  const k = new Float64Array(G.arrowDim);
  const Pg = new Float64Array(H.arrowDim);
  const Ph = new Float64Array(H.arrowDim);
  const Pgh = new Float64Array(H.arrowDim);
  const PgPh = new Float64Array(H.arrowDim);
  const a1 = new Float64Array(H.arrowDim);
  const a2 = new Float64Array(H.arrowDim);
  const q = new Float64Array(G.baseDim);
  const qa = new Float64Array(G.baseDim);
  const qb = new Float64Array(G.baseDim);
  const P0 = new Float64Array(H.baseDim);
  const P0b = new Float64Array(H.baseDim);
  const Hq = new Float64Array(H.baseDim);
  const v = new Float64Array(G.rank);
  const sv = new Float64Array(G.rank);
  const Av = new Float64Array(H.rank);
  const rho = new Float64Array(G.baseDim);
  const rhoH = new Float64Array(H.baseDim);
  const fdBase = new Float64Array(H.baseDim);
  const qs = new Float64Array(G.baseDim);
  const bp = new Float64Array(H.baseDim);
  const TPhi = new Float64Array(H.dim);
  const field = new Float64Array(H.dim);
  const ws = new CurveVelocityWorkspace(H);

  let composable = 0;
  let multiplicative = 0;
  let source = 0;
  let target = 0;
  let identity = 0;
  let inverse = 0;
  let leftAlgebroid = 0;
  let rightAlgebroid = 0;
  let anchor = 0;

  for (let n = 0; n < samples; n++) {
    G.random(g, rng);
    G.randomAfter(h, g, rng);
    G.multiply(gh, g, h);
    Phi.map(Pg, g);
    Phi.map(Ph, h);
    Phi.map(Pgh, gh);
    composable = Math.max(composable, H.gap(Pg, Ph));
    H.multiply(PgPh, Pg, Ph);
    multiplicative = Math.max(multiplicative, relDiff(Pgh, PgPh, H.arrowDim));

    // α′∘Φ = Φ₀∘α, β′∘Φ = Φ₀∘β
    H.source(Hq, Pg);
    Phi.baseMap(P0, G.source(qa, g));
    source = Math.max(source, relDiff(Hq, P0, H.baseDim));
    H.target(Hq, Pg);
    Phi.baseMap(P0b, G.target(qb, g));
    target = Math.max(target, relDiff(Hq, P0b, H.baseDim));

    // Φ∘ε = ε′∘Φ₀ at q = α(g); Φ∘i = i′∘Φ
    Phi.map(a1, G.identityAt(eq, qa));
    H.identityAt(a2, P0);
    identity = Math.max(identity, relDiff(a1, a2, H.arrowDim));
    Phi.map(a1, G.inverse(gInv, g));
    H.inverse(a2, Pg);
    inverse = Math.max(inverse, relDiff(a1, a2, H.arrowDim));

    for (let i = 0; i < G.rank; i++) v[i] = scale * (2 * rng() - 1);
    // TΦ(←v(g)) = ←(AΦ v)(Φ g), v ∈ A_{β(g)}
    curveVelocity(
      TPhi,
      H,
      Pg,
      (out, s) => {
        for (let i = 0; i < G.rank; i++) sv[i] = s * v[i]!;
        return Phi.map(out, G.leftRetract(k, g, sv));
      },
      step,
      ws,
    );
    H.leftField(field, Pg, Phi.algebroidMap(Av, qb, v));
    leftAlgebroid = Math.max(leftAlgebroid, relDiff(TPhi, field, H.dim));
    // TΦ(→v(g)) = →(AΦ v)(Φ g), v ∈ A_{α(g)}
    curveVelocity(
      TPhi,
      H,
      Pg,
      (out, s) => {
        for (let i = 0; i < G.rank; i++) sv[i] = s * v[i]!;
        return Phi.map(out, G.rightRetract(k, g, sv));
      },
      step,
      ws,
    );
    H.rightField(field, Pg, Phi.algebroidMap(Av, qa, v));
    rightAlgebroid = Math.max(rightAlgebroid, relDiff(TPhi, field, H.dim));

    // ρ′(AΦ v) = TΦ₀(ρ(v)) at q = β(g), fourth-order central difference of Φ₀ along ρ(v)
    if (G.baseDim > 0 || H.baseDim > 0) {
      for (let i = 0; i < G.baseDim; i++) q[i] = qb[i]!;
      G.anchor(rho, q, v);
      fdBase.fill(0);
      for (const [c, t] of FD4) {
        for (let i = 0; i < G.baseDim; i++) qs[i] = q[i]! + t * step * rho[i]!;
        Phi.baseMap(bp, qs);
        for (let i = 0; i < H.baseDim; i++) fdBase[i] = fdBase[i]! + (c * bp[i]!) / step;
      }
      Phi.baseMap(P0b, q);
      H.anchor(rhoH, P0b, Phi.algebroidMap(Av, q, v));
      anchor = Math.max(anchor, relDiff(fdBase, rhoH, H.baseDim));
    }
  }
  return {
    composable,
    multiplicative,
    source,
    target,
    identity,
    inverse,
    leftAlgebroid,
    rightAlgebroid,
    anchor,
  };
}

/**
 * The projection of a product groupoid onto one factor, pr_k: G1 × G2 → G_k (spec 003 §3.5(c)):
 * a Lie groupoid morphism with Φ₀ = pr_k on Q1 × Q2 and AΦ = pr_k on A1 × A2.
 *
 * @example
 * ```ts
 * const P = plateBallGroupoid();
 * const pr = productProjection(P, 'second'); // (x0, y0, x1, y1, R) ↦ R
 * const g = P.identityAt(new Float64Array(P.arrowDim), Float64Array.of(1, 2)); // the unit at (1, 2)
 * pr.map(new Float64Array(9), g); // [1, 0, 0, 0, 1, 0, 0, 0, 1]
 * ```
 */
export function productProjection(
  P: ProductGroupoid,
  factor: 'first' | 'second',
): GroupoidMorphism {
  const first = factor === 'first';
  const to = first ? P.first : P.second;
  const arrowOff = first ? 0 : P.first.arrowDim;
  const baseOff = first ? 0 : P.first.baseDim;
  const rankOff = first ? 0 : P.first.rank;
  return {
    name: `pr_${factor}: ${P.name} -> ${to.name}`,
    from: P,
    to,
    map(out, g) {
      if (g.length !== P.arrowDim)
        throw new DimensionError(`${this.name}: arrow`, P.arrowDim, g.length);
      for (let i = 0; i < to.arrowDim; i++) out[i] = g[arrowOff + i]!;
      return out;
    },
    baseMap(out, q) {
      for (let i = 0; i < to.baseDim; i++) out[i] = q[baseOff + i]!;
      return out;
    },
    algebroidMap(out, _q, v) {
      for (let i = 0; i < to.rank; i++) out[i] = v[rankOff + i]!;
      return out;
    },
  };
}

/**
 * A Lie group homomorphism φ: G → H as a Lie groupoid morphism between the groupoids over a
 * point (spec 003 §3.5(b), Def 4.1): Φ = φ, Φ₀ = id of the point, AΦ = the Lie algebra
 * homomorphism Tₑφ. The caller supplies both maps; {@link morphismDefect} checks that they fit.
 *
 * @example
 * ```ts
 * // the inclusion SO(2) → SO(3) as rotations about e₃, with Lie algebra map θ ↦ (0, 0, θ)
 * const incl = new LieGroupHomomorphism(
 *   'incl',
 *   new LieGroupGroupoid(SO2),
 *   new LieGroupGroupoid(SO3),
 *   (o, R) => { o.set([R[0]!, R[1]!, 0, R[2]!, R[3]!, 0, 0, 0, 1]); return o; },
 *   (o, v) => { o.set([0, 0, v[0]!]); return o; },
 * );
 * morphismDefect(incl, Math.random, 10).multiplicative; // 0
 * ```
 */
export class LieGroupHomomorphism implements GroupoidMorphism {
  constructor(
    readonly name: string,
    readonly from: LieGroupGroupoid,
    readonly to: LieGroupGroupoid,
    /** out ← φ(g). */
    private readonly phi: (out: Float64Array, g: Float64Array) => Float64Array,
    /** out ← Tₑφ(v), the Lie algebra homomorphism (𝔤 → 𝔥 in the coordinates of R^dim). */
    private readonly dphi: (out: Float64Array, v: Float64Array) => Float64Array,
  ) {}

  /** out ← φ(g). */
  map(out: Float64Array, g: Float64Array): Float64Array {
    if (g.length !== this.from.arrowDim)
      throw new DimensionError(`${this.name}: arrow`, this.from.arrowDim, g.length);
    return this.phi(out, g);
  }

  /** The base is a point: writes nothing. */
  baseMap(out: Float64Array, _q: Float64Array): Float64Array {
    return out;
  }

  /** out ← Tₑφ(v). */
  algebroidMap(out: Float64Array, _q: Float64Array, v: Float64Array): Float64Array {
    return this.dphi(out, v);
  }
}

/**
 * Conjugation by a, Φ(g) = a g a⁻¹, as a Lie groupoid automorphism of a Lie group (spec 003
 * §3.5(b), Def 4.1), with AΦ = Ad_a: Φ(g·Exp(sv)) = Φ(g)·Exp(s Ad_a v).
 *
 * @example
 * ```ts
 * const G = new LieGroupGroupoid(SE3);
 * const a = G.random(new Float64Array(16), Math.random);
 * const C = conjugationMorphism(G, a);
 * const g = G.random(new Float64Array(16), Math.random);
 * C.map(new Float64Array(16), g); // a g a⁻¹
 * ```
 */
export function conjugationMorphism(G: LieGroupGroupoid, a: Float64Array): LieGroupHomomorphism {
  const L = G.group;
  if (a.length !== L.storageSize)
    throw new DimensionError('conjugationMorphism: a', L.storageSize, a.length);
  const aCopy = Float64Array.from(a);
  const aInv = L.inverse(new Float64Array(L.storageSize), aCopy);
  const Ad = L.adj(new Float64Array(L.dim * L.dim), aCopy);
  const tmp = new Float64Array(L.storageSize);
  const w = new Float64Array(L.dim);
  const d = L.dim;
  return new LieGroupHomomorphism(
    `conj_a: ${G.name} -> ${G.name}`,
    G,
    G,
    (out, g) => L.compose(out, L.compose(tmp, aCopy, g), aInv),
    (out, v) => {
      for (let i = 0; i < d; i++) w[i] = v[i]!;
      for (let i = 0; i < d; i++) {
        let s = 0;
        for (let j = 0; j < d; j++) s += Ad[i * d + j]! * w[j]!;
        out[i] = s;
      }
      return out;
    },
  );
}

/**
 * The rotation part [[R, t], [0, 1]] ↦ R, a Lie group homomorphism SE(2) → SO(2) or
 * SE(3) → SO(3) (spec 003 §3.5(b), Def 4.1) with Lie algebra map [v, ω] ↦ ω (core
 * `CONVENTIONS.md`: translation part first).
 *
 * @throws DomainError when the group of G is not SE(2) or SE(3).
 *
 * @example
 * ```ts
 * const rot = rotationPartMorphism(new LieGroupGroupoid(SE3)); // SE3 -> SO3
 * const X = SE3.exp(new Float64Array(16), Float64Array.of(1, 2, 3, 0, 0, Math.PI / 2)); // [v, ω]
 * rot.map(new Float64Array(9), X); // ≈ [0, -1, 0, 1, 0, 0, 0, 0, 1]: the rotation block of X
 * ```
 */
export function rotationPartMorphism(G: LieGroupGroupoid): LieGroupHomomorphism {
  const L = G.group;
  let rot: LieGroup;
  if (L.name === 'SE(2)' && L.dim === 3 && L.matrixSize === 3) rot = SO2;
  else if (L.name === 'SE(3)' && L.dim === 6 && L.matrixSize === 4) rot = SO3;
  else throw new DomainError('rotationPartMorphism: group', L.name, 'must be SE(2) or SE(3)');
  const n = rot.matrixSize;
  const N = L.matrixSize;
  const to = new LieGroupGroupoid(rot);
  return new LieGroupHomomorphism(
    `rot: ${G.name} -> ${to.name}`,
    G,
    to,
    (out, X) => {
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) out[i * n + j] = X[i * N + j]!;
      return out;
    },
    (out, v) => {
      for (let i = 0; i < rot.dim; i++) out[i] = v[n + i]!;
      return out;
    },
  );
}
