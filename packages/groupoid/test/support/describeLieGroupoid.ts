/**
 * The shared property suite of every Lie groupoid (STYLE.md: `describeLieGroupoid(G)`), spec 003
 * §3.1–§3.5, §9, §11.1, §11.2. Samples are seeded (mulberry32 from `@geomech/core/testing`): identity
 * arrows ε(q), arrows within 1e-8 of them and random arrows, with composable partners from
 * `randomAfter`. Tangent maps are evaluated by fourth-order central differences through the charts
 * (`curveVelocity`), Lie brackets by commutators of flows with Richardson extrapolation.
 *
 * The flow-based checks (brackets, A.3(ii) directions) assume what the suite also tests: that
 * `leftRetract`/`rightRetract` are the flows of ←v/→v (fibre-preserving, velocity ←v/→v and the
 * one-parameter group law). The A.3(ii) check spans T G₂ only for transitive groupoids (ρ onto),
 * which it asserts (every groupoid we ship is transitive).
 */
import { leastSquares, rank as svdRank } from '@geomech/core';
import { rng as mulberry32, relErr } from '@geomech/core/testing';
import { describe, expect, it } from 'vitest';
import { curveVelocity } from '../../src/algebroid.js';
import { CotangentGroupoid, type CotangentPoint } from '../../src/cotangent.js';
import { leftGrad, rightGrad } from '../../src/gradients.js';
import { NotComposableError } from '../../src/pair.js';
import type { AStar, LieGroupoid } from '../../src/types.js';

/** Which groups of tests to register. */
export type LieGroupoidSuitePart = 'structure' | 'cotangent';

export interface LieGroupoidSuiteOptions {
  /** Seed of the samples. Default 20240917. */
  readonly seed?: number;
  /** Samples per test. Default 24. */
  readonly samples?: number;
  /** Relative tolerance of the exact structure maps. Default 1e-14. */
  readonly exactTol?: number;
  /** Relative tolerance of the chart finite-difference checks. Default 2e-11. */
  readonly fdTol?: number;
  /** Tolerance of the bracket (commutator of flows) checks. Default 2e-9. */
  readonly bracketTol?: number;
  /** Relative tolerance of the closed-form cotangent laws. Default 1e-13. */
  readonly cotTol?: number;
  /** Largest |v_i| of random algebroid vectors and covector entries. Default 1. */
  readonly scale?: number;
  /** Which parts to register. Default both. */
  readonly parts?: readonly LieGroupoidSuitePart[];
}

/** max |a − b|∞ / max(1, |a|∞, |b|∞), from `@geomech/core/testing` (re-exported for the tests). */
export { relErr };

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function randomVec(len: number, rng: () => number, scale: number): Float64Array {
  return Float64Array.from({ length: len }, () => scale * (2 * rng() - 1));
}

function basis(len: number, i: number): Float64Array {
  const e = new Float64Array(len);
  e[i] = 1;
  return e;
}

/** Fourth-order central difference of a vector-valued function of one variable. */
function derivative(f: (s: number) => Float64Array, h = 1e-3): Float64Array {
  const p1 = f(h);
  const m1 = f(-h);
  const p2 = f(2 * h);
  const m2 = f(-2 * h);
  return p1.map((_, i) => (8 * (p1[i]! - m1[i]!) - (p2[i]! - m2[i]!)) / (12 * h));
}

/** Seeded samples of arrows: ε(q), arrows 1e-8 from ε(q) and random arrows (one in 4 each). */
function sampleArrow(G: LieGroupoid, rng: () => number, n: number): Float64Array {
  const g = G.random(new Float64Array(G.arrowDim), rng);
  const kind = n % 4;
  if (kind === 0 || kind === 1) {
    const e = G.identityAt(new Float64Array(G.arrowDim), G.source(new Float64Array(G.baseDim), g));
    if (kind === 0) return e;
    return G.chart(new Float64Array(G.arrowDim), e, randomVec(G.dim, rng, 1e-8));
  }
  return g;
}

