import {
  DimensionError,
  DomainError,
  type LieScalarOps,
  Rn,
  SE2,
  SE3,
  SO2,
  SO3,
  SymbolicValueError,
} from '@geomech/core';
import { randomElement, rng, stageDerivativeError } from '@geomech/core/testing';
import { describe, expect, it } from 'vitest';
import { defineOcp, type LieOcp, type OcpSpec, ocpFactor } from '../../src/ocp/index.js';
import { plateBallOcp } from '../../src/ocp/plateBallSteering.js';

const sq = <T>(o: LieScalarOps<T>, v: readonly T[]): T => {
  let s = o.mul(v[0]!, v[0]!);
  for (let i = 1; i < v.length; i++) s = o.add(s, o.mul(v[i]!, v[i]!));
  return s;
};

const se3Factor = ocpFactor(SE3);
const so2Factor = ocpFactor(SO2);

/** A random internal state of the problem's state space (groups random, Rⁿ entries in [−1, 1]). */
function randomState(ocp: LieOcp, r: () => number, free = false): Float64Array {
  const parts: number[] = [];
  for (const f of ocp.factors) parts.push(...randomElement(f.group, r, 0.8));
  if (free) parts.push(0.5 + r());
  return Float64Array.from(parts);
}

/** Checks every stage kind of `ocp` at random points near each other. */
function checkDerivatives(ocp: LieOcp, seed: number, free = false) {
  const r = rng(seed);
  const P = ocp.stageOcp;
  let jac = 0;
  let hess = 0;
  const seen = new Set<number>();
  for (let k = 0; k <= ocp.N; k++) {
    const kind = P.stageKind[k]!;
    if (seen.has(kind)) continue;
    seen.add(kind);
    const x = randomState(ocp, r, free);
    const d = P.dims(k);
    const u = Float64Array.from({ length: d.nu }, () => r() - 0.5);
    let xn: Float64Array | undefined;
    if (k < ocp.N) {
      // x ⊕ (small step), inside the charts' domains
      const dx = Float64Array.from({ length: d.nx }, () => 0.3 * (r() - 0.5));
      xn = new Float64Array(x.length);
      P.retract(k, xn, x, dx);
    }
    const e = stageDerivativeError(P, k, x, u, xn, seed + k);
    jac = Math.max(jac, e.jacobian);
    hess = Math.max(hess, e.hessian);
  }
  return { jac, hess, kinds: seen.size };
}

const I3 = () => SO3.identity(new Float64Array(9));

// Measured errors of the compiled derivatives against central differences (step 1e-5, relative to
// max(1, |derivative|)): first derivatives 7e-12–3e-11, Hessians 2e-11–9e-11 (truncation and
// round-off of the differences, not of the derivatives).
describe('stage kinds on tapes and on generated code', () => {
  it('every kind has tapes, which evaluate bit for bit as its generated code', () => {
    const I = Float64Array.of(0, 0, ...I3());
    const ocp = plateBallOcp(
      { n: 40, r: 0.8, Omega: 0.7, c: 0.3, alpha: 0.4, start: I, end: I },
      true,
    );
    const st = ocp.stageOcp;
    expect(st.kinds.length).toBe(4);
    const R = rng(7);
    const vec = () => Float64Array.from({ length: 64 }, () => 0.05 * (2 * R() - 1));
    for (const K of st.kinds) {
      expect(K.tapes.map((f) => f.mode)).toEqual(['interpreter', 'interpreter', 'interpreter']);
      const args = [vec(), vec(), vec(), Float64Array.from(st.p), vec()];
      const fs = [K.f0, K.f1, K.f2] as const;
      for (let l = 0; l < 3; l++) {
        const a = new Float64Array(fs[l]!.outputs);
        const b = new Float64Array(fs[l]!.outputs);
        fs[l]!(a, ...args.slice(0, l === 2 ? 5 : 4));
        K.tapes[l]!(b, ...args.slice(0, l === 2 ? 5 : 4));
        let same = a.length > 0;
        for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) same = false;
        expect(same).toBe(true);
      }
    }
  });
});

