/**
 * The factors of an optimal-control state space (SO(2), SO(3), SE(2), SE(3), Rⁿ) as group
 * operations written once against core's `LieScalarOps<T>`, so that they run on numbers, on dual
 * numbers and on symbolic graphs (`SymGraph.ops`), where the problem layer traces and
 * differentiates them.
 *
 * Storage and tangent conventions are core's (`packages/core/CONVENTIONS.md`): matrix groups as
 * row-major N×N matrices (SE(n) homogeneous), Rⁿ as the vector, se(n) tangents τ = [v, ω], the
 * hat maps of the conventions. Every operation is branch-free (no test on a value), which is what
 * symbolic tracing needs:
 *
 * - `cay(v)`, the Cayley map (spec 003 §8.1): SO(3) cay(x) = I + 4/(4 + |x|²)(x̂ + x̂²/2); SO(2)
 *   the rotation with cos = (4 − θ²)/(4 + θ²), sin = 4θ/(4 + θ²); SE(n) [[cay(ω), A⁻¹v], [0, 1]]
 *   with A⁻¹ = (I − ω̂/2)⁻¹ = (cay(ω) + I)/2; Rⁿ the vector itself;
 * - `exp(v)` through the Stumpff functions c_k(θ²) of `LieScalarOps.stumpff` (Rodrigues
 *   I + c₁ω̂ + c₂ω̂², SE(3) translation V v with V = I + c₂ω̂ + c₃ω̂², SE(2) V = [[c₁, −θc₂],
 *   [θc₂, c₁]]), with no branch at θ = 0;
 * - `cayInv(D)`, the Cayley coordinates of an element: SO(3) 2·vee(D − Dᵀ)/(1 + tr D), SO(2)
 *   2 sin φ/(1 + cos φ) from the skew and symmetric parts, SE(n) ω = cay⁻¹(R), v = (I − ω̂/2)t,
 *   Rⁿ the vector. It is zero only at the identity, smooth, and defined for rotation angles
 *   below π; {@link OcpFactor.cayInvMargin} is the quantity (1 + tr R for SO(3), 1 + cos φ for
 *   SO(2)) that vanishes at the edge of its domain.
 *
 * The problem layer uses `cayInv(a⁻¹b)` as the chart in which dynamics defects and boundary
 * conditions are written (zero exactly when a = b), and the Cayley map as the retraction
 * x ⊕ δ = x·cay(δ) of the solver's manifold steps. Its second-order Taylor polynomial
 * I + δ̂ + δ̂²/2 (the same for cay and exp) is what the derivatives are traced with.
 *
 * @module
 */
import {
  DomainError,
  type LieGroup,
  type LieScalarOps,
  ProductGroup,
  RnGroup,
  SE2,
  SE3,
  SO2,
  SO3,
} from '@geomech/core';

/** A retraction τ: 𝔤 → G of the discrete kinematics g_{k+1} = g_k·τ(h ξ_k) (spec 003 §8.1). */
export type OcpMap = 'cayley' | 'exp';

/** The kinds of factor the problem layer supports. */
export type OcpFactorKind = 'Rn' | 'SO2' | 'SO3' | 'SE2' | 'SE3';

/**
 * One factor of a state space: a core group with branch-free generic operations on its storage
 * (arrays of T; see the module comment for the formulas).
 */
export interface OcpFactor {
  readonly kind: OcpFactorKind;
  /** The core group. */
  readonly group: LieGroup;
  /** Tangent dimension. */
  readonly dim: number;
  /** Storage length. */
  readonly storage: number;
  /** a·b. */
  compose<T>(o: LieScalarOps<T>, a: readonly T[], b: readonly T[]): T[];
  /** a⁻¹. */
  inverse<T>(o: LieScalarOps<T>, a: readonly T[]): T[];
  /** The identity element. */
  identity<T>(o: LieScalarOps<T>): T[];
  /** τ(v) for τ = cay or exp. */
  tau<T>(o: LieScalarOps<T>, v: readonly T[], map: OcpMap): T[];
  /** I + v̂ + v̂²/2: the second-order Taylor polynomial of cay(v) and of exp(v) at v = 0. */
  taylor<T>(o: LieScalarOps<T>, v: readonly T[]): T[];
  /** Cayley coordinates cay⁻¹(D) (the vector D for Rⁿ). */
  cayInv<T>(o: LieScalarOps<T>, D: readonly T[]): T[];
  /** The quantity that must stay positive for {@link cayInv} (undefined for Rⁿ: no limit). */
  cayInvMargin<T>(o: LieScalarOps<T>, D: readonly T[]): T | undefined;
}