/** A smooth test function on the arrow storage: Σ_k c_k sin(w_k·g + φ_k). */
function testFunction(G: LieGroupoid, rng: () => number): (g: Float64Array) => number {
  const terms = Array.from({ length: 3 }, () => ({
    c: 2 * rng() - 1,
    w: randomVec(G.arrowDim, rng, 0.7),
    phi: 2 * Math.PI * rng(),
  }));
  return (g) => terms.reduce((acc, t) => acc + t.c * Math.sin(dot(t.w, g) + t.phi), 0);
}

/** df(g) in chart coordinates at g (fourth-order central differences). */
function chartDifferential(
  G: LieGroupoid,
  f: (g: Float64Array) => number,
  g: Float64Array,
): Float64Array {
  const k = new Float64Array(G.arrowDim);
  const out = new Float64Array(G.dim);
  for (let j = 0; j < G.dim; j++) {
    const ej = basis(G.dim, j);
    out[j] = derivative((s) =>
      Float64Array.of(
        f(
          G.chart(
            k,
            g,
            ej.map((x) => s * x),
          ),
        ),
      ),
    )[0]!;
  }
  return out;
}

/**
 * The covector at g closest to z whose α̃-coefficients are p: z − c with c the minimum-norm
 * solution of Rᵀc = Rᵀz − p, R = [→e_1 … →e_r](g) (eq. (4)).
 */
export function covectorWithSource(
  G: LieGroupoid,
  g: Float64Array,
  p: ArrayLike<number>,
  z: Float64Array,
): Float64Array {
  const n = G.dim;
  const r = G.rank;
  const Rt = new Float64Array(r * n);
  const rhs = new Float64Array(r);
  const f = new Float64Array(n);
  for (let i = 0; i < r; i++) {
    G.rightField(f, g, basis(r, i));
    Rt.set(f, i * n);
    rhs[i] = dot(f, z) - p[i]!;
  }
  const c = leastSquares(Rt, r, n, rhs);
  return z.map((x, i) => x - c[i]!);
}

/**
 * Registers the shared Lie-groupoid properties of G (spec 003 §3, §9, §11.1, §11.2) as vitest
 * tests inside `describe(name)`.
 */
