import {
  checkJacobian,
  coAdjoint,
  DimensionError,
  DomainError,
  expRetraction,
  finiteDifferenceJacobian,
  NewtonDivergedError,
  SE3,
  SO3,
  so3Cayley,
  so3Exp,
} from '@geomech/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AlgebraFunction,
  discreteEnergy,
  LieGroupOCP,
  type LieGroupOCPData,
  LiePoissonKernel,
} from '../src/lieGroupMechanics.js';
import { so3SteeringData } from '../src/ocp/so3Steering.js';
import { rigidBodyData } from '../src/rigidBody.js';

const M = (...v: number[]) => Float64Array.from(v);
const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s = Math.max(s, Math.abs(a[i]! - b[i]!));
  return s;
};
const hat = (x: ArrayLike<number>) => M(0, -x[2]!, x[1]!, x[2]!, 0, -x[0]!, -x[1]!, x[0]!, 0);

/** A non-quadratic Lagrangian and an affine, non-linear constraint without Hessians (FD path). */
const nonlinearData = (tau = so3Cayley): LieGroupOCPData => ({
  group: SO3,
  tau,
  l: (x) => 0.5 * (x[0]! ** 2 + 2 * x[1]! ** 2 + 3 * x[2]! ** 2) + 0.1 * x[0]! ** 4,
  dl: (o, x) => {
    o[0] = x[0]! + 0.4 * x[0]! ** 3;
    o[1] = 2 * x[1]!;
    o[2] = 3 * x[2]!;
    return o;
  },
  Psi: [
    {
      value: (x) => x[2]! + 0.2 * x[0]! * x[1]! - 0.3,
      grad: (o, x) => {
        o[0] = 0.2 * x[1]!;
        o[1] = 0.2 * x[0]!;
        o[2] = 1;
        return o;
      },
    },
  ],
});

describe('retraction conventions (spec 003 §8.1, CONVENTIONS.md)', () => {
  it('core dcayInv is the left-trivialized I + x̂/2 + xxᵀ/4 and inverts the FD tangent of cay (measured 0 and 4e-12)', () => {
    const x = M(0.3, -0.7, 0.5);
    const out = so3Cayley.dtauInv(new Float64Array(9), x);
    const expected = hat(x).map(
      (v, i) => 0.5 * v + (i % 4 === 0 ? 1 : 0) + 0.25 * x[Math.floor(i / 3)]! * x[i % 3]!,
    );
    expect(maxAbsDiff(out, expected)).toBeLessThan(1e-15);
    // left trivialization: cay(x)ᵀ d/dε cay(x + εδ) = (dcay_x δ)^, so dcay⁻¹_x (that)∨ = δ
    const delta = M(0.2, 0.1, -0.4);
    const eps = 1e-5;
    const gp = so3Cayley.tau(
      new Float64Array(9),
      x.map((v, i) => v + eps * delta[i]!),
    );
    const gm = so3Cayley.tau(
      new Float64Array(9),
      x.map((v, i) => v - eps * delta[i]!),
    );
    const g = so3Cayley.tau(new Float64Array(9), x);
    const dg = gp.map((v, i) => (v - gm[i]!) / (2 * eps));
    const W = new Float64Array(9);
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++)
        for (let k = 0; k < 3; k++) W[i * 3 + j] = W[i * 3 + j]! + g[k * 3 + i]! * dg[k * 3 + j]!;
    const w = M(W[7]!, W[2]!, W[3]!);
    const back = M(
      out[0]! * w[0]! + out[1]! * w[1]! + out[2]! * w[2]!,
      out[3]! * w[0]! + out[4]! * w[1]! + out[5]! * w[2]!,
      out[6]! * w[0]! + out[7]! * w[1]! + out[8]! * w[2]!,
    );
    expect(maxAbsDiff(back, delta)).toBeLessThan(1e-10);
  });
});

