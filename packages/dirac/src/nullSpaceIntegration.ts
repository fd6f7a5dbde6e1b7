/**
 * Solver (b) of spec 002 §5.8 (not in the paper, spec 002 §7 item 8): quasi-velocities. With
 * v = G(q)u the constraint A v = 0 holds exactly and (6.3) becomes an ODE in (q, u), integrated
 * with core's DOPRI5.
 *
 * @module
 */
import {
  DenseLU,
  DenseQR,
  Dopri5Integrator,
  dopri5Method,
  extendSolution,
  matMul,
  matTVec,
  matVec,
  minNormSolve,
  NonRegularSystemError,
  type OdeRhs,
  SINGULAR_JACOBIAN_CONDITION,
  transpose,
} from '@geomech/core';
import { dopriOptions, implicitSolution, sampleTimes } from './implicitRun.js';
import type { ImplicitIntegrationOptions, ImplicitSolution } from './implicitSolution.js';
import type { ImplicitLagrangianSystem } from './implicitSystem.js';
import { checkFinite, checkLength, maxAbs } from './internal.js';
import { FOURTH_ORDER_DIFFERENCE_STEP } from './lagrangian.js';

/** The solution of {@link integrateNullSpace}: the quasi-velocities `u` (count × r) and r = dim Δ. */
export type NullSpaceSolution = ImplicitSolution<'u'> & {
  /** Dimension r of Δ (the width of `u`; v = G(q)u). */
  readonly r: number;
};

/** Options of {@link integrateNullSpace}. */
export interface NullSpaceOptions extends ImplicitIntegrationOptions {
  /**
   * out ← Ġ = Σ_k (∂G/∂qᵏ) vᵏ (n×r). When absent, fourth-order central differences of G along v
   * (step ε^{1/5}·max(1, ‖q‖∞)^{1/5}/‖v‖∞, about 1e-13 relative).
   */
  readonly Gdot?: (out: Float64Array, q: Float64Array, v: Float64Array) => void;
}

/** Initial data of the null-space solver: u0 are coordinates in the basis G(q0) of Δ(q0). */
export interface NullSpaceInitial {
  readonly q0: ArrayLike<number>;
  readonly u0: ArrayLike<number>;
}

/**
 * The quasi-velocity field: v = G(q)u, q̇ = Gu, (GᵀMG) u̇ = Gᵀ(∂L/∂q − N v − M Ġ u). When Δ has
 * no G, the smooth basis G(q) = (I − A⁺A)G₀ with G₀ the orthonormal null space of A(q₀).
 */
class NullSpaceField {
  readonly n: number;
  readonly r: number;
  private readonly G0: Float64Array | undefined;
  private readonly G: Float64Array;
  private readonly Gd: Float64Array;
  private readonly Gp: Float64Array;
  private readonly qw: Float64Array;
  private readonly M: Float64Array;
  private readonly N: Float64Array;
  private readonly f: Float64Array;
  private readonly MG: Float64Array;
  private readonly Mr: Float64Array;
  private readonly w: Float64Array;
  private readonly b: Float64Array;
  private readonly lu: DenseLU | undefined;
  private readonly u: Float64Array;
  readonly q: Float64Array;
  readonly v: Float64Array;
  readonly udot: Float64Array;
  readonly vdot: Float64Array;

  constructor(
    private readonly sys: ImplicitLagrangianSystem,
    q0: Float64Array,
    private readonly Gdot: NullSpaceOptions['Gdot'],
  ) {
    const n = sys.n;
    this.n = n;
    const { G, r } = sys.basis(q0);
    this.r = r;
    this.G0 = sys.Delta.G === undefined ? Float64Array.from(G) : undefined;
    this.G = new Float64Array(n * r);
    this.Gd = new Float64Array(n * r);
    this.Gp = new Float64Array(n * r);
    this.qw = new Float64Array(n);
    this.M = new Float64Array(n * n);
    this.N = new Float64Array(n * n);
    this.f = new Float64Array(n);
    this.MG = new Float64Array(n * r);
    this.Mr = new Float64Array(r * r);
    this.w = new Float64Array(n);
    this.b = new Float64Array(r);
    this.lu = r > 0 ? new DenseLU(r) : undefined;
    this.u = new Float64Array(r);
    this.q = new Float64Array(n);
    this.v = new Float64Array(n);
    this.udot = new Float64Array(r);
    this.vdot = new Float64Array(n);
  }