describe('compiled stage derivatives against central differences (step 1e-5)', () => {
  it('SO(3) kinematic, τ = cay and exp, with path equality, gauge row and both ends (≤ 1e-9)', () => {
    for (const map of ['cayley', 'exp'] as const) {
      const ocp = defineOcp({
        state: SO3,
        controls: 3,
        steps: 5,
        dynamics: { kinematic: (_o, s) => s.u, map },
        cost: (o, s) => o.scale(sq(o, s.u), 0.5),
        equalities: (_o, s) => [s.u[2]!],
        at: [{ stage: 0, equalities: (_o, s) => [s.u[1]!] }],
        start: I3(),
        end: SO3.exp(new Float64Array(9), Float64Array.of(0.1, 0.2, 1)),
      });
      const e = checkDerivatives(ocp, 1);
      expect(e.kinds).toBe(3);
      expect(e.jac).toBeLessThan(1e-9);
      expect(e.hess).toBeLessThan(1e-9);
    }
  });
  it('plate-ball increment dynamics (τ_skew with √, branch inequality, gauge with sin/cos of a parameter) (≤ 1e-9)', () => {
    const I = Float64Array.of(0, 0, ...I3());
    const ocp = plateBallOcp(
      { n: 8, r: 0.8, Omega: 0.7, c: 0.3, alpha: 0.4, start: I, end: I },
      true,
    );
    const e = checkDerivatives(ocp, 2);
    expect(e.kinds).toBe(4);
    expect(e.jac).toBeLessThan(1e-9);
    expect(e.hess).toBeLessThan(1e-9);
  });
  it('SE(2) and SE(3): kinematic, increment and explicit maps, bounds, terminal cost (≤ 1e-9)', () => {
    const se2 = defineOcp({
      state: SE2,
      controls: 2,
      steps: 4,
      dynamics: { kinematic: (o, s) => [s.u[0]!, o.const(0), s.u[1]!], map: 'exp' },
      cost: (o, s) => o.add(o.scale(sq(o, s.u), 0.5), o.mul(s.x[2]!, s.x[5]!)),
      controlBounds: { lower: [-2, -Infinity], upper: [2, 3] },
      terminalCost: (o, s) => o.mul(s.x[0]!, s.x[2]!),
      start: SE2.identity(new Float64Array(9)),
      end: { element: SE2.identity(new Float64Array(9)), factors: [] },
    });
    const a = checkDerivatives(se2, 3);
    expect(a.jac).toBeLessThan(1e-9);
    expect(a.hess).toBeLessThan(1e-9);
    const se3 = defineOcp({
      state: [SE3, Rn(2)],
      controls: 3,
      steps: 4,
      params: { w: 0.7 },
      dynamics: {
        next: (o, s) => {
          // x_{k+1} = x_k·cay(h(u0, 0, 0, w u1, u2, 0)) and q_{k+1} = q_k + h(u0, q_k1 u2)
          const M = [
            s.u[0]!,
            o.const(0),
            o.const(0),
            o.mul(s.p.w!, s.u[1]!),
            s.u[2]!,
            o.const(0),
          ].map((e) => o.mul(s.h, e));
          // the SE(3) Cayley increment composed through the generic factor
          const f = se3Factor;
          const X = f.compose(o, s.x.slice(0, 16), f.tau(o, M, 'cayley'));
          return [
            ...X,
            o.add(s.x[16]!, o.mul(s.h, s.u[0]!)),
            o.add(s.x[17]!, o.mul(s.h, o.mul(s.x[16]!, s.u[2]!))),
          ];
        },
      },
      cost: (o, s) => o.add(o.scale(sq(o, s.u), 0.5), o.mul(s.t, s.x[17]!)),
      inequalities: (o, s) => [o.sub(o.const(4), sq(o, s.x.slice(16, 18)))],
      stateBounds: { lower: [...new Array(16).fill(-Infinity), -5, -Infinity] },
      start: Float64Array.of(...SE3.identity(new Float64Array(16)), 0, 0),
      end: { element: Float64Array.of(...SE3.identity(new Float64Array(16)), 1, 0), factors: [1] },
    });
    const b = checkDerivatives(se3, 4);
    expect(b.jac).toBeLessThan(1e-9);
    expect(b.hess).toBeLessThan(1e-9);
  });
  it('implicit dynamics with a free horizon on SO(2) × R¹ (≤ 1e-9)', () => {
    const ocp = defineOcp({
      state: [SO2, Rn(1)],
      controls: 1,
      steps: 4,
      horizon: { free: [0.5, 3] },
      dynamics: {
        // θ_{k+1} = θ_k·cay(h ω_k), ω_{k+1} − ω_k = h u (ω as the R¹ factor), as a defect
        defect: (o, s) => {
          const D = so2Factor.compose(
            o,
            so2Factor.inverse(o, s.x.slice(0, 4)),
            s.xNext.slice(0, 4),
          );
          return [
            o.sub(so2Factor.cayInv(o, D)[0]!, o.mul(s.h, s.x[4]!)),
            o.sub(o.sub(s.xNext[4]!, s.x[4]!), o.mul(s.h, s.u[0]!)),
          ];
        },
      },
      cost: (o, s) => o.scale(o.mul(s.u[0]!, s.u[0]!), 0.5),
      terminalCost: (_o, s) => s.T,
      start: Float64Array.of(1, 0, 0, 1, 0),
      end: Float64Array.of(0, -1, 1, 0, 0),
    });
    const e = checkDerivatives(ocp, 5, true);
    expect(e.jac).toBeLessThan(1e-9);
    expect(e.hess).toBeLessThan(1e-9);
  });
});

