/**
 * IPOPT's gradient-based scaling as a problem adapter (internal): the solver iterates on
 *
 *     f̃ = s_f·f,   c̃ᵢ = d_c,ᵢ·cᵢ,   g̃ᵢ = d_g,ᵢ·gᵢ,   h̃ᵢ = d_h,ᵢ·hᵢ,
 *
 * with s_f = min(1, g_max/‖∇f(x₀)‖∞) and d_ᵢ = min(1, g_max/‖∇cᵢ(x₀)‖∞), both at least
 * `nlpScalingMinValue` (IPOPT's `nlp_scaling_method gradient-based`, g_max =
 * `nlp_scaling_max_gradient` = 100; Wächter & Biegler 2006 §3.8). The scaled problem's Lagrangian
 * Hessian with multipliers (σ̃, λ̃, μ̃, η̃) is the original one with (s_f σ̃, d_c λ̃, d_g μ̃, d_h η̃), so
 * the adapter rescales the weights it passes down and the values and Jacobian rows it gets back;
 * states, controls and the retraction are unchanged. When every factor is 1 the adapter passes
 * calls through untouched.
 *
 * @module
 */
import type { OcpStageDims, OcpStageEval, StageOcp } from './problem.js';

/** Per-stage offsets of a flat array with `size(k)` entries per stage. */
export function stageOffsets(count: number, size: (k: number) => number): Int32Array {
  const o = new Int32Array(count + 1);
  for (let k = 0; k < count; k++) o[k + 1] = o[k]! + size(k);
  return o;
}

/** A {@link StageOcp} seen through objective and constraint-row scaling factors. */
export class ScaledStageOcp implements StageOcp {
  readonly N: number;
  readonly inner: StageOcp;
  readonly stageDims: readonly OcpStageDims[];
  readonly storage: Int32Array;
  /** s_f. */
  objScale = 1;
  /** d_c per dynamics row (offsets `cOff`), d_g per equality row, d_h per inequality row. */
  readonly cScale: Float64Array;
  readonly gScale: Float64Array;
  readonly hScale: Float64Array;
  readonly cOff: Int32Array;
  readonly gOff: Int32Array;
  readonly hOff: Int32Array;
  private identity = true;
  private readonly lamPass: Float64Array[];
  private readonly muPass: Float64Array[];
  private readonly etaPass: Float64Array[];

  constructor(inner: StageOcp, dims: readonly OcpStageDims[], storage: Int32Array) {
    this.inner = inner;
    this.N = inner.N;
    this.stageDims = dims;
    this.storage = storage;
    const count = this.N + 1;
    this.cOff = stageOffsets(count, (k) => (k < this.N ? dims[k + 1]!.nx : 0));
    this.gOff = stageOffsets(count, (k) => dims[k]!.ng);
    this.hOff = stageOffsets(count, (k) => dims[k]!.nh);
    this.cScale = new Float64Array(this.cOff[count]!).fill(1);
    this.gScale = new Float64Array(this.gOff[count]!).fill(1);
    this.hScale = new Float64Array(this.hOff[count]!).fill(1);
    const lam = new Float64Array(this.cOff[count]!);
    const mu = new Float64Array(this.gOff[count]!);
    const eta = new Float64Array(this.hOff[count]!);
    this.lamPass = [];
    this.muPass = [];
    this.etaPass = [];
    for (let k = 0; k < count; k++) {
      this.lamPass.push(lam.subarray(this.cOff[k]!, this.cOff[k + 1]!));
      this.muPass.push(mu.subarray(this.gOff[k]!, this.gOff[k + 1]!));
      this.etaPass.push(eta.subarray(this.hOff[k]!, this.hOff[k + 1]!));
    }
  }

  /** Resets every factor to 1 (the adapter then passes calls through). */
  resetScaling(): void {
    this.objScale = 1;
    this.cScale.fill(1);
    this.gScale.fill(1);
    this.hScale.fill(1);
    this.identity = true;
  }

  /** Whether every factor is 1 (the adapter passes calls through). */
  get isIdentity(): boolean {
    return this.identity;
  }

  /** Recomputes whether every factor is 1 (call after changing them). */
  updateIdentity(): void {
    let id = this.objScale === 1;
    for (const a of [this.cScale, this.gScale, this.hScale]) {
      for (let i = 0; i < a.length && id; i++) if (a[i] !== 1) id = false;
    }
    this.identity = id;
  }

  dims(k: number): OcpStageDims {
    return this.stageDims[k]!;
  }

  stateStorage(k: number): number {
    return this.storage[k]!;
  }

  retract(k: number, out: Float64Array, x: Float64Array, dx: Float64Array): void {
    this.inner.retract(k, out, x, dx);
  }

  evaluate(
    k: number,
    x: Float64Array,
    u: Float64Array,
    xNext: Float64Array | undefined,
    level: 0 | 1 | 2,
    sigma: number,
    lambda: Float64Array,
    mu: Float64Array,
    eta: Float64Array,
    out: OcpStageEval,
  ): void {
    if (this.identity) {
      this.inner.evaluate(k, x, u, xNext, level, sigma, lambda, mu, eta, out);
      return;
    }
    const co = this.cOff[k]!;
    const go = this.gOff[k]!;
    const ho = this.hOff[k]!;
    const ny = this.cOff[k + 1]! - co;
    const ng = this.gOff[k + 1]! - go;
    const nh = this.hOff[k + 1]! - ho;
    const lp = this.lamPass[k]!;
    const mp = this.muPass[k]!;
    const ep = this.etaPass[k]!;
    if (level === 2) {
      for (let i = 0; i < ny; i++) lp[i] = lambda[i]! * this.cScale[co + i]!;
      for (let i = 0; i < ng; i++) mp[i] = mu[i]! * this.gScale[go + i]!;
      for (let i = 0; i < nh; i++) ep[i] = eta[i]! * this.hScale[ho + i]!;
    }
    const sf = this.objScale;
    this.inner.evaluate(k, x, u, xNext, level, sigma * sf, lp, mp, ep, out);
    out.cost *= sf;
    const d = this.stageDims[k]!;
    const nw = d.nx + d.nu;
    for (let i = 0; i < ny; i++) out.c[i] = out.c[i]! * this.cScale[co + i]!;
    for (let i = 0; i < ng; i++) out.g[i] = out.g[i]! * this.gScale[go + i]!;
    for (let i = 0; i < nh; i++) out.h[i] = out.h[i]! * this.hScale[ho + i]!;
    if (level === 0) return;
    for (let a = 0; a < nw; a++) out.costGrad[a] = out.costGrad[a]! * sf;
    const cw = nw + ny;
    for (let i = 0; i < ny; i++) {
      const s = this.cScale[co + i]!;
      for (let a = 0; a < cw; a++) out.cJac[i * cw + a] = out.cJac[i * cw + a]! * s;
    }
    for (let i = 0; i < ng; i++) {
      const s = this.gScale[go + i]!;
      for (let a = 0; a < nw; a++) out.gJac[i * nw + a] = out.gJac[i * nw + a]! * s;
    }
    for (let i = 0; i < nh; i++) {
      const s = this.hScale[ho + i]!;
      for (let a = 0; a < nw; a++) out.hJac[i * nw + a] = out.hJac[i * nw + a]! * s;
    }
  }
}
