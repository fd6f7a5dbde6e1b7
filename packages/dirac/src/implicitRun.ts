/**
 * Private to the implicit-system solvers (not re-exported from `index.ts`): their output times and
 * DOPRI5 options, and the builder of their {@link ImplicitSolution} from a sampled run.
 *
 * @module
 */
import {
  DomainError,
  type Dopri5Options,
  extendSolution,
  type IntegrationStats,
  type MethodTraits,
  matVec,
  Recorder,
  type SeriesSpec,
} from '@geomech/core';
import type {
  ImplicitIntegrationOptions,
  ImplicitSeries,
  ImplicitSolution,
} from './implicitSolution.js';
import type { ImplicitLagrangianSystem } from './implicitSystem.js';
import { checkFinite, maxAbs } from './internal.js';
import { generalizedEnergy } from './lagrangian.js';

/** The output times of an implicit-system solver: `tEval`, or `samples` equidistant times. */
export function sampleTimes(
  what: string,
  t0: number,
  tEnd: number,
  o: ImplicitIntegrationOptions,
): Float64Array {
  if (!Number.isFinite(t0)) throw new DomainError(`${what}: t0`, t0, 'must be finite');
  if (!(Number.isFinite(tEnd) && tEnd > t0))
    throw new DomainError(`${what}: tEnd`, tEnd, `must be finite and > t0 = ${t0}`);
  if (o.tEval !== undefined) {
    const t = Float64Array.from(o.tEval);
    if (t.length < 1) throw new DomainError(`${what}: tEval`, t.length, 'must not be empty');
    for (let k = 0; k < t.length; k++) {
      const tk = t[k]!;
      if (!(tk >= t0 && tk <= tEnd) || (k > 0 && !(tk > t[k - 1]!)))
        throw new DomainError(`${what}: tEval[${k}]`, tk, `must increase inside [${t0}, ${tEnd}]`);
    }
    return t;
  }
  const s = o.samples ?? 101;
  if (!Number.isInteger(s) || s < 2)
    throw new DomainError(`${what}: samples`, s, 'must be an integer ≥ 2');
  const t = new Float64Array(s);
  for (let k = 0; k < s; k++) t[k] = t0 + ((tEnd - t0) * k) / (s - 1);
  t[s - 1] = tEnd;
  return t;
}

/** The DOPRI5 options of an implicit-system solver (rtol 1e-10, atol 1e-12 by default). */
export function dopriOptions(
  o: ImplicitIntegrationOptions,
  tEval: Float64Array | undefined,
): Dopri5Options {
  const out: { -readonly [K in keyof Dopri5Options]: Dopri5Options[K] } = {
    rtol: o.rtol ?? 1e-10,
    atol: o.atol ?? 1e-12,
    dense: false,
  };
  if (o.hmax !== undefined) out.hmax = o.hmax;
  if (o.maxSteps !== undefined) out.maxSteps = o.maxSteps;
  if (tEval !== undefined) out.tEval = tEval;
  return out;
}

/** The sampled states of a solver's run, before the derived series are added. */
export interface SampledRun {
  readonly method: MethodTraits;
  /** Output times (count). */
  readonly t: Float64Array;
  /** Step index of each output (e.g. DOPRI5's accepted steps so far), count. */
  readonly k: ArrayLike<number>;
  /** q at the outputs (count × n). */
  readonly q: Float64Array;
  /** v at the outputs (count × n). */
  readonly v: Float64Array;
  /** Steps taken by the run. */
  readonly steps: number;
  readonly stats: IntegrationStats;
}

/** A solver's own series: a name, its width and its `count × width` data. */
export interface ExtraSeries<X extends string> {
  readonly name: X;
  readonly width: number;
  readonly data: Float64Array;
}

/**
 * Builds the {@link ImplicitSolution} of a sampled run: p, energy and |A v| from (q, v), μ by the
 * solver's `muAt(out, k, q, v)`, the position residual by `positionAt` (when given) and the
 * solver's own series. Cold path (allocates the solution and one row of scratch).
 */
export function implicitSolution<X extends string = never>(
  system: ImplicitLagrangianSystem,
  run: SampledRun,
  muAt: (out: Float64Array, k: number, q: Float64Array, v: Float64Array) => void,
  positionAt: ((q: Float64Array) => number) | undefined,
  initialCorrection: number,
  extra?: ExtraSeries<X>,
): ImplicitSolution<X> {
  const { n, m, L } = system;
  const count = run.t.length;
  type F = ImplicitSeries | 'positionResidual' | X;
  const specs: SeriesSpec<F>[] = [
    { name: 'q', width: n },
    { name: 'v', width: n },
    { name: 'p', width: n },
    { name: 'mu', width: m },
    { name: 'energy', width: 1 },
    { name: 'velocityResidual', width: 1 },
  ];
  if (positionAt !== undefined) specs.push({ name: 'positionResidual', width: 1 });
  if (extra !== undefined) specs.push({ name: extra.name, width: extra.width });
  const rec = new Recorder<F>(run.method, specs, Math.max(count, 1));
  const w = extra?.width ?? 0;
  const row = new Float64Array(3 * n + m + 3 + w);
  const q = new Float64Array(n);
  const v = new Float64Array(n);
  const p = row.subarray(2 * n, 3 * n);
  const mu = row.subarray(3 * n, 3 * n + m);
  const A = new Float64Array(m * n);
  const Av = new Float64Array(m);
  let velocity = 0;
  let position = 0;
  let e0 = 0;
  let energyDrift = 0;
  for (let k = 0; k < count; k++) {
    for (let i = 0; i < n; i++) {
      q[i] = run.q[k * n + i]!;
      v[i] = run.v[k * n + i]!;
    }
    row.set(q, 0);
    row.set(v, n);
    L.Lv(p, q, v);
    checkFinite('implicit solution: p', p);
    muAt(mu, k, q, v);
    checkFinite('implicit solution: μ', mu);
    let off = 3 * n + m;
    const energy = generalizedEnergy(L, q, v, p);
    row[off++] = energy;
    if (k === 0) e0 = energy;
    energyDrift = Math.max(energyDrift, Math.abs(energy - e0));
    system.Delta.A(A, q);
    matVec(Av, A, m, n, v);
    const vres = maxAbs(Av);
    velocity = Math.max(velocity, vres);
    row[off++] = vres;
    if (positionAt !== undefined) {
      const pres = positionAt(q);
      position = Math.max(position, pres);
      row[off++] = pres;
    }
    if (extra !== undefined) for (let c = 0; c < w; c++) row[off + c] = extra.data[k * w + c]!;
    rec.keep(run.k[k]!, run.t[k]!, row);
  }
  const sol = rec.finish({ steps: run.steps, h: Number.NaN, stats: run.stats });
  return extendSolution(sol, {
    initialCorrection,
    constraintDrift: { velocity, position: positionAt === undefined ? undefined : position },
    energyDrift,
  }) as unknown as ImplicitSolution<X>;
}
