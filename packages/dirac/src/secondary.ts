/**
 * Degenerate systems with hidden constraints in the discrete integrators: the constraint
 * algorithm's secondary position constraints S q = 0 (spec 002 §4.2, e.g. q_C1/C1 = q_C3/C3 of the
 * 4-port L-C circuit) appended to the constraint one-forms as their differentials S dq. Without
 * them the (±) Lagrange–Dirac step matrix [[D₂D₁L_d, hWᵀ], [W/h, 0]] of such a system is singular
 * for every h (ker D₂D₁L_d ∩ ker W contains the hidden constraint's direction).
 *
 * @module
 */
import { type ConstraintAlgorithmOptions, constraintAlgorithm } from './constraintAlgorithm.js';
import type { ImplicitLagrangianSystem } from './implicitSystem.js';
import type { Distribution } from './types.js';

/**
 * Δ' = ker [A(q); S]: the system's distribution with the secondary position constraints found by
 * {@link constraintAlgorithm} appended (constant rows, so their Ȧ rows vanish). Linear–quadratic
 * systems only, like the constraint algorithm.
 *
 * @example
 * ```ts
 * const circuit = lcCircuit4({ L: 0.7, C1: 0.3, C2: 0.5, C3: 0.9 });
 * const system = new ImplicitLagrangianSystem(circuit.lagrangian, circuit.distribution);
 * const Delta = withSecondaryConstraints(system); // m = 3: two KCL rows and q_C1/C1 = q_C3/C3
 * const { q: q0, v: v0 } = circuit.consistentInitialData(0.3, 0, 0);
 * integrateLagrangeDirac(circuit.lagrangian, Delta, 'dirac-plus', { q0, v0 }, 0.01, 1000);
 * ```
 */
export function withSecondaryConstraints(
  system: ImplicitLagrangianSystem,
  options: ConstraintAlgorithmOptions = {},
): Distribution {
  const base = system.Delta;
  const alg = constraintAlgorithm(system, options);
  const { n } = base;
  const extra = alg.positionConstraintCount;
  if (extra === 0) return base;
  const rows = alg.positionConstraints.slice(0, extra * n);
  return {
    n,
    m: base.m + extra,
    A(out, q) {
      base.A(out, q);
      out.set(rows, base.m * n);
      return out;
    },
    Adot(out, q, v) {
      base.Adot(out, q, v);
      out.fill(0, base.m * n, (base.m + extra) * n);
      return out;
    },
  };
}
