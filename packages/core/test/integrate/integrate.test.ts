import { describe, expect, it } from 'vitest';
import {
  DimensionError,
  DomainError,
  integrate,
  keptCount,
  methodTraits,
  NewtonDivergedError,
  NonFiniteError,
  Recorder,
  ResourceLimitError,
  recordingOptions,
  type Stepper,
} from '../../src/index.js';

/** Explicit Euler for y' = −a·y + u, recording y and the step's increment ('leaving'). */
function eulerStepper(a = 1, inputSize = 0): Stepper<'y' | 'dy'> & { calls: number } {
  let lastDy = Number.NaN;
  return {
    calls: 0,
    method: methodTraits({ name: 'explicit-euler', order: 1, isExplicit: true }),
    stateSize: 1,
    inputSize,
    lastResidual: 0,
    series: [
      { name: 'y', width: 1 },
      { name: 'dy', width: 1, timing: 'leaving' },
    ],
    step(s, _k, h, u) {
      this.calls++;
      lastDy = h * (-a * s[0]! + (inputSize > 0 ? u[0]! : 0));
      s[0] = s[0]! + lastDy;
      return 0;
    },
    record(out, s) {
      out[0] = s[0]!;
    },
    recordLeaving(out) {
      out[0] = lastDy;
    },
    peekLeaving(out, s, _k, _t, h) {
      out[0] = -h * a * s[0]!;
    },
  };
}

describe('keptCount', () => {
  it('counts the first, every every-th and the last state', () => {
    expect(keptCount(10, 1)).toBe(11);
    expect(keptCount(10, 5)).toBe(3);
    expect(keptCount(10, 3)).toBe(5);
    expect(keptCount(0, 7)).toBe(1);
    expect(keptCount(10, 20)).toBe(2);
  });
});

describe('integrate', () => {
  it('keeps every every-th state, the first and the last, at t0 + k·h', () => {
    const sol = integrate(eulerStepper(), [1], { h: 0.1, steps: 10, every: 3, t0: 2 });
    expect(sol.count).toBe(5);
    expect(Array.from(sol.k)).toEqual([0, 3, 6, 9, 10]);
    expect(sol.t[1]).toBe(2 + 3 * 0.1);
    expect(sol.t[4]).toBe(2 + 10 * 0.1);
    expect(sol.y[4]).toBeCloseTo(0.9 ** 10, 15);
    expect(sol.sample('y', 2)[0]).toBeCloseTo(0.9 ** 6, 15);
    expect(sol.last('y')[0]).toBe(sol.y[4]);
    expect(sol.ok).toBe(true);
    expect(sol.steps).toBe(10);
    expect(sol.method.name).toBe('explicit-euler');
  });

  it("fills 'leaving' series from the step leaving each kept state, and peeks for the last", () => {
    const sol = integrate(eulerStepper(), [1], { h: 0.1, steps: 4, every: 2 });
    // kept states 0, 2, 4; dy of state j is −h·y_j
    for (let j = 0; j < sol.count; j++) expect(sol.dy[j]).toBeCloseTo(-0.1 * sol.y[j]!, 15);
  });

  it('passes inputs as a matrix or a function, and time to the stepper', () => {
    const s = eulerStepper(0, 1);
    const byMatrix = integrate(s, [0], { h: 0.5, steps: 4, inputs: [1, 2, 3, 4] });
    expect(byMatrix.y[4]).toBe(0.5 * (1 + 2 + 3 + 4));
    const byFunction = integrate(s, [0], {
      h: 0.5,
      steps: 4,
      inputs: (out, k, t) => {
        out[0] = k + 1 + 0 * t;
      },
    });
    expect(byFunction.y[4]).toBe(byMatrix.y[4]);
    expect(() => integrate(s, [0], { h: 0.5, steps: 4, inputs: [1, 2, 3] })).toThrow(
      DimensionError,
    );
  });

  it('reports progress every PROGRESS_INTERVAL_STEPS steps', () => {
    const calls: number[] = [];
    integrate(eulerStepper(), [1], {
      h: 1e-6,
      steps: 10000,
      every: 10000,
      onProgress: (done) => calls.push(done),
    });
    expect(calls).toEqual([4096, 8192]);
  });

  it('validates its options and the initial state', () => {
    const s = eulerStepper();
    expect(() => integrate(s, [1], { h: 0, steps: 1 })).toThrow(DomainError);
    expect(() => integrate(s, [1], { h: 0.1, steps: -1 })).toThrow(DomainError);
    expect(() => integrate(s, [1], { h: 0.1, steps: 1.5 })).toThrow(DomainError);
    expect(() => integrate(s, [1], { h: 0.1, steps: 1, every: 0 })).toThrow(DomainError);
    expect(() => integrate(s, [1, 2], { h: 0.1, steps: 1 })).toThrow(DimensionError);
    expect(() => integrate(s, [Number.NaN], { h: 0.1, steps: 1 })).toThrow(NonFiniteError);
    expect(() => integrate(s, [1], { h: 1e300, steps: 1e10 })).toThrow(DomainError);
  });

  it('refuses a record larger than the limit before taking a step', () => {
    const s = eulerStepper();
    expect(() => integrate(s, [1], { h: 1e-9, steps: 1e12 })).toThrow(ResourceLimitError);
    expect(s.calls).toBe(0);
    expect(() => integrate(s, [1], { h: 0.1, steps: 1000, maxRecordBytes: 1000 })).toThrow(
      /trajectory storage: 32032 bytes exceeds the limit 1000 bytes/,
    );
  });

  it("returns the partial run with onFailure: 'return', rethrows by default", () => {
    const failing: Stepper<'y'> = {
      method: methodTraits({ name: 'failing' }),
      stateSize: 1,
      inputSize: 0,
      lastResidual: 1e-14,
      series: [{ name: 'y', width: 1 }],
      step(s, k) {
        if (k === 7) throw new NewtonDivergedError(50, 1e-3, k);
        s[0] = s[0]! + 1;
        return 3;
      },
      record(out, s) {
        out[0] = s[0]!;
      },
    };
    expect(() => integrate(failing, [0], { h: 1, steps: 10 })).toThrow(NewtonDivergedError);
    const sol = integrate(failing, [0], { h: 1, steps: 10, every: 5, onFailure: 'return' });
    expect(sol.ok).toBe(false);
    expect(sol.failure?.step).toBe(7);
    expect(sol.failure?.error).toBeInstanceOf(NewtonDivergedError);
    expect(Array.from(sol.k)).toEqual([0, 5, 7]);
    expect(Array.from(sol.y)).toEqual([0, 5, 7]);
    expect(sol.steps).toBe(7);
    expect(sol.stats.newtonIterations).toBe(21);
    expect(sol.stats.maxIterations).toBe(3);
    expect(sol.stats.maxResidual).toBe(1e-14);
  });

  it('runs 10⁶ steps keeping only the first and the last state', () => {
    const s = eulerStepper(1e-7);
    const sol = integrate(s, [1], { h: 1, steps: 1_000_000, every: 1_000_000 });
    expect(sol.count).toBe(2);
    // 10⁶ roundings of relative size ε/2 each: |error| ≤ 10⁶·ε ≈ 2.2e-10
    expect(Math.abs(sol.y[1]! - (1 - 1e-7) ** 1e6)).toBeLessThan(2.3e-10);
  });
});