// ---------------------------------------------------------------------------------------------
// small generic matrices (row-major arrays of T)

function matMul<T>(o: LieScalarOps<T>, a: readonly T[], b: readonly T[], n: number): T[] {
  const c: T[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let s = o.mul(a[i * n]!, b[j]!);
      for (let l = 1; l < n; l++) s = o.add(s, o.mul(a[i * n + l]!, b[l * n + j]!));
      c.push(s);
    }
  }
  return c;
}

function identityMatrix<T>(o: LieScalarOps<T>, n: number): T[] {
  const c: T[] = [];
  for (let i = 0; i < n * n; i++) c.push(o.const(i % (n + 1) === 0 ? 1 : 0));
  return c;
}

/** I + X + X²/2 for an n×n matrix X. */
function taylorOf<T>(o: LieScalarOps<T>, X: readonly T[], n: number): T[] {
  const X2 = matMul(o, X, X, n);
  const out: T[] = [];
  for (let i = 0; i < n * n; i++) {
    const e = o.add(X[i]!, o.scale(X2[i]!, 0.5));
    out.push(i % (n + 1) === 0 ? o.add(o.const(1), e) : e);
  }
  return out;
}

function dot3<T>(o: LieScalarOps<T>, a: readonly T[], b: readonly T[]): T {
  return o.add(o.add(o.mul(a[0]!, b[0]!), o.mul(a[1]!, b[1]!)), o.mul(a[2]!, b[2]!));
}

/** hat of so(3): [[0, −x3, x2], [x3, 0, −x1], [−x2, x1, 0]]. */
function hat3<T>(o: LieScalarOps<T>, x: readonly T[]): T[] {
  const z = o.const(0);
  return [z, o.neg(x[2]!), x[1]!, x[2]!, z, o.neg(x[0]!), o.neg(x[1]!), x[0]!, z];
}

/** I + a·x̂ + b·x̂² with q = |x|² ((x̂²)_ij = x_i x_j − δ_ij q). */
function so3FromCoefficients<T>(o: LieScalarOps<T>, x: readonly T[], a: T, b: T, q: T): T[] {
  const M: T[] = [];
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const bxx = o.mul(b, o.mul(x[i]!, x[j]!));
      M.push(i === j ? o.add(o.sub(o.const(1), o.mul(b, q)), bxx) : bxx);
    }
  }
  const ax = o.mul(a, x[0]!);
  const ay = o.mul(a, x[1]!);
  const az = o.mul(a, x[2]!);
  M[1] = o.sub(M[1]!, az);
  M[2] = o.add(M[2]!, ay);
  M[3] = o.add(M[3]!, az);
  M[5] = o.sub(M[5]!, ax);
  M[6] = o.sub(M[6]!, ay);
  M[7] = o.add(M[7]!, ax);
  return M;
}

function so3Cay<T>(o: LieScalarOps<T>, x: readonly T[]): T[] {
  const q = dot3(o, x, x);
  const a = o.div(o.const(4), o.add(o.const(4), q));
  return so3FromCoefficients(o, x, a, o.scale(a, 0.5), q);
}

function so3Exp<T>(o: LieScalarOps<T>, x: readonly T[]): T[] {
  const q = dot3(o, x, x);
  return so3FromCoefficients(o, x, o.stumpff(1, q), o.stumpff(2, q), q);
}

/** 2·vee(D − Dᵀ)/(1 + tr D) of a 3×3 block at rows/cols 0..2 with row stride `n`. */
function so3CayInv<T>(o: LieScalarOps<T>, D: readonly T[], n: number): T[] {
  const tr = o.add(o.add(D[0]!, D[n + 1]!), D[2 * n + 2]!);
  const f = o.div(o.const(2), o.add(o.const(1), tr));
  return [
    o.mul(f, o.sub(D[2 * n + 1]!, D[n + 2]!)),
    o.mul(f, o.sub(D[2]!, D[2 * n]!)),
    o.mul(f, o.sub(D[n]!, D[1]!)),
  ];
}