  /** out ← G(q) (n×r). */
  basisAt(out: Float64Array, q: Float64Array): Float64Array {
    const { n, r, sys, G0 } = this;
    if (G0 === undefined) {
      sys.Delta.G?.(out, q);
      return out;
    }
    const m = sys.m;
    out.set(G0);
    if (m === 0) return out;
    const A = sys.A(q);
    const AG = matMul(new Float64Array(m * r), A, G0, m, n, r);
    // (I − A⁺A)G₀ = G₀ − Aᵀ(AAᵀ)⁻¹(AG₀), column by column with the minimum-norm solve
    const col = new Float64Array(m);
    for (let b = 0; b < r; b++) {
      for (let a = 0; a < m; a++) col[a] = AG[a * r + b]!;
      const d = minNormSolve(A, m, n, col);
      for (let i = 0; i < n; i++) out[i * r + b] = out[i * r + b]! - d[i]!;
    }
    return out;
  }

  /** Gd ← Ġ(q, v) = d/ds G(q + s v) at s = 0. */
  private basisRate(q: Float64Array, v: Float64Array): void {
    const { n, r, Gd, Gp, qw } = this;
    if (this.Gdot !== undefined) {
      this.Gdot(Gd, q, v);
      return;
    }
    const vn = maxAbs(v);
    Gd.fill(0);
    if (vn === 0) return;
    const h = (FOURTH_ORDER_DIFFERENCE_STEP * Math.max(1, maxAbs(q)) ** 0.2) / vn;
    const c = [8, -8, -1, 1];
    const s = [h, -h, 2 * h, -2 * h];
    for (let k = 0; k < 4; k++) {
      for (let i = 0; i < n; i++) qw[i] = q[i]! + s[k]! * v[i]!;
      this.basisAt(Gp, qw);
      const wk = c[k]! / (12 * h);
      for (let e = 0; e < n * r; e++) Gd[e] = Gd[e]! + wk * Gp[e]!;
    }
  }

  /** Evaluates at y = [q, u]: fills q, v = Gu, u̇, v̇ = Ġu + Gu̇. */
  evaluate(y: ArrayLike<number>): void {
    const { n, r, sys, G, Gd, M, N, f, MG, Mr, w, b, q, u, v, udot, vdot } = this;
    for (let i = 0; i < n; i++) q[i] = y[i]!;
    for (let c = 0; c < r; c++) u[c] = y[n + c]!;
    this.basisAt(G, q);
    matVec(v, G, n, r, u);
    const L = sys.L;
    L.Lvv(M, q, v);
    L.Lvq(N, q, v);
    L.Lq(f, q, v);
    this.basisRate(q, v);
    // w = ∂L/∂q − N v − M (Ġ u)
    const gu = matVec(vdot, Gd, n, r, u);
    for (let i = 0; i < n; i++) {
      let s = f[i]!;
      for (let j = 0; j < n; j++) s -= N[i * n + j]! * v[j]! + M[i * n + j]! * gu[j]!;
      w[i] = s;
    }
    matTVec(b, G, n, r, w);
    matMul(MG, M, G, n, n, r);
    for (let a = 0; a < r; a++) {
      for (let c = 0; c < r; c++) {
        let s = 0;
        for (let k = 0; k < n; k++) s += G[k * r + a]! * MG[k * r + c]!;
        Mr[a * r + c] = s;
      }
    }
    checkFinite('integrateNullSpace: right-hand side', b);
    if (this.lu !== undefined) {
      this.lu.factor(Mr);
      if (this.lu.isSingular || this.lu.conditionEstimate() >= SINGULAR_JACOBIAN_CONDITION) {
        sys.checkRegular(q, v);
        throw new NonRegularSystemError('singular-constrained-mass', {
          detail: 'GᵀMG is singular to working precision',
          rank: r - 1,
          expected: r,
        });
      }
      this.lu.solve(b, udot);
    }
    // v̇ = Ġu + G u̇ (vdot holds Ġu)
    for (let i = 0; i < n; i++) {
      let s = vdot[i]!;
      for (let c = 0; c < r; c++) s += G[i * r + c]! * udot[c]!;
      vdot[i] = s;
    }
  }

  readonly rhs: OdeRhs = (out, _t, y) => {
    this.evaluate(y);
    const { n, r, v, udot } = this;
    for (let i = 0; i < n; i++) out[i] = v[i]!;
    for (let c = 0; c < r; c++) out[n + c] = udot[c]!;
  };
}

