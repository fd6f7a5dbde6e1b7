// Test support for the stage-wise KKT factorization: random stage-structured KKT systems and their
// dense assembly (the reference the O(N) factorization is checked against).
import { type KktStageDims, StageKktSystem } from '../../src/ocp/stageKkt.js';
import { rng } from '../support/random.js';

export interface RandomKktSpec {
  readonly dims: KktStageDims[];
  readonly seed: number;
  /** Add this multiple of the identity to every stage Hessian block (≥ 0 pushes towards PD). */
  readonly shift: number;
}

/** A StageKktSystem filled with random data: symmetric stage Hessians over (x, u, x⁺), random A, B, G, E. */
export function randomKkt(spec: RandomKktSpec): StageKktSystem {
  const kkt = new StageKktSystem(spec.dims);
  const r = rng(spec.seed);
  const u = () => 2 * r() - 1;
  for (let k = 0; k <= kkt.N; k++) {
    const nw = kkt.nx[k]! + kkt.nu[k]!;
    const ny = kkt.ny[k]!;
    const hw = nw + ny;
    const ho = kkt.hessOffset[k]!;
    for (let a = 0; a < hw; a++) {
      for (let b = 0; b <= a; b++) {
        const v = u() + (a === b && a < nw ? spec.shift : 0);
        kkt.hess[ho + a * hw + b] = v;
        kkt.hess[ho + b * hw + a] = v;
      }
    }
    const co = kkt.cJacOffset[k]!;
    for (let i = 0; i < ny; i++) {
      for (let j = 0; j < hw; j++) kkt.cJac[co + i * hw + j] = u() + (j === nw + i ? 2 : 0);
    }
    const go = kkt.gJacOffset[k]!;
    for (let t = 0; t < kkt.ng[k]! * nw; t++) kkt.gJac[go + t] = u();
  }
  return kkt;
}

/** Offsets of the local rows in use, stage by stage, in the dense ordering (compact). */
export function compactRowOffsets(kkt: StageKktSystem): number[] {
  const o = [0];
  for (let k = 0; k <= kkt.N; k++) o.push(o[k]! + kkt.localRows[k]!);
  return o;
}

/**
 * The dense KKT matrix of `kkt` with regularizations δ_w (primal diagonal) and −(D_i + δ_c) (local
 * rows in use), in the order [w_0..w_N, λ_0..λ_{N−1}, μ_0..μ_N]; returns the matrix and its order.
 */
export function assembleDense(
  kkt: StageKktSystem,
  deltaW: number,
  deltaC: number,
): { K: Float64Array; size: number } {
  const n = kkt.nPrimal;
  const size = n + kkt.nEquality;
  const K = new Float64Array(size * size);
  const lamBase = n;
  const muBase = n + kkt.cOffset[kkt.N + 1]!;
  const rowOff = compactRowOffsets(kkt);
  for (let k = 0; k <= kkt.N; k++) {
    const nw = kkt.nx[k]! + kkt.nu[k]!;
    const ny = kkt.ny[k]!;
    const hw = nw + ny;
    const wo = kkt.wOffset[k]!;
    const wn = k < kkt.N ? kkt.wOffset[k + 1]! : 0;
    const idx = (a: number) => (a < nw ? wo + a : wn + (a - nw));
    const ho = kkt.hessOffset[k]!;
    for (let a = 0; a < hw; a++) {
      for (let b = 0; b < hw; b++) K[idx(a) * size + idx(b)]! += kkt.hess[ho + a * hw + b]!;
    }
    for (let a = 0; a < nw; a++) K[(wo + a) * size + wo + a]! += deltaW;
    const co = kkt.cJacOffset[k]!;
    for (let i = 0; i < ny; i++) {
      const row = lamBase + kkt.cOffset[k]! + i;
      for (let b = 0; b < hw; b++) {
        const v = kkt.cJac[co + i * hw + b]!;
        K[row * size + idx(b)] = v;
        K[idx(b) * size + row] = v;
      }
    }
    const go = kkt.gJacOffset[k]!;
    for (let i = 0; i < kkt.localRows[k]!; i++) {
      const row = muBase + rowOff[k]! + i;
      for (let b = 0; b < nw; b++) {
        const v = kkt.gJac[go + i * nw + b]!;
        K[row * size + wo + b] = v;
        K[(wo + b) * size + row] = v;
      }
      K[row * size + row] = -(kkt.rowReg[kkt.gOffset[k]! + i]! + deltaC);
    }
  }
  return { K, size };
}

/** Random stage dimensions: N + 1 stages, n_x ∈ [1, maxNx], n_u ∈ [0, maxNu], end-stage rows up to n_x. */
export function randomDims(seed: number, N: number, maxNx = 4, maxNu = 3): KktStageDims[] {
  const r = rng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const dims: { nx: number; nu: number; ng: number }[] = [];
  for (let k = 0; k <= N; k++) {
    const nx = int(1, maxNx);
    const nu = int(0, maxNu);
    let ng: number;
    if (k === 0 || k === N) ng = int(0, nx);
    else ng = r() < 0.3 ? int(0, nu + 1) : 0;
    dims.push({ nx, nu, ng });
  }
  // keep the constraint Jacobian generically of full row rank: Σ n_g ≤ n_x,0 + Σ n_u
  let free = dims[0]!.nx;
  for (const d of dims) free += d.nu;
  let total = dims.reduce((s, d) => s + d.ng, 0);
  for (let k = N; k >= 0 && total > free; k--) {
    const cut = Math.min(dims[k]!.ng, total - free);
    dims[k]!.ng -= cut;
    total -= cut;
  }
  return dims;
}