/** 2×2 rotation entries (c, s) of cay(θ) or exp(θ). */
function so2Angle<T>(o: LieScalarOps<T>, th: T, map: OcpMap): [T, T] {
  const q = o.mul(th, th);
  if (map === 'cayley') {
    const d = o.div(o.const(1), o.add(o.const(4), q));
    return [o.mul(o.sub(o.const(4), q), d), o.mul(o.scale(th, 4), d)];
  }
  return [o.sub(o.const(1), o.mul(q, o.stumpff(2, q))), o.mul(th, o.stumpff(1, q))];
}

/** 2 sin φ/(1 + cos φ) of a 2×2 rotation block with row stride n. */
function so2CayInv<T>(o: LieScalarOps<T>, D: readonly T[], n: number): T {
  const s = o.scale(o.sub(D[n]!, D[1]!), 0.5);
  const c = o.scale(o.add(D[0]!, D[n + 1]!), 0.5);
  return o.div(o.scale(s, 2), o.add(o.const(1), c));
}

// ---------------------------------------------------------------------------------------------
// the factors

const rnCache = new Map<number, OcpFactor>();

function rnFactor(group: RnGroup): OcpFactor {
  const n = group.n;
  const cached = rnCache.get(n);
  if (cached !== undefined && cached.group === group) return cached;
  const f: OcpFactor = {
    kind: 'Rn',
    group,
    dim: n,
    storage: n,
    compose: (o, a, b) => a.map((ai, i) => o.add(ai, b[i]!)),
    inverse: (o, a) => a.map((ai) => o.neg(ai)),
    identity: (o) => Array.from({ length: n }, () => o.const(0)),
    tau: (_o, v) => [...v],
    taylor: (_o, v) => [...v],
    cayInv: (_o, D) => [...D],
    cayInvMargin: () => undefined,
  };
  rnCache.set(n, f);
  return f;
}

const so3Factor: OcpFactor = {
  kind: 'SO3',
  group: SO3,
  dim: 3,
  storage: 9,
  compose: (o, a, b) => matMul(o, a, b, 3),
  inverse: (_o, a) => [a[0]!, a[3]!, a[6]!, a[1]!, a[4]!, a[7]!, a[2]!, a[5]!, a[8]!],
  identity: (o) => identityMatrix(o, 3),
  tau: (o, v, map) => (map === 'cayley' ? so3Cay(o, v) : so3Exp(o, v)),
  taylor: (o, v) => taylorOf(o, hat3(o, v), 3),
  cayInv: (o, D) => so3CayInv(o, D, 3),
  cayInvMargin: (o, D) => o.add(o.const(1), o.add(o.add(D[0]!, D[4]!), D[8]!)),
};

const so2Factor: OcpFactor = {
  kind: 'SO2',
  group: SO2,
  dim: 1,
  storage: 4,
  compose: (o, a, b) => matMul(o, a, b, 2),
  inverse: (_o, a) => [a[0]!, a[2]!, a[1]!, a[3]!],
  identity: (o) => identityMatrix(o, 2),
  tau: (o, v, map) => {
    const [c, s] = so2Angle(o, v[0]!, map);
    return [c, o.neg(s), s, c];
  },
  taylor: (o, v) => {
    const t = v[0]!;
    const c = o.sub(o.const(1), o.scale(o.mul(t, t), 0.5));
    return [c, o.neg(t), t, c];
  },
  cayInv: (o, D) => [so2CayInv(o, D, 2)],
  cayInvMargin: (o, D) => o.add(o.const(1), o.scale(o.add(D[0]!, D[3]!), 0.5)),
};

function se2Inverse<T>(o: LieScalarOps<T>, a: readonly T[]): T[] {
  // [[Rᵀ, −Rᵀt], [0, 1]]
  const tx = a[2]!;
  const ty = a[5]!;
  const z = o.const(0);
  return [
    a[0]!,
    a[3]!,
    o.neg(o.add(o.mul(a[0]!, tx), o.mul(a[3]!, ty))),
    a[1]!,
    a[4]!,
    o.neg(o.add(o.mul(a[1]!, tx), o.mul(a[4]!, ty))),
    z,
    z,
    o.const(1),
  ];
}