export function describeLieGroupoid(
  name: string,
  G: LieGroupoid,
  options: LieGroupoidSuiteOptions = {},
): void {
  const seed = options.seed ?? 20240917;
  const samples = options.samples ?? 24;
  const exactTol = options.exactTol ?? 1e-14;
  const fdTol = options.fdTol ?? 2e-11;
  const bracketTol = options.bracketTol ?? 2e-9;
  const cotTol = options.cotTol ?? 1e-13;
  const scale = options.scale ?? 1;
  const parts = options.parts ?? ['structure', 'cotangent'];
  const { dim: n, rank: r, baseDim: b, arrowDim: N } = G;
  const arrow = () => new Float64Array(N);
  const base = () => new Float64Array(b);
  const tangent = () => new Float64Array(n);
  const alg = () => new Float64Array(r);
  const src = (g: Float64Array) => G.source(base(), g);
  const tgt = (g: Float64Array) => G.target(base(), g);
  const mul = (g: Float64Array, h: Float64Array) => G.multiply(arrow(), g, h);
  const inv = (g: Float64Array) => G.inverse(arrow(), g);
  const eps = (q: ArrayLike<number>) => G.identityAt(arrow(), q);
  const scaled = (v: Float64Array, s: number) => v.map((x) => s * x);
  /** Velocity (chart coordinates at `at`) of the curve s ↦ c(s). */
  const velocity = (at: Float64Array, c: (s: number) => Float64Array) =>
    curveVelocity(tangent(), G, at, (out, s) => {
      out.set(c(s));
      return out;
    });
  /** Velocity of a base-valued curve. */
  const baseVelocity = (c: (s: number) => Float64Array) => derivative(c);
  /** Prints a measured defect when SUITE_REPORT is set (how the tolerances here were chosen). */
  const report = (label: string, w: number) => {
    if (process.env.SUITE_REPORT) console.log(`MEASURE ${name} ${label}: ${w.toExponential(2)}`);
  };
  /** Runs `body` on `samples` seeded samples and returns the largest value it reports. */
  const worst = (salt: number, body: (rng: () => number, k: number) => number): number => {
    const rng = mulberry32(seed + 7919 * salt);
    let w = 0;
    for (let k = 0; k < samples; k++) w = Math.max(w, body(rng, k));
    report(`#${salt}`, w);
    return w;
  };

  if (parts.includes('structure')) describeStructure();
  if (parts.includes('cotangent')) describeCotangent();

  function describeStructure(): void {
    describe(`${name}: Lie groupoid (spec 003 §3, §11.1)`, () => {
      it('dimensions: rank = dim − baseDim, arrow storage ≥ dim', () => {
        expect(r).toBe(n - b);
        expect(N).toBeGreaterThanOrEqual(n);
        expect(G.random(arrow(), mulberry32(seed)).length).toBe(N);
      });

      it('axioms (§3.1): α(gh) = α(g), β(gh) = β(h), associativity, units, inverses', () => {
        const err = worst(1, (rng, k) => {
          const g = sampleArrow(G, rng, k);
          const h = G.randomAfter(arrow(), g, rng);
          const l = G.randomAfter(arrow(), h, rng);
          expect(G.isComposable(g, h)).toBe(true);
          const gh = mul(g, h);
          const gi = inv(g);
          const qa = src(g);
          const qb = tgt(g);
          return Math.max(
            relErr(src(gh), qa),
            relErr(tgt(gh), tgt(h)),
            relErr(mul(gh, l), mul(g, mul(h, l))),
            relErr(mul(eps(qa), g), g),
            relErr(mul(g, eps(qb)), g),
            relErr(mul(g, gi), eps(qa)),
            relErr(mul(gi, g), eps(qb)),
            relErr(src(gi), qb),
            relErr(tgt(gi), qa),
            relErr(inv(gi), g),
            relErr(src(eps(qa)), qa),
            relErr(tgt(eps(qa)), qa),
            relErr(inv(eps(qa)), eps(qa)),
          );
        });
        // measured ≤ 5.6e-16 over the shipped groupoids (SO3)
        expect(err).toBeLessThan(exactTol);
      });

      it('multiply throws NotComposableError when β(g) ≠ α(h)', () => {
        if (b === 0) {
          const g = G.random(arrow(), mulberry32(seed));
          expect(G.isComposable(g, G.random(arrow(), mulberry32(seed + 1)))).toBe(true);
          return;
        }
        const rng = mulberry32(seed + 2);
        const g = G.random(arrow(), rng);
        const h = G.randomAfter(arrow(), g, rng);
        // move α(h) by 1e-3 along a right-invariant field (Tα(→v) = −ρ(v) ≠ 0 for transitive G)
        const h2 = G.rightRetract(arrow(), h, randomVec(r, rng, 1e-3));
        expect(G.gap(g, h2)).toBeGreaterThan(1e-6);
        expect(G.isComposable(g, h2)).toBe(false);
        expect(() => mul(g, h2)).toThrow(NotComposableError);
      });

      it('charts: chart_g(0) = g and chart_g⁻¹∘chart_g = id near 0', () => {
        const err = worst(3, (rng, k) => {
          const g = sampleArrow(G, rng, k);
          const x = randomVec(n, rng, 0.5 * scale);
          return Math.max(
            relErr(G.chart(arrow(), g, tangent()), g),
            relErr(G.chartInverse(tangent(), g, G.chart(arrow(), g, x)), x),
          );
        });
        // measured ≤ 2.2e-16
        expect(err).toBeLessThan(exactTol);
      });

      it('retractions are the flows of ←v and →v: fibres, velocities and s ↦ R(g, s v) a one-parameter group', () => {
        let exact = 0;
        const fd = worst(4, (rng, k) => {
          const g = sampleArrow(G, rng, k);
          const v = randomVec(r, rng, scale);
          const s = 0.3;
          const t = -0.7;
          const L = (x: Float64Array, c: number) => G.leftRetract(arrow(), x, scaled(v, c));
          const R = (x: Float64Array, c: number) => G.rightRetract(arrow(), x, scaled(v, c));
          exact = Math.max(
            exact,
            relErr(src(L(g, 1)), src(g)),
            relErr(tgt(R(g, 1)), tgt(g)),
            relErr(L(L(g, s), t), L(g, s + t)),
            relErr(R(R(g, s), t), R(g, s + t)),
          );
          return Math.max(
            relErr(
              velocity(g, (c) => L(g, c)),
              G.leftField(tangent(), g, v),
            ),
            relErr(
              velocity(g, (c) => R(g, c)),
              G.rightField(tangent(), g, v),
            ),
          );
        });
        // measured: exact parts ≤ 3.3e-16, velocities ≤ 1.5e-13
        report('retractions exact', exact);
        expect(exact).toBeLessThan(exactTol);
        expect(fd).toBeLessThan(fdTol);
      });

      it('Tα(←v) = 0, Tβ(→v) = 0, Tβ(←v) = ρ(v), Tα(→v) = −ρ(v) (§3.2)', () => {
        const err = worst(5, (rng, k) => {
          const g = sampleArrow(G, rng, k);
          const v = randomVec(r, rng, scale);
          const lf = G.leftField(tangent(), g, v);
          const rf = G.rightField(tangent(), g, v);
          const along = (w: Float64Array, f: (k: Float64Array) => Float64Array) =>
            baseVelocity((s) => f(G.chart(arrow(), g, scaled(w, s))));
          const rhoB = G.anchor(base(), tgt(g), v);
          const rhoA = G.anchor(base(), src(g), v).map((x) => -x);
          return Math.max(
            relErr(along(lf, src), base()),
            relErr(along(rf, tgt), base()),
            relErr(along(lf, tgt), rhoB),
            relErr(along(rf, src), rhoA),
          );
        });
        // measured ≤ 1.5e-13
        expect(err).toBeLessThan(fdTol);
      });

      it('eq. (3): T_{ε(q)}i(v) = −v + T_{ε(q)}(ε∘β)(v) for v ∈ A_q', () => {
        const err = worst(6, (rng) => {
          const q = src(G.random(arrow(), rng));
          const e = eps(q);
          const w = G.leftField(tangent(), e, randomVec(r, rng, scale));
          const Ti = velocity(e, (s) => inv(G.chart(arrow(), e, scaled(w, s))));
          const Teb = velocity(e, (s) => eps(tgt(G.chart(arrow(), e, scaled(w, s)))));
          return relErr(
            Ti,
            w.map((x, i) => -x + Teb[i]!),
          );
        });
        // measured ≤ 1.5e-13
        expect(err).toBeLessThan(fdTol);
      });

      it('invariance (Def 2.6): Tℓ_g(←v(h)) = ←v(gh), Tr_g(→v(h)) = →v(hg)', () => {
        const err = worst(7, (rng, k) => {
          const g = sampleArrow(G, rng, k);
          const h = G.randomAfter(arrow(), g, rng);
          const gh = mul(g, h);
          const v = randomVec(r, rng, scale);
          const left = relErr(
            velocity(gh, (s) => mul(g, G.leftRetract(arrow(), h, scaled(v, s)))),
            G.leftField(tangent(), gh, v),
          );
          // right translation by h of →v at g
          const right = relErr(
            velocity(gh, (s) => mul(G.rightRetract(arrow(), g, scaled(v, s)), h)),
            G.rightField(tangent(), gh, v),
          );
          return Math.max(left, right);
        });
        // measured ≤ 2.2e-13
        expect(err).toBeLessThan(fdTol);
      });

      it('brackets (eq. (1), (2)): ←⟦x,y⟧ = [←x, ←y] and →⟦x,y⟧ = −[→x, →y] (commutators of flows)', () => {
        /**
         * (x(s) + x(−s))/(2s²) with x(s) = chart_g⁻¹(R_{−y}R_{−x}R_{y}R_{x}(g)) (flows of X first)
         * is [X, Y](g) + O(s²); Richardson on s, 2s removes the O(s²) term.
         */
        const commutator = (
          g: Float64Array,
          R: (out: Float64Array, k: Float64Array, v: Float64Array) => Float64Array,
          x: Float64Array,
          y: Float64Array,
        ) => {
          const at = (s: number) => {
            let k = R(arrow(), g, scaled(x, s));
            k = R(arrow(), k, scaled(y, s));
            k = R(arrow(), k, scaled(x, -s));
            k = R(arrow(), k, scaled(y, -s));
            return G.chartInverse(tangent(), g, k);
          };
          const sym = (s: number) => {
            const p = at(s);
            const m = at(-s);
            return p.map((_, i) => (p[i]! + m[i]!) / (2 * s * s));
          };
          const h = 2e-3;
          const b1 = sym(h);
          const b2 = sym(2 * h);
          return b1.map((_, i) => (4 * b1[i]! - b2[i]!) / 3);
        };
        const err = worst(8, (rng, k) => {
          const g = sampleArrow(G, rng, k);
          const x = randomVec(r, rng, scale);
          const y = randomVec(r, rng, scale);
          const left = relErr(
            commutator(g, (o, a, v) => G.leftRetract(o, a, v), x, y),
            G.leftField(tangent(), g, G.bracket(alg(), tgt(g), x, y)),
          );
          const right = relErr(
            commutator(g, (o, a, v) => G.rightRetract(o, a, v), x, y).map((c) => -c),
            G.rightField(tangent(), g, G.bracket(alg(), src(g), x, y)),
          );
          return Math.max(left, right);
        });
        // measured ≤ 9.6e-11 (SE3) (Richardson-extrapolated commutators, s = 2e-3)
        expect(err).toBeLessThan(bracketTol);
      });

      it('leftGrad/rightGrad (§2) equal ⟨df, ←e_i⟩ and ⟨df, →e_i⟩ with df by chart differences', () => {
        const err = worst(9, (rng, k) => {
          const g = sampleArrow(G, rng, k);
          const f = testFunction(G, rng);
          const df = chartDifferential(G, f, g);
          const lg = leftGrad(alg(), G, f, g);
          const rg = rightGrad(alg(), G, f, g);
          const lgFD = alg().map((_, i) => dot(df, G.leftField(tangent(), g, basis(r, i))));
          const rgFD = alg().map((_, i) => dot(df, G.rightField(tangent(), g, basis(r, i))));
          return Math.max(relErr(lg, lgFD), relErr(rg, rgFD));
        });
        // measured ≤ 1.2e-12 (SE3)
        expect(err).toBeLessThan(fdTol);
      });
    });
  }

  function describeCotangent(): void {
    describe(`${name}: cotangent groupoid T*G ⇒ A*G (spec 003 §3.4, §9, §11.2)`, () => {
      const T = new CotangentGroupoid(G);
      const Tgen = new CotangentGroupoid(G, { method: 'generic' });
      const sourceOf = (x: CotangentPoint) => T.cotSource(x.g, x.mu);
      const targetOf = (x: CotangentPoint) => T.cotTarget(x.g, x.mu);
      const times = (x: CotangentPoint, y: CotangentPoint) => T.cotMultiply(x.g, x.mu, y.g, y.mu);
      const astarErr = (a: AStar, c: AStar) => Math.max(relErr(a.base, c.base), relErr(a.p, c.p));
      const pointErr = (x: CotangentPoint, y: CotangentPoint) =>
        Math.max(relErr(x.g, y.g), relErr(x.mu, y.mu));
      /** A random point of T*G at an arrow drawn like the structure samples. */
      const randomPoint = (rng: () => number, k: number): CotangentPoint => ({
        g: sampleArrow(G, rng, k),
        mu: randomVec(n, rng, scale),
      });
      /** A random point composable after x: α̃(y) = β̃(x). */
      const randomAfter = (x: CotangentPoint, rng: () => number): CotangentPoint => {
        const g = G.randomAfter(arrow(), x.g, rng);
        return { g, mu: covectorWithSource(G, g, targetOf(x).p, randomVec(n, rng, scale)) };
      };

      it(`T*G uses the ${T.method} formulas`, () => {
        expect(T.method).toBe('closed-form');
        expect(Tgen.method).toBe('generic');
      });

      it('closed forms agree with the generic fallback (α̃, β̃ exactly; m̃, ε̃, ĩ by differences)', () => {
        let exact = 0;
        const fd = worst(11, (rng, k) => {
          const x = randomPoint(rng, k);
          const y = randomAfter(x, rng);
          exact = Math.max(
            exact,
            astarErr(sourceOf(x), Tgen.cotSource(x.g, x.mu)),
            astarErr(targetOf(x), Tgen.cotTarget(x.g, x.mu)),
          );
          const nu = sourceOf(x);
          return Math.max(
            pointErr(times(x, y), Tgen.cotMultiply(x.g, x.mu, y.g, y.mu)),
            pointErr(T.cotIdentity(nu), Tgen.cotIdentity(nu)),
            pointErr(T.cotInverse(x.g, x.mu), Tgen.cotInverse(x.g, x.mu)),
          );
        });
        // measured: α̃, β̃ 0 (same arithmetic); m̃, ε̃, ĩ ≤ 1.5e-13
        report('alpha/beta closed vs generic', exact);
        expect(exact).toBeLessThan(exactTol);
        expect(fd).toBeLessThan(fdTol);
      });

      it('α̃(dL(g)) = (α(g), rightGrad(L)(g)) and β̃(dL(g)) = (β(g), leftGrad(L)(g)) (§2, eq. (4))', () => {
        const err = worst(12, (rng, k) => {
          const g = sampleArrow(G, rng, k);
          const L = testFunction(G, rng);
          const dL = chartDifferential(G, L, g);
          return Math.max(
            astarErr(T.cotSource(g, dL), { base: src(g), p: rightGrad(alg(), G, L, g) }),
            astarErr(T.cotTarget(g, dL), { base: tgt(g), p: leftGrad(alg(), G, L, g) }),
          );
        });
        // measured ≤ 1.4e-12 (SO3)
        expect(err).toBeLessThan(fdTol);
      });

      it('α̃∘m̃ = α̃∘pr1, β̃∘m̃ = β̃∘pr2, associativity of m̃ (App. A.3)', () => {
        const err = worst(13, (rng, k) => {
          const x = randomPoint(rng, k);
          const y = randomAfter(x, rng);
          const z = randomAfter(y, rng);
          const xy = times(x, y);
          return Math.max(
            astarErr(sourceOf(xy), sourceOf(x)),
            astarErr(targetOf(xy), targetOf(y)),
            pointErr(times(xy, z), times(x, times(y, z))),
          );
        });
        // measured ≤ 1.3e-15 (SE3)
        expect(err).toBeLessThan(cotTol);
      });

      it('ε̃ is a two-sided unit, α̃∘ε̃ = β̃∘ε̃ = id; ĩ: α̃∘ĩ = β̃, β̃∘ĩ = α̃, ĩ∘ĩ = id, µ·ĩ(µ) = ε̃(α̃(µ))', () => {
        const err = worst(14, (rng, k) => {
          const x = randomPoint(rng, k);
          const a = sourceOf(x);
          const bt = targetOf(x);
          const ea = T.cotIdentity(a);
          const eb = T.cotIdentity(bt);
          const xi = T.cotInverse(x.g, x.mu);
          return Math.max(
            pointErr(times(ea, x), x),
            pointErr(times(x, eb), x),
            astarErr(sourceOf(ea), a),
            astarErr(targetOf(ea), a),
            astarErr(sourceOf(xi), bt),
            astarErr(targetOf(xi), a),
            pointErr(T.cotInverse(xi.g, xi.mu), x),
            pointErr(times(x, xi), ea),
            pointErr(times(xi, x), eb),
          );
        });
        // measured ≤ 4.4e-16
        expect(err).toBeLessThan(cotTol);
      });

      it('A.3(ii): ⟨m̃(µ1,µ2), Tm(v1,v2)⟩ = ⟨µ1,v1⟩ + ⟨µ2,v2⟩ on directions spanning T G₂', () => {
        let rankDeficit = 0;
        const err = worst(15, (rng, k) => {
          const x = randomPoint(rng, k);
          const y = randomAfter(x, rng);
          const { g: g1, mu: mu1 } = x;
          const { g: g2, mu: mu2 } = y;
          const g12 = mul(g1, g2);
          const m = times(x, y).mu;
          /** Composable curves (k1(s), k2(s)) through (g1, g2). */
          const curves: ((s: number) => [Float64Array, Float64Array])[] = [];
          for (let i = 0; i < r; i++) {
            const e = basis(r, i);
            // (→e_i(g1), 0): β-fibre of g1
            curves.push((s) => [G.rightRetract(arrow(), g1, scaled(e, s)), g2]);
            // (←e_i(g1), v2) with k1k2 = g1g2: k2 = k1⁻¹g1g2
            curves.push((s) => {
              const k1 = G.leftRetract(arrow(), g1, scaled(e, s));
              return [k1, mul(inv(k1), g12)];
            });
            // (0, ←e_i(g2)): α-fibre of g2
            curves.push((s) => [g1, G.leftRetract(arrow(), g2, scaled(e, s))]);
          }
          const rows: Float64Array[] = [];
          let worstPair = 0;
          for (const c of curves) {
            const v1 = velocity(g1, (s) => c(s)[0]);
            const v2 = velocity(g2, (s) => c(s)[1]);
            const Tm = velocity(g12, (s) => {
              const [k1, k2] = c(s);
              return mul(k1, k2);
            });
            const lhs = dot(m, Tm);
            const rhs = dot(mu1, v1) + dot(mu2, v2);
            const size = Math.max(1, Math.abs(lhs), Math.abs(rhs));
            worstPair = Math.max(worstPair, Math.abs(lhs - rhs) / size);
            const row = new Float64Array(2 * n);
            row.set(v1, 0);
            row.set(v2, n);
            rows.push(row);
          }
          // the directions span T_{(g1,g2)}G₂, of dimension 2r + b
          const flat = new Float64Array(rows.length * 2 * n);
          for (const [i, row] of rows.entries()) flat.set(row, i * 2 * n);
          const sv = svdRank(flat, rows.length, 2 * n, 1e-8);
          rankDeficit = Math.max(rankDeficit, 2 * r + b - sv);
          return worstPair;
        });
        expect(rankDeficit).toBe(0);
        // measured ≤ 2.2e-13
        expect(err).toBeLessThan(fdTol);
      });

      it('cotMultiply throws NotComposableError when β̃(µ1) ≠ α̃(µ2) or β(g1) ≠ α(g2)', () => {
        const rng = mulberry32(seed + 16);
        const x = randomPoint(rng, 3);
        const y = randomAfter(x, rng);
        expect(T.cotGap(x.g, x.mu, y.g, y.mu)).toBeLessThan(1e-12);
        const bad = covectorWithSource(
          G,
          y.g,
          targetOf(x).p.map((p) => p + 1e-3),
          y.mu,
        );
        expect(T.cotGap(x.g, x.mu, y.g, bad)).toBeGreaterThan(5e-4);
        expect(() => T.cotMultiply(x.g, x.mu, y.g, bad)).toThrow(NotComposableError);
        expect(() => Tgen.cotMultiply(x.g, x.mu, y.g, bad)).toThrow(NotComposableError);
        if (b > 0) {
          const h = G.rightRetract(arrow(), y.g, randomVec(r, rng, 1e-3));
          expect(() => T.cotMultiply(x.g, x.mu, h, y.mu)).toThrow(NotComposableError);
        }
      });
    });
  }
}