describe('LiePoissonKernel Jacobians against central differences', () => {
  const cases: [string, LieGroupOCPData][] = [
    ['SO(3) Cayley, analytic D, FD Hessians', nonlinearData(so3Cayley)],
    ['SO(3) exp, analytic D (closed form), FD Hessians', nonlinearData(so3Exp)],
  ];
  for (const [name, data] of cases) {
    it(`${name}: ∂P/∂ξ, ∂P/∂λ, ∂P/∂s (measured ≤ 7e-11 relative)`, () => {
      const K = new LiePoissonKernel(data);
      fc.assert(
        fc.property(
          fc.array(fc.double({ min: -2, max: 2, noNaN: true }), { minLength: 3, maxLength: 3 }),
          fc.double({ min: -1, max: 1, noNaN: true }),
          fc.double({ min: -0.6, max: 0.6, noNaN: true }),
          (xs, lam, s) => {
            const xi = Float64Array.from(xs);
            const z = Float64Array.of(xi[0]!, xi[1]!, xi[2]!, lam);
            const P = (out: Float64Array, v: Float64Array) => {
              K.momentum(out, v.subarray(0, 3), [v[3]!], s);
            };
            K.momentumJacobian(xi, [lam], s);
            const Jz = new Float64Array(12);
            for (let i = 0; i < 3; i++) {
              for (let j = 0; j < 3; j++) Jz[i * 4 + j] = K.dPdXi[i * 3 + j]!;
              Jz[i * 4 + 3] = K.dPdLambda[i]!;
            }
            const c1 = checkJacobian(P, Jz, z, 3, 4, { tol: 1e-8 });
            const ds = K.momentumStepDerivative(new Float64Array(3), xi, [lam], s);
            const c2 = checkJacobian(
              (out, v) => {
                K.momentum(out, xi, [lam], v[0]!);
              },
              ds,
              [s],
              3,
              1,
              { tol: 1e-8 },
            );
            return c1.ok && c2.ok;
          },
        ),
        { numRuns: 60 },
      );
    });
  }

  it('exp map: closed-form D(x, w) against central differences on both sides of the series switch θ = 0.5 (measured 1.5e-11)', () => {
    const K = new LiePoissonKernel(nonlinearData(so3Exp));
    const w = M(0.3, -1.1, 0.7);
    const u = M(0.6, 0.8, 0);
    const Mp = new Float64Array(9);
    const Mm = new Float64Array(9);
    let worst = 0;
    for (const theta of [1e-3, 0.1, 0.4999, 0.5001, 1.5, 3]) {
      const x = u.map((v) => v * theta);
      const D = K.dtauInvTransposeDerivative(new Float64Array(9), x, w);
      for (let j = 0; j < 3; j++) {
        const e = 1e-5;
        const xp = Float64Array.from(x);
        const xm = Float64Array.from(x);
        xp[j] = xp[j]! + e;
        xm[j] = xm[j]! - e;
        so3Exp.dtauInv(Mp, xp);
        so3Exp.dtauInv(Mm, xm);
        for (let i = 0; i < 3; i++) {
          let a = 0;
          for (let k = 0; k < 3; k++) a += (Mp[k * 3 + i]! - Mm[k * 3 + i]!) * w[k]!;
          worst = Math.max(worst, Math.abs(a / (2 * e) - D[i * 3 + j]!));
        }
      }
    }
    expect(worst).toBeLessThan(1e-9); // FD truncation ~1e-11 dominates
  });

  it('generic retraction (exp on SE(3)): finite-difference D and Hessians (measured 4e-11 relative)', () => {
    const data: LieGroupOCPData = {
      group: SE3,
      tau: expRetraction(SE3),
      l: (x) => 0.5 * x.reduce((s, v, i) => s + (i + 1) * v * v, 0),
      dl: (o, x) => {
        for (let i = 0; i < 6; i++) o[i] = (i + 1) * x[i]!;
        return o;
      },
    };
    const K = new LiePoissonKernel(data);
    const xi = M(0.3, -0.2, 0.5, 0.4, -0.6, 0.2);
    const s = 0.3;
    K.momentumJacobian(xi, [], s);
    const c = checkJacobian((out, v) => K.momentum(out, v, [], s), K.dPdXi, xi, 6, 6, {
      tol: 1e-8,
    });
    expect(c.ok).toBe(true);
  });
});