function se2Tau<T>(o: LieScalarOps<T>, v: readonly T[], map: OcpMap): T[] {
  const w = v[2]!;
  const [c, s] = so2Angle(o, w, map);
  let tx: T;
  let ty: T;
  if (map === 'cayley') {
    // A⁻¹v = ((cay(ω) + I)/2) v
    const a = o.scale(o.add(c, o.const(1)), 0.5);
    const b = o.scale(s, 0.5);
    tx = o.sub(o.mul(a, v[0]!), o.mul(b, v[1]!));
    ty = o.add(o.mul(b, v[0]!), o.mul(a, v[1]!));
  } else {
    // V = [[c₁, −θc₂], [θc₂, c₁]]
    const q = o.mul(w, w);
    const c1 = o.stumpff(1, q);
    const tc2 = o.mul(w, o.stumpff(2, q));
    tx = o.sub(o.mul(c1, v[0]!), o.mul(tc2, v[1]!));
    ty = o.add(o.mul(tc2, v[0]!), o.mul(c1, v[1]!));
  }
  const z = o.const(0);
  return [c, o.neg(s), tx, s, c, ty, z, z, o.const(1)];
}

function se2Taylor<T>(o: LieScalarOps<T>, v: readonly T[]): T[] {
  const z = o.const(0);
  return taylorOf(o, [z, o.neg(v[2]!), v[0]!, v[2]!, z, v[1]!, z, z, z], 3);
}

function se2CayInv<T>(o: LieScalarOps<T>, D: readonly T[]): T[] {
  const w = so2CayInv(o, D, 3);
  // v = (I − ω̂/2) t
  const hw = o.scale(w, 0.5);
  return [o.add(D[2]!, o.mul(hw, D[5]!)), o.sub(D[5]!, o.mul(hw, D[2]!)), w];
}

/** SE(2) homogeneous 3×3, τ = [vx, vy, ω]. */
const se2Factor: OcpFactor = {
  kind: 'SE2',
  group: SE2,
  dim: 3,
  storage: 9,
  compose: (o, a, b) => matMul(o, a, b, 3),
  inverse: se2Inverse,
  identity: (o) => identityMatrix(o, 3),
  tau: se2Tau,
  taylor: se2Taylor,
  cayInv: se2CayInv,
  cayInvMargin: (o, D) => o.add(o.const(1), o.scale(o.add(D[0]!, D[4]!), 0.5)),
};

function se3Inverse<T>(o: LieScalarOps<T>, a: readonly T[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) out.push(a[4 * j + i]!);
    // −(Rᵀt)_i
    out.push(
      o.neg(o.add(o.add(o.mul(a[i]!, a[3]!), o.mul(a[4 + i]!, a[7]!)), o.mul(a[8 + i]!, a[11]!))),
    );
  }
  const z = o.const(0);
  out.push(z, z, z, o.const(1));
  return out;
}

function se3Tau<T>(o: LieScalarOps<T>, v: readonly T[], map: OcpMap): T[] {
  const w = [v[3]!, v[4]!, v[5]!];
  const R = map === 'cayley' ? so3Cay(o, w) : so3Exp(o, w);
  let V: T[];
  if (map === 'cayley') {
    // A⁻¹ = (cay(ω) + I)/2
    V = R.map((r, i) => o.scale(i % 4 === 0 ? o.add(r, o.const(1)) : r, 0.5));
  } else {
    const q = dot3(o, w, w);
    V = so3FromCoefficients(o, w, o.stumpff(2, q), o.stumpff(3, q), q);
  }
  const t = [0, 1, 2].map((i) =>
    o.add(o.add(o.mul(V[3 * i]!, v[0]!), o.mul(V[3 * i + 1]!, v[1]!)), o.mul(V[3 * i + 2]!, v[2]!)),
  );
  const z = o.const(0);
  const one = o.const(1);
  return [
    R[0]!,
    R[1]!,
    R[2]!,
    t[0]!,
    R[3]!,
    R[4]!,
    R[5]!,
    t[1]!,
    R[6]!,
    R[7]!,
    R[8]!,
    t[2]!,
    z,
    z,
    z,
    one,
  ];
}

function se3Taylor<T>(o: LieScalarOps<T>, v: readonly T[]): T[] {
  const z = o.const(0);
  const X = [
    z,
    o.neg(v[5]!),
    v[4]!,
    v[0]!,
    v[5]!,
    z,
    o.neg(v[3]!),
    v[1]!,
    o.neg(v[4]!),
    v[3]!,
    z,
    v[2]!,
    z,
    z,
    z,
    z,
  ];
  return taylorOf(o, X, 4);
}