/**
 * Solver (b) of spec 002 §5.8: quasi-velocities. With v = G(q)u (so A v = 0 holds exactly) the
 * equations (6.3) become Gᵀ(d/dt ∂L/∂v − ∂L/∂q) = 0, i.e.
 *
 *   q̇ = G(q)u,   (GᵀMG) u̇ = Gᵀ(∂L/∂q − N v − M Ġ u),   Ġ = Σ_k (∂G/∂qᵏ) vᵏ,
 *
 * an ODE in (q, u) of dimension n + r integrated with DOPRI5. u0 are coordinates in
 * `system.basis(q0)` (`Delta.G`, or an orthonormal null space of A(q0), continued smoothly as
 * (I − A⁺A)G₀). μ is recovered afterwards by least squares from Aᵀμ = M v̇ + N v − ∂L/∂q.
 * Returns an {@link ImplicitSolution} with the quasi-velocities as the series `u` (width r) and
 * r = dim Δ.
 *
 * @throws NonRegularSystemError when GᵀMG is singular (or A rank-deficient).
 * @example
 * ```ts
 * // rolling disk, G = [∂_φ, R cos φ ∂_x + R sin φ ∂_y + ∂_θ]: u = (v_φ, v_θ)
 * const disk = verticalRollingDisk({ m: 2, R: 0.5, I: 0.3, J: 0.15 });
 * const sys = new ImplicitLagrangianSystem(disk.lagrangian, disk.distribution);
 * const [q0, omega, Omega] = [new Float64Array(4), 0.5, 2];
 * const sol = integrateNullSpace(sys, { q0, u0: [omega, Omega] }, 10);
 * ```
 */
export function integrateNullSpace(
  system: ImplicitLagrangianSystem,
  initial: NullSpaceInitial,
  tEnd: number,
  options: NullSpaceOptions = {},
): NullSpaceSolution {
  const what = 'integrateNullSpace';
  const { n, m } = system;
  checkLength(`${what}: q0`, initial.q0, n);
  checkFinite(`${what}: q0`, initial.q0);
  checkFinite(`${what}: u0`, initial.u0);
  const t0 = options.t0 ?? 0;
  const times = sampleTimes(what, t0, tEnd, options);
  const q0 = Float64Array.from(initial.q0);
  const field = new NullSpaceField(system, q0, options.Gdot);
  const r = field.r;
  checkLength(`${what}: u0 (dim Δ)`, initial.u0, r);
  const G0 = field.basisAt(new Float64Array(n * r), q0);
  system.checkRegular(q0, matVec(new Float64Array(n), G0, n, r, initial.u0));
  const y0 = new Float64Array(n + r);
  y0.set(q0, 0);
  y0.set(Float64Array.from(initial.u0), n);
  const integ = new Dopri5Integrator(n + r, field.rhs, dopriOptions(options, times));
  const sol = integ.integrate(y0, t0, tEnd);
  const count = times.length;
  const qs = new Float64Array(count * n);
  const vs = new Float64Array(count * n);
  const us = new Float64Array(count * r);
  for (let k = 0; k < count; k++) {
    const s = sol.sample('y', k);
    field.evaluate(s);
    qs.set(field.q, k * n);
    vs.set(field.v, k * n);
    us.set(s.subarray(n), k * r);
  }
  const At = new Float64Array(n * m);
  const e = new Float64Array(n);
  const N = new Float64Array(n * n);
  const M = new Float64Array(n * n);
  const qr = new DenseQR(n, m);
  const yk = new Float64Array(n + r);
  const out = implicitSolution(
    system,
    { method: dopri5Method, t: times, k: sol.k, q: qs, v: vs, steps: sol.steps, stats: sol.stats },
    (out, k, q, v) => {
      if (m === 0) return;
      yk.set(q, 0);
      yk.set(us.subarray(k * r, (k + 1) * r), n);
      field.evaluate(yk);
      const L = system.L;
      L.Lvv(M, q, v);
      L.Lvq(N, q, v);
      L.Lq(e, q, v);
      // e = M v̇ + N v − ∂L/∂q = ṗ − ∂L/∂q
      for (let i = 0; i < n; i++) {
        let s = -e[i]!;
        for (let j = 0; j < n; j++) s += M[i * n + j]! * field.vdot[j]! + N[i * n + j]! * v[j]!;
        e[i] = s;
      }
      qr.factor(transpose(At, system.A(q), m, n), n, m);
      qr.solveLeastSquares(e, out);
    },
    undefined,
    0,
    { name: 'u', width: r, data: us },
  );
  return extendSolution(out, { r }) as NullSpaceSolution;
}
