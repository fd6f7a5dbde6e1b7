/**
 * `geomech order <system>`: a convergence study. Runs `--levels K` step sizes h0, h0/2, … to
 * `--t-end` with the `simulate` options, compares the final state with the system's exact (or
 * reference-accurate) solution and reports the least-squares slope of log(error) against log(h)
 * (core's `convergenceOrder`: points below 1e-13 dropped, at least 3 points).
 *
 * @module
 */
import { NumericalFailure, UsageError } from '../errors.js';
import { formatCount, MAX_ORDER_LEVELS, MAX_ORDER_STEPS } from '../limits.js';
import { findSystem } from '../registry.js';
import type { SimulateRequest } from '../runner.js';
import { parseCount } from '../values.js';
import { resolveSimulate, type SimulateOptions } from './simulate.js';

/** Raw options of `order`: those of `simulate` without `--steps`, `--every`, `--format`. */
export interface OrderOptions extends Omit<SimulateOptions, 'steps' | 'every' | 'format'> {
  levels?: string;
}

/** Default horizon and first step of an order study when the user gives none. */
const DEFAULT_T_END = 10;
const DEFAULT_H0 = 0.1;
const DEFAULT_LEVELS = 5;
const DEFAULT_V0 = 1;
/** Errors below this are round-off: an order is not defined (core's convergenceOrder floor is 1e-13). */
const ROUND_OFF_ERROR = 1e-11;

/** Runs the study and returns the JSON document `{ h, error, order, ... }`. */
export async function runOrder(name: string, o: OrderOptions): Promise<string> {
  const levels =
    o.levels === undefined
      ? DEFAULT_LEVELS
      : parseCount(o.levels, '--levels', 1, MAX_ORDER_LEVELS, 'levels');
  if (levels < 3)
    throw new UsageError(`a convergence order needs at least 3 levels, got ${levels}`, '--levels');
  // An order study needs a start independent of h: (q0, v0, z0) rather than the two-point
  // (q0, q1, z0). When the user names neither q1 nor v0, start with v0 = DEFAULT_V0.
  const named = o.init.map((item) => item.split('=')[0]?.trim());
  const system = findSystem(name, 'system');
  const needsV0 =
    system !== undefined &&
    !named.includes('q1') &&
    !named.includes('v0') &&
    system.initAlternatives?.some((alt) => alt.includes('v0')) === true &&
    !system.init.some((q) => q.name === 'v0');
  const base = resolveSimulate(
    name,
    {
      ...o,
      init: needsV0 ? [...o.init, `v0=${DEFAULT_V0}`] : o.init,
      h: o.h ?? String(DEFAULT_H0),
      tEnd: o.tEnd ?? String(DEFAULT_T_END),
    },
    undefined,
    { outputSize: false },
  );
  const runner = await base.system.load();
  if (!runner.reference || !runner.orderFields) {
    throw new UsageError(
      `${base.system.name} has no reference solution for an order study`,
      'geomech order',
    );
  }
  for (const required of runner.orderInit ?? []) {
    if (!base.init.has(required)) {
      throw new UsageError(
        `an order study needs an h-independent start: give ${runner.orderInit!.join(', ')}`,
        '--init',
      );
    }
  }
  // level k runs steps0·2^k steps: the total doubles with each level
  const total = base.steps * (2 ** levels - 1);
  if (total > MAX_ORDER_STEPS)
    throw new UsageError(
      `${levels} levels from ${formatCount(base.steps)} steps run ${formatCount(total)} steps in all, over the limit of ${formatCount(MAX_ORDER_STEPS)}; use fewer --levels, a larger --h or a shorter --t-end`,
      '--levels',
    );
  const tEnd = base.steps * base.h;
  const hs: number[] = [];
  const errors: number[] = [];
  let stepsTotal = 0;
  for (let level = 0; level < levels; level++) {
    const steps = base.steps * 2 ** level;
    const request: SimulateRequest = { ...base, h: tEnd / steps, steps, every: steps };
    const out = runner.simulate(request);
    const ref = runner.reference(request);
    let err = 0;
    let offset = 0;
    for (const field of runner.orderFields) {
      const s = out.series.find((x) => x.name === field);
      if (!s) throw new NumericalFailure(`series ${field} missing`, 'geomech order');
      for (let j = 0; j < s.width; j++) {
        const value = s.data[(out.count - 1) * s.width + j]!;
        err = Math.max(err, Math.abs(value - ref[offset + j]!));
      }
      offset += s.width;
    }
    if (!Number.isFinite(err))
      throw new NumericalFailure(`non-finite error at h = ${request.h}`, 'geomech order');
    hs.push(request.h);
    errors.push(err);
    stepsTotal += steps;
  }
  // An exact method leaves only round-off: no slope to fit, say so instead of failing.
  const roundOff = errors.every((e) => e < ROUND_OFF_ERROR);
  // imported here: `geomech --version` and the other commands do not load core for it
  const { convergenceOrder } = await import('@geomech/core');
  const order = roundOff ? null : convergenceOrder(hs, errors).order;
  return `${JSON.stringify({
    ok: true,
    system: base.system.name,
    method: base.method,
    tEnd,
    params: Object.fromEntries([...base.params].map(([k, v]) => [k, v.length === 1 ? v[0] : v])),
    init: Object.fromEntries([...base.init].map(([k, v]) => [k, v.length === 1 ? v[0] : v])),
    fields: runner.orderFields,
    h: hs,
    error: errors,
    order,
    ...(roundOff
      ? { note: `every error is below ${ROUND_OFF_ERROR}: the method is exact to round-off` }
      : {}),
    stats: { steps: stepsTotal },
  })}\n`;
}