describe('Recorder', () => {
  it('refuses reserved and duplicate names and bad widths', () => {
    const m = methodTraits({ name: 'x' });
    expect(() => new Recorder(m, [{ name: 'count', width: 1 }], 1)).toThrow(DomainError);
    expect(
      () =>
        new Recorder(
          m,
          [
            { name: 'q', width: 1 },
            { name: 'q', width: 2 },
          ],
          1,
        ),
    ).toThrow(DomainError);
    expect(() => new Recorder(m, [{ name: 'q', width: -1 }], 1)).toThrow(DomainError);
    expect(() => new Recorder(m, [{ name: 'q', width: 1.5 }], 1)).toThrow(DomainError);
    const r = new Recorder(m, [{ name: 'q', width: 1 }], 1);
    r.keep(0, 0, [1]);
    expect(() => r.keep(1, 1, [2])).toThrow(DomainError);
    const sol = r.finish({ steps: 0, h: Number.NaN });
    expect(() => sol.sample('q', 1)).toThrow(DomainError);
    expect(() => sol.get('p' as 'q')).toThrow(DomainError);
  });
});

describe('Recorder with an empty series', () => {
  it('keeps width-0 series (multipliers of an unconstrained system) as empty data', () => {
    const m = methodTraits({ name: 'x' });
    const r = new Recorder(
      m,
      [
        { name: 'q', width: 2 },
        { name: 'lambda', width: 0 },
        { name: 'mu', width: 0, timing: 'leaving' },
      ],
      2,
    );
    expect(r.stateWidth).toBe(2);
    expect(r.leavingWidth).toBe(0);
    r.keep(0, 0, [1, 2]);
    r.setLeaving([]);
    r.keep(1, 0.5, [3, 4]);
    const sol = r.finish({ steps: 1, h: 0.5 });
    expect(sol.lambda.length).toBe(0);
    expect(sol.width('lambda')).toBe(0);
    expect(sol.sample('lambda', 1).length).toBe(0);
    expect(sol.last('mu').length).toBe(0);
    expect(Array.from(sol.last('q'))).toEqual([3, 4]);
  });
});