/** The exact discrete optimum of min Σ h u²/2, x_{k+1} = x_k + h(v_k, u_k), x_0 = (1, 0), x_N = 0. */
function doubleIntegratorExact(N: number, h: number): { cost: number; u: Float64Array } {
  // x_N = A^N x_0 + Σ_k A^{N−1−k} b u_k, A = [[1, h], [0, 1]], b = (0, h)ᵀ: A^m b = (m h², h)
  // minimize (h/2)|u|² s.t. M u = −A^N x_0 with M columns ((N−1−k)h², h): u = −Mᵀ(MMᵀ)⁻¹A^N x_0
  const cols = Array.from({ length: N }, (_, k) => [(N - 1 - k) * h * h, h] as const);
  let a = 0;
  let b = 0;
  let d = 0;
  for (const [p, q] of cols) {
    a += p * p;
    b += p * q;
    d += q * q;
  }
  const rhs = [-1, 0]; // −A^N (1, 0) = (−1, 0)
  const det = a * d - b * b;
  const y = [(d * rhs[0]! - b * rhs[1]!) / det, (a * rhs[1]! - b * rhs[0]!) / det];
  const u = Float64Array.from(cols, ([p, q]) => p * y[0]! + q * y[1]!);
  let cost = 0;
  for (const v of u) cost += 0.5 * h * v * v;
  return { cost, u };
}