describe('LieGroupOCP: discrete constrained Lie–Poisson step (6.1-e)', () => {
  const h = 0.1;
  for (const tau of [so3Cayley, so3Exp]) {
    it(`${tau.name}: stepLP solves (6.1-e), satisfies (6.1-b) and stepBackward inverts it (measured ≤ 3e-15)`, () => {
      const ocp = new LieGroupOCP({ ...nonlinearData(tau), h });
      const xi = M(0.8, -0.5, 0.3 - 0.2 * 0.8 * -0.5);
      const lam = M(0.4);
      const xi1 = new Float64Array(3);
      const lam1 = new Float64Array(1);
      const r = ocp.stepLP(xi, lam, xi1, lam1);
      expect(r.iterations).toBeLessThanOrEqual(5); // measured 4
      const del = ocp.delResidual(new Float64Array(4), xi, lam, xi1, lam1);
      expect(maxAbsDiff(del, [0, 0, 0, 0])).toBeLessThan(1e-14); // measured 1e-16
      // (6.1-b): µ_{k+1} + λ_{k+1}Φ_{k+1} = Ad*_{g_k}(µ_k + λ_kΦ_k) with Ad*_g ν = gᵀν on SO(3)
      const lp = ocp.liePoissonResidual(new Float64Array(3), xi, lam, xi1, lam1);
      expect(maxAbsDiff(lp, [0, 0, 0])).toBeLessThan(1e-14); // measured 1e-16
      // and F⁺ = Ad*_g F⁻ at one increment (dτ⁻¹_x = dτ⁻¹_{−x}Ad_{τ(x)}), here gᵀF⁻
      const mom = ocp.momenta(xi, lam);
      const g = ocp.increment(new Float64Array(9), xi);
      const gtF = coAdjoint(SO3, new Float64Array(3), g, mom.minus);
      expect(maxAbsDiff(gtF, mom.plus)).toBeLessThan(1e-14);
      // backward
      const xb = new Float64Array(3);
      const lb = new Float64Array(1);
      ocp.stepBackward(xi1, lam1, xb, lb);
      expect(maxAbsDiff(xb, xi)).toBeLessThan(1e-13); // measured 3e-15
      expect(Math.abs(lb[0]! - lam[0]!)).toBeLessThan(1e-14); // measured 1e-16
    });
  }

  it('stepJacobian (the Newton Jacobian of stepLP and stepBackward) against central differences of the step residual (measured ≤ 7e-11 relative)', () => {
    // residual of the forward step at z = (ξ, λ): [F⁻(ξ, λ) − F⁺_k; Ψ(ξ)] = [−delResidual_0..d; Ψ];
    // of the backward step: [F⁺(ξ, λ) − F⁻_{k+1}; Ψ(ξ)]; built from the public momenta
    let worst = 0;
    for (const data of [
      nonlinearData(so3Cayley),
      nonlinearData(so3Exp),
      rigidBodyData([1, 2, 3]),
    ]) {
      const ocp = new LieGroupOCP({ ...data, h: 0.1 });
      const m = ocp.m;
      const n = 3 + m;
      for (const z of [M(0.8, -0.5, 0.3, 0.4), M(-1.1, 0.2, 0.7, -0.9), M(0.05, 0.01, -0.02, 2)]) {
        for (const dir of ['forward', 'backward'] as const) {
          const F = (out: Float64Array, u: Float64Array): void => {
            const xi = M(z[0]! + u[0]!, z[1]! + u[1]!, z[2]! + u[2]!);
            const lam = m === 0 ? [] : [z[3]! + u[3]!];
            const mom = ocp.momenta(xi, lam);
            const p = dir === 'forward' ? mom.minus : mom.plus;
            for (let i = 0; i < 3; i++) out[i] = p[i]!;
            ocp.kernel.constraints(out, xi, 3);
          };
          const J = ocp.stepJacobian(
            new Float64Array(n * n),
            z.subarray(0, 3),
            z.subarray(3, 3 + m),
            dir,
          );
          const fd = finiteDifferenceJacobian(
            new Float64Array(n * n),
            F,
            new Float64Array(n),
            n,
            n,
          );
          for (let i = 0; i < n * n; i++)
            worst = Math.max(worst, Math.abs(J[i]! - fd[i]!) / Math.max(1, Math.abs(fd[i]!)));
        }
      }
    }
    expect(worst).toBeLessThan(1e-8);
  });

  it('the S4 system: multipliers enter F^± through Φ = (dτ⁻¹_{−hξ})ᵀe3', () => {
    const ocp = new LieGroupOCP({ ...so3SteeringData('cayley'), h: 0.05 });
    const xi = M(1.2, -0.4, 0);
    const mu = new Float64Array(3);
    const Phi = new Float64Array(3);
    ocp.liePoissonParts(xi, mu, Phi);
    const minus = ocp.momenta(xi, [0.7]).minus;
    expect(
      maxAbsDiff(
        minus,
        mu.map((v, i) => v + 0.7 * Phi[i]!),
      ),
    ).toBeLessThan(1e-15);
  });

  it('errors: bad h, wrong sizes, Newton failure', () => {
    expect(() => new LieGroupOCP({ ...rigidBodyData([1, 2, 3]), h: 0 })).toThrow(DomainError);
    const ocp = new LieGroupOCP({ ...rigidBodyData([1, 2, 3]), h: 0.1, maxIterations: 1 });
    expect(() => ocp.stepLP(M(1, 2), [], new Float64Array(3), new Float64Array(0))).toThrow(
      DimensionError,
    );
    // one Newton iteration cannot reach 1e-14 from a large step
    expect(() => ocp.stepLP(M(3, -2, 1), [], new Float64Array(3), new Float64Array(0), 7)).toThrow(
      NewtonDivergedError,
    );
  });

  it('reconstruct and spatialMomentum: G_k = G_{k−1}τ(hξ_k), Ad*_{G⁻¹}F⁻ = G F⁻ on SO(3)', () => {
    const ocp = new LieGroupOCP({ ...rigidBodyData([1, 2, 3]), h: 0.1 });
    const G0 = SO3.exp(new Float64Array(9), M(0.1, 0.2, 0.3));
    const xi = M(0.8, -0.5, 0.3);
    const G1 = ocp.reconstruct(new Float64Array(9), G0, xi);
    const g = SO3.between(new Float64Array(9), G0, G1);
    expect(
      maxAbsDiff(
        g,
        so3Cayley.tau(
          new Float64Array(9),
          xi.map((v) => 0.1 * v),
        ),
      ),
    ).toBeLessThan(1e-15);
    const sp = ocp.spatialMomentum(new Float64Array(3), G0, xi, []);
    const Fm = ocp.momenta(xi, []).minus;
    const GF = M(
      G0[0]! * Fm[0]! + G0[1]! * Fm[1]! + G0[2]! * Fm[2]!,
      G0[3]! * Fm[0]! + G0[4]! * Fm[1]! + G0[5]! * Fm[2]!,
      G0[6]! * Fm[0]! + G0[7]! * Fm[1]! + G0[8]! * Fm[2]!,
    );
    expect(maxAbsDiff(sp, GF)).toBeLessThan(1e-15);
  });
});

describe("discreteEnergy (spec 003 §8.3, (E6.1-3) vs (E6.1-3'))", () => {
  it('adds λ(⟨∇Ψ, ξ⟩ − Ψ), which vanishes for homogeneous Ψ and is −λΨ(0) for affine Ψ', () => {
    const psi = (c: number): AlgebraFunction => ({
      value: (x) => x[2]! - c,
      grad: (o) => {
        o[0] = 0;
        o[1] = 0;
        o[2] = 1;
        return o;
      },
    });
    const xi = M(0.8, -0.5, 0.7);
    const base = 0.5 * (0.64 + 2 * 0.25 + 3 * 0.49);
    const affine = { ...rigidBodyData([1, 2, 3]), Psi: [psi(0.7)] };
    expect(discreteEnergy(affine, xi, [0.4], true)).toBeCloseTo(base, 15);
    expect(discreteEnergy(affine, xi, [0.4])).toBeCloseTo(base + 0.4 * 0.7, 15);
    const linear = { ...rigidBodyData([1, 2, 3]), Psi: [psi(0)] };
    expect(discreteEnergy(linear, xi, [0.4])).toBeCloseTo(base, 15);
  });
});