describe('methodTraits', () => {
  it('freezes, keeps unknown traits undefined and checks the CLI spelling', () => {
    const m = methodTraits({ name: 'dirac-2c', order: 2, stepsUsed: 2 });
    expect(Object.isFrozen(m)).toBe(true);
    expect(m.isSymplectic).toBeUndefined();
    expect(m.stepsUsed).toBe(2);
    expect(() => methodTraits({ name: 'Dirac2c' })).toThrow(DomainError);
    expect(() => methodTraits({ name: 'dirac_2c' })).toThrow(DomainError);
    expect(() => methodTraits({ name: 'rk4', order: 0 })).toThrow(DomainError);
  });
});

describe('integrate: time reaches the step through reset and k', () => {
  /**
   * A time-dependent stepper: explicit Euler for y' = cos t − y, keeping t0 from reset and stepping
   * from t_k = t0 + k·h; records the (k, t) of every step and fails at a chosen time.
   */
  function clocked(failAt = Number.NaN): Stepper<'y'> & {
    ks: number[];
    ts: number[];
    failAt: number;
  } {
    let t0 = 0;
    return {
      ks: [],
      ts: [],
      failAt,
      method: methodTraits({ name: 'explicit-euler', order: 1, isExplicit: true }),
      stateSize: 1,
      inputSize: 0,
      lastResidual: 0,
      series: [{ name: 'y', width: 1 }],
      reset(_s, t0Run) {
        t0 = t0Run;
      },
      step(s, k, h) {
        const t = t0 + k * h;
        if (t === this.failAt) throw new NewtonDivergedError(1, 1, k);
        this.ks.push(k);
        this.ts.push(t);
        s[0] = s[0]! + h * (Math.cos(t) - s[0]!);
        return 0;
      },
      record(out, s) {
        out[0] = s[0]!;
      },
    };
  }

  it('step k runs from t0 + k·h (bit for bit the sample times), whatever `every`', () => {
    const h = 0.1;
    const t0 = 2;
    const ref = clocked();
    const all = integrate(ref, [1], { h, steps: 10, t0 });
    expect(ref.ks).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(ref.ts).toEqual(ref.ks.map((k) => t0 + k * h));
    // every kept sample at step k < steps is at the time the step leaving it received
    for (let j = 0; j < 10; j++) expect(all.t[j]).toBe(ref.ts[j]);
    for (const every of [3, 7, 20]) {
      const st = clocked();
      const sol = integrate(st, [1], { h, steps: 10, t0, every });
      expect(st.ts).toEqual(ref.ts);
      expect(sol.y[sol.count - 1]).toBe(all.y[10]); // the same trajectory
      for (let j = 0; j < sol.count - 1; j++) expect(sol.t[j]).toBe(ref.ts[sol.k[j]!]);
    }
    // given by tEnd: h = (tEnd − t0)/steps, the step times t0 + k·h, the last sample exactly tEnd
    const byEnd = clocked();
    const e = integrate(byEnd, [1], { tEnd: 3, steps: 10, t0 });
    expect(byEnd.ts).toEqual(ref.ks.map((k) => t0 + k * ((3 - t0) / 10)));
    expect(e.t[10]).toBe(3);
  });

  it('a restart (a second run of the same stepper, from a failure) steps from its own t0', () => {
    const h = 0.25;
    const st = clocked(1 + 5 * h);
    const first = integrate(st, [0], { h, steps: 8, t0: 1, onFailure: 'return' });
    expect(first.failure?.step).toBe(5);
    expect(first.failure?.t).toBe(1 + 5 * h);
    expect(st.ts).toEqual([1, 1 + h, 1 + 2 * h, 1 + 3 * h, 1 + 4 * h]);
    // restart from the last good state (step 5, t = 2.25) once the cause is gone
    st.failAt = Number.NaN;
    st.ks.length = 0;
    st.ts.length = 0;
    const tRestart = first.t[first.count - 1]!;
    expect(tRestart).toBe(1 + 5 * h);
    const last = Array.from(first.y.subarray(first.count - 1));
    integrate(st, last, { h: 0.2, steps: 3, t0: tRestart });
    expect(st.ks).toEqual([0, 1, 2]);
    expect(st.ts).toEqual([tRestart, tRestart + 0.2, tRestart + 2 * 0.2]);
    // and backward in time from there
    st.ts.length = 0;
    integrate(st, last, { h: -0.5, steps: 2, t0: tRestart });
    expect(st.ts).toEqual([tRestart, tRestart - 0.5]);
  });
});