describe('solves with known answers', () => {
  const spec: OcpSpec = {
    state: [Rn(1), Rn(1)],
    controls: 1,
    steps: 20,
    dynamics: { kinematic: (_o, s) => [s.x[1]!, s.u[0]!] },
    cost: (o, s) => o.scale(o.mul(s.u[0]!, s.u[0]!), 0.5),
    start: [1, 0],
    end: [0, 0],
  };
  it('double integrator: the exact discrete LQ optimum (cost and controls to 1e-12) in one iteration', () => {
    const ocp = defineOcp(spec);
    const sol = ocp.solve();
    expect(sol.status).toBe('converged');
    expect(sol.secondOrder).toBe('minimum');
    expect(sol.success).toBe(true);
    const ex = doubleIntegratorExact(20, 1 / 20);
    expect(Math.abs(sol.cost - ex.cost)).toBeLessThan(1e-12 * ex.cost);
    let du = 0;
    for (let k = 0; k < 20; k++) du = Math.max(du, Math.abs(sol.u[k]! - ex.u[k]!));
    expect(du).toBeLessThan(1e-10);
    expect(sol.iterations).toBeLessThanOrEqual(1);
  });
  it('implicit form of the same dynamics gives the same optimum (1e-12)', () => {
    const a = defineOcp(spec).solve();
    const b = defineOcp({
      ...spec,
      dynamics: {
        defect: (o, s) => [
          o.sub(o.sub(s.xNext[0]!, s.x[0]!), o.mul(s.h, s.x[1]!)),
          o.sub(o.sub(s.xNext[1]!, s.x[1]!), o.mul(s.h, s.u[0]!)),
        ],
      },
    }).solve();
    expect(b.success).toBe(true);
    expect(Math.abs(a.cost - b.cost)).toBeLessThan(1e-12);
  });
  it('with() changes data without retracing and agrees with a fresh definition', () => {
    const ocp = defineOcp(spec);
    const finer = ocp.with({ steps: 40, end: [0.5, 0] });
    expect(finer.program).toBe(ocp.program);
    const fresh = defineOcp({ ...spec, steps: 40, end: [0.5, 0] });
    expect(Math.abs(finer.solve().cost - fresh.solve().cost)).toBeLessThan(1e-13);
  });
  it('update() changes data in place, reuses the solver and leaves earlier solutions alone', () => {
    const ocp = defineOcp(spec);
    const first = ocp.solve();
    const u0 = Float64Array.from(first.u);
    expect(ocp.update({ end: [0.5, 0], params: {} })).toBe(ocp);
    expect(ocp.end[0]).toBe(0.5);
    const moved = ocp.solve();
    const fresh = defineOcp({ ...spec, end: [0.5, 0] }).solve();
    expect(Math.abs(moved.cost - fresh.cost)).toBeLessThan(1e-13);
    expect(first.u).toEqual(u0);
    expect(Math.abs(ocp.update({ end: [0, 0] }).solve().cost - first.cost)).toBeLessThan(1e-13);
    expect(() => ocp.update({ steps: 40 })).toThrow(DomainError);
  });
  it('minimum time with |u| ≤ 1 (free horizon): T = 2 and bang-bang controls at the bounds', () => {
    // x_{k+1} = x_k + h v_k, v_{k+1} = v_k + h u_k, h = T/N, (1, 0) → (0, 0) at rest: for even N
    // the discrete minimum is u = −1 on the first N/2 steps and +1 on the others, with
    // x_N = 1 − h²N²/4 = 0, so T = 2 exactly (the continuous value); measured 2 + 5e-12
    const { cost: _running, ...rest } = spec;
    const ocp = defineOcp({
      ...rest,
      steps: 40,
      horizon: { free: [0.5, 5], guess: 3 },
      terminalCost: (_o, s) => s.T,
      controlBounds: { lower: [-1], upper: [1] },
    });
    const sol = ocp.solve({ solver: { tol: 1e-12 } });
    expect(sol.success).toBe(true);
    expect(Math.abs(sol.T - 2)).toBeLessThan(1e-9);
    for (let k = 0; k < 40; k++) expect(Math.abs(sol.u[k]! - (k < 20 ? -1 : 1))).toBeLessThan(1e-9);
  });
  it('a rollout is feasible: every dynamics row vanishes there (≤ 1e-15)', () => {
    const ocp = defineOcp({
      state: [SE2, Rn(1)],
      controls: 2,
      steps: 6,
      dynamics: { kinematic: (o, s) => [s.u[0]!, o.const(0), s.u[1]!, s.u[0]!], map: 'exp' },
      start: Float64Array.of(...SE2.identity(new Float64Array(9)), 0),
    });
    const u = Float64Array.from({ length: 12 }, (_, i) => Math.sin(i));
    const g = ocp.rollout(u);
    let m = 0;
    for (let k = 0; k < 6; k++) {
      const ev = ocp.evaluateStage(
        k,
        Float64Array.from(g.x).subarray(10 * k, 10 * k + 10),
        u.subarray(2 * k, 2 * k + 2),
        Float64Array.from(g.x).subarray(10 * k + 10, 10 * k + 20),
        0,
      );
      for (const c of ev.c) m = Math.max(m, Math.abs(c));
    }
    expect(m).toBeLessThan(1e-15);
  });
});