function se3CayInv<T>(o: LieScalarOps<T>, D: readonly T[]): T[] {
  const w = so3CayInv(o, D, 4);
  const t = [D[3]!, D[7]!, D[11]!];
  // v = (I − ω̂/2) t = t − ½ ω × t
  const h = w.map((wi) => o.scale(wi, 0.5));
  return [
    o.sub(t[0]!, o.sub(o.mul(h[1]!, t[2]!), o.mul(h[2]!, t[1]!))),
    o.sub(t[1]!, o.sub(o.mul(h[2]!, t[0]!), o.mul(h[0]!, t[2]!))),
    o.sub(t[2]!, o.sub(o.mul(h[0]!, t[1]!), o.mul(h[1]!, t[0]!))),
    ...w,
  ];
}

/** SE(3) homogeneous 4×4, τ = [v, ω]. */
const se3Factor: OcpFactor = {
  kind: 'SE3',
  group: SE3,
  dim: 6,
  storage: 16,
  compose: (o, a, b) => matMul(o, a, b, 4),
  inverse: se3Inverse,
  identity: (o) => identityMatrix(o, 4),
  tau: se3Tau,
  taylor: se3Taylor,
  cayInv: se3CayInv,
  cayInvMargin: (o, D) => o.add(o.const(1), o.add(o.add(D[0]!, D[5]!), D[10]!)),
};

/**
 * The {@link OcpFactor} of a core group: `SO2`, `SO3`, `SE2`, `SE3` or an `Rn(k)`.
 *
 * @throws DomainError for any other group (SE(n) for n > 3, SE₂(3), unit quaternions and
 *   products: give a product as a list of factors).
 * @example
 * ```ts
 * const f = ocpFactor(SO3);
 * f.cayInv(NumberOps, f.tau(NumberOps, [0.1, -0.2, 0.3], 'cayley')); // [0.1, -0.2, 0.3]
 * ```
 */
export function ocpFactor(group: LieGroup): OcpFactor {
  if (group === SO3) return so3Factor;
  if (group === SO2) return so2Factor;
  if (group === SE2) return se2Factor;
  if (group === SE3) return se3Factor;
  if (group instanceof RnGroup) return rnFactor(group);
  throw new DomainError(
    'ocpFactor: group',
    group.name,
    'SO2, SO3, SE2, SE3 or Rn(k) (give a product as a list of factors)',
  );
}

/**
 * The factors of a state space given as a group, a product group or a list of groups (products
 * are flattened).
 *
 * @example
 * ```ts
 * ocpFactors([Rn(2), SO3]).map((f) => f.kind); // ['Rn', 'SO3']
 * ```
 */
export function ocpFactors(state: LieGroup | readonly LieGroup[]): OcpFactor[] {
  const list = Array.isArray(state) ? (state as readonly LieGroup[]) : [state as LieGroup];
  if (list.length === 0) throw new DomainError('ocpFactors: state', '[]', 'at least one group');
  const out: OcpFactor[] = [];
  for (const G of list) {
    if (G instanceof ProductGroup) out.push(...ocpFactors(G.factors));
    else out.push(ocpFactor(G));
  }
  return out;
}

/**
 * Cayley coordinates of the element `x` relative to `ref` on one factor: cay⁻¹(ref⁻¹·x) (the
 * vector x − ref on Rⁿ), zero exactly when x = ref and equal to Log(ref⁻¹x) up to third order.
 * For costs and constraints on group elements; log coordinates themselves are not offered in
 * traced functions because the principal log has no branch-free smooth form at the identity.
 *
 * @example
 * ```ts
 * const R = SO3.exp(new Float64Array(9), Float64Array.of(0, 0, 0.2));
 * cayleyCoordinates(NumberOps, SO3, Array.from(R), Array.from(SO3.identity(new Float64Array(9))));
 * // [0, 0, 2 tan(0.1)]
 * ```
 */
export function cayleyCoordinates<T>(
  o: LieScalarOps<T>,
  group: LieGroup,
  x: readonly T[],
  ref: readonly T[],
): T[] {
  const f = ocpFactor(group);
  return f.cayInv(o, f.compose(o, f.inverse(o, ref), x));
}