describe('time without boxing: record and the recorder get k, the sample time is t0 + k·h', () => {
  /** A stepper that logs the time argument of each record (undefined when not passed). */
  function timeLogger(): Stepper<'y'> & { times: (number | undefined)[] } {
    const times: (number | undefined)[] = [];
    return {
      times,
      method: methodTraits({ name: 'log', order: 1, isExplicit: true }),
      stateSize: 1,
      inputSize: 0,
      lastResidual: 0,
      series: [{ name: 'y', width: 1 }],
      step: (s) => {
        s[0] = s[0]! + 1;
        return 0;
      },
      record: (out, s, _k, t) => {
        out[0] = s[0]!;
        times.push(t);
      },
    };
  }
  it('passes t only to the first sample (t0) and to a tEnd last sample (exactly tEnd)', () => {
    const a = timeLogger();
    const sol = integrate(a, [0], { t0: 0.1, h: 0.3, steps: 7, every: 2 });
    expect(a.times).toEqual([0.1, undefined, undefined, undefined, undefined]);
    for (let j = 0; j < sol.count; j++)
      expect(Object.is(sol.t[j], 0.1 + sol.k[j]! * 0.3)).toBe(true);
    const b = timeLogger();
    const solEnd = integrate(b, [0], { t0: 0.1, tEnd: 1, steps: 3 });
    expect(b.times).toEqual([0.1, undefined, undefined, 1]);
    expect(solEnd.t[3]).toBe(1);
    const h = (1 - 0.1) / 3;
    expect(Object.is(solEnd.t[1], 0.1 + 1 * h)).toBe(true);
    expect(Object.is(solEnd.t[2], 0.1 + 2 * h)).toBe(true);
  });
  it('Recorder.keepStep stores t0 + k·h bit for bit, and needs setClock', () => {
    const r = new Recorder(methodTraits({ name: 'demo' }), [{ name: 'y', width: 1 }], 3);
    expect(() => r.keepStep(0, [1])).toThrow(DomainError);
    expect(() => r.setClock(Number.NaN, 0.1)).toThrow(DomainError);
    r.setClock(0.7, 0.1);
    r.keepStep(0, [1]);
    r.keepStep(3, [2]);
    r.keepStep(1e6, [3]);
    const sol = r.finish({ steps: 1e6, h: 0.1 });
    expect(Array.from(sol.t)).toEqual([0.7, 0.7 + 3 * 0.1, 0.7 + 1e6 * 0.1]);
    expect(Array.from(sol.k)).toEqual([0, 3, 1e6]);
    expect(Array.from(sol.y)).toEqual([1, 2, 3]);
  });
});

describe('recordingOptions', () => {
  it('copies the six recording options that are set, and nothing else', () => {
    const onProgress = (): void => {};
    const inputs = Float64Array.of(1, 2);
    const all = recordingOptions({
      t0: 2,
      every: 3,
      inputs,
      onProgress,
      onFailure: 'return',
      maxRecordBytes: 1024,
      tol: 1e-9,
      steps: 7,
    } as Parameters<typeof recordingOptions>[0]);
    expect(all).toEqual({
      t0: 2,
      every: 3,
      inputs,
      onProgress,
      onFailure: 'return',
      maxRecordBytes: 1024,
    });
    expect(all.inputs).toBe(inputs);
    const some = recordingOptions({ every: 5, t0: undefined } as unknown as Parameters<
      typeof recordingOptions
    >[0]);
    expect(Object.keys(some)).toEqual(['every']);
    expect(Object.keys(recordingOptions({}))).toEqual([]);
  });

  it('a run with the picked options equals a run with the same options written out', () => {
    const u = Float64Array.from({ length: 10 }, (_, k) => 0.1 * k);
    const direct = integrate(eulerStepper(1, 1), [1], {
      h: 0.1,
      steps: 10,
      t0: 1,
      every: 3,
      inputs: u,
    });
    const picked = integrate(eulerStepper(1, 1), [1], {
      h: 0.1,
      steps: 10,
      ...recordingOptions({ t0: 1, every: 3, inputs: u }),
    });
    expect(picked.count).toBe(5); // k = 0, 3, 6, 9, 10
    expect(Array.from(picked.t)).toEqual(Array.from(direct.t));
    expect(Array.from(picked.y)).toEqual(Array.from(direct.y));
    expect(picked.t[4]).toBe(2);
  });
});