describe('domain and errors', () => {
  const base: OcpSpec = {
    state: SO3,
    controls: 3,
    steps: 4,
    dynamics: { kinematic: (_o, s) => s.u },
    cost: (o, s) => o.scale(sq(o, s.u), 0.5),
    start: I3(),
    end: I3(),
  };
  it('a dynamics mismatch of π is outside the Cayley chart: the stage reports NaN', () => {
    const ocp = defineOcp(base);
    const x = I3();
    const xn = SO3.exp(new Float64Array(9), Float64Array.of(0, 0, Math.PI));
    const ev = ocp.evaluateStage(0, x, new Float64Array(3), xn, 0);
    expect(ev.cost).toBeNaN();
    const near = SO3.exp(new Float64Array(9), Float64Array.of(0, 0, 3));
    expect(ocp.evaluateStage(0, x, new Float64Array(3), near, 0).cost).toBe(0);
  });
  it('bad specs throw typed errors naming the field', () => {
    const bad = (patch: Partial<OcpSpec>, type: new (...a: never[]) => Error, text: RegExp) =>
      expect(() => defineOcp({ ...base, ...patch } as OcpSpec)).toThrow(
        expect.objectContaining({ constructor: type, message: expect.stringMatching(text) }),
      );
    bad({ steps: 0 }, DomainError, /steps/);
    bad({ steps: 2.5 }, DomainError, /steps/);
    bad({ controls: -1 }, DomainError, /controls/);
    bad({ start: new Float64Array(9) }, DomainError, /start/);
    bad({ end: [1, 2] }, DimensionError, /end/);
    bad({ params: { a: Number.NaN } }, DomainError, /params\.a/);
    bad({ horizon: -1 }, DomainError, /horizon/);
    bad({ controlBounds: { lower: [0, 0, 1], upper: [1, 1, 0] } }, DomainError, /controlBounds/);
    bad({ dynamics: { kinematic: (_o, s) => s.u.slice(0, 2) } }, DimensionError, /kinematic/);
    bad({ equalities: (() => 3) as never }, DimensionError, /equalities/);
    bad({ at: [{ stage: 9, equalities: (_o, s) => [s.u[0]!] }] }, DomainError, /at\[0\]\.stage/);
    bad({ dynamics: {} as never }, DomainError, /dynamics/);
    expect(() => defineOcp({ ...base, state: SE3, start: I3() })).toThrow(DimensionError);
    expect(() => defineOcp(base).with({ params: { nope: 1 } })).toThrow(DomainError);
  });
  it('a function that branches on a traced value throws SymbolicValueError', () => {
    expect(() =>
      defineOcp({ ...base, cost: (o, s) => (o.value(s.u[0]!) > 0 ? s.u[0]! : o.neg(s.u[0]!)) }),
    ).toThrow(SymbolicValueError);
  });
  it('a malformed guess throws DimensionError', () => {
    const ocp = defineOcp(base);
    expect(() => ocp.solve({ guess: { x: new Float64Array(3), u: new Float64Array(12) } })).toThrow(
      DimensionError,
    );
  });
});
