/**
 * The feasibility restoration phase [WB §3.3] with the same stage-structured machinery (internal).
 *
 * From the point (x_R, u_R, s_R) where the main line search failed, it minimizes the ℓ₁ constraint
 * violation with a proximity term,
 *
 *     min  ρ Σ (p + n) + ζ/2 ‖D_R(w − w_R)‖²   s.t.  c − p_c + n_c = 0,  g − p_g + n_g = 0,
 *                                                    h − p_h + n_h ≥ 0,  p, n ≥ 0,
 *
 * (ρ = `restoPenaltyParameter`, ζ = `restoProximityWeight`·√μ, D_R = diag(min(1, 1/|u_R,i|)) on the
 * controls and 1 on the states), by running the interior-point core on the {@link RestorationOcp}
 * wrapper: the elastic variables of stage k's rows (c_k, g_k and h_k) are extra controls of stage k,
 * so the problem keeps its stage structure (∂c'_k/∂x_{k+1} = ∂c_k/∂x_{k+1} stays invertible).
 * The states stay on their manifold: the proximity term measures x ⊖ x_R by the sum of the
 * restoration's tangent steps, stored with the state (exact for Rⁿ, a first-order measure on
 * manifolds, where the term only regularizes).
 *
 * Initialization as IPOPT's RestoIterateInitializer: μ_R = max(μ, ‖c‖∞, ‖g‖∞, ‖h − s‖∞); for each
 * row with value r, n = a + √(a² + b), a = (μ_R − ρr)/(2ρ), b = μ_R r/(2ρ), p = r + n (the minimizer
 * of the barrier problem in (p, n)); bound multipliers min(ρ, z) for the original slacks and μ_R/p,
 * μ_R/n for the elastic ones; equality multipliers 0.
 *
 * Exit as IPOPT's RestoConvergenceCheck: the phase returns once the original problem's violation
 * dropped below max(κ_resto·θ_R, min(tol, constrViolTol)) (max-norm) and the point is acceptable
 * to the original filter (augmented with the point where the phase started) and to that point
 * [WB A-9]; the bound multipliers are then updated as a Newton step over the whole phase and reset
 * to 1 when they exceed `boundMultResetThreshold`, the equality multipliers set to 0. When the
 * restoration problem itself converges at a point that is not feasible, the problem is locally
 * infeasible (status `infeasible`).
 *
 * @module
 */
import type { CoreExit, IpmCore, RestorationHandler } from './ipm.js';
import { IpmCore as Core } from './ipm.js';
import type { ResolvedOcpOptions } from './options.js';
import type { OcpStageDims, OcpStageEval, StageOcp } from './problem.js';
import { stageOffsets } from './scaled.js';

/** The restoration problem of a stage-structured problem (module comment). */
export class RestorationOcp implements StageOcp {
  readonly N: number;
  readonly inner: StageOcp;
  readonly innerDims: readonly OcpStageDims[];
  readonly innerStorage: Int32Array;
  private readonly outerDims: OcpStageDims[] = [];
  /** Number of elastic pairs of stage k: n_y + n_g + n_h. */
  readonly nElastic: Int32Array;
  rho = 1000;
  zeta = 0;
  /** u_R and D_R² of the controls (offsets uOff). */
  readonly uRef: Float64Array;
  readonly dU2: Float64Array;
  readonly uOff: Int32Array;
  // copies handed to the inner problem
  private readonly xIn: Float64Array[] = [];
  private readonly xOut: Float64Array[] = [];
  private readonly uIn: Float64Array[] = [];
  private readonly etaIn: Float64Array[] = [];
  /** The inner problem's evaluation at the last call (the original, scaled values). */
  readonly innerEval: OcpStageEval[] = [];
  readonly innerCost: Float64Array;
  readonly cVal: Float64Array;
  readonly gVal: Float64Array;
  readonly hVal: Float64Array;
  readonly cOff: Int32Array;
  readonly gOff: Int32Array;
  readonly hOff: Int32Array;

  constructor(inner: StageOcp, dims: readonly OcpStageDims[], storage: Int32Array) {
    this.inner = inner;
    this.N = inner.N;
    this.innerDims = dims;
    this.innerStorage = storage;
    const count = this.N + 1;
    const ny = (k: number) => (k < this.N ? dims[k + 1]!.nx : 0);
    this.nElastic = new Int32Array(count);
    for (let k = 0; k < count; k++) {
      const d = dims[k]!;
      const e = ny(k) + d.ng + d.nh;
      this.nElastic[k] = e;
      this.outerDims.push({ nx: d.nx, nu: d.nu + 2 * e, ng: d.ng, nh: d.nh + 2 * e });
    }
    this.uOff = stageOffsets(count, (k) => dims[k]!.nu);
    this.uRef = new Float64Array(this.uOff[count]!);
    this.dU2 = new Float64Array(this.uOff[count]!);
    this.cOff = stageOffsets(count, ny);
    this.gOff = stageOffsets(count, (k) => dims[k]!.ng);
    this.hOff = stageOffsets(count, (k) => dims[k]!.nh);
    this.innerCost = new Float64Array(count);
    this.cVal = new Float64Array(this.cOff[count]!);
    this.gVal = new Float64Array(this.gOff[count]!);
    this.hVal = new Float64Array(this.hOff[count]!);
    const sOff = stageOffsets(count, (k) => storage[k]!);
    const xIn = new Float64Array(sOff[count]!);
    const xOut = new Float64Array(sOff[count]!);
    const uIn = new Float64Array(this.uOff[count]!);
    const etaIn = new Float64Array(this.hOff[count]!);
    const nwOff = stageOffsets(count, (k) => dims[k]!.nx + dims[k]!.nu);
    const grad = new Float64Array(nwOff[count]!);
    const cjOff = stageOffsets(count, (k) => ny(k) * (dims[k]!.nx + dims[k]!.nu + ny(k)));
    const cJac = new Float64Array(cjOff[count]!);
    const gjOff = stageOffsets(count, (k) => dims[k]!.ng * (dims[k]!.nx + dims[k]!.nu));
    const gJac = new Float64Array(gjOff[count]!);
    const hjOff = stageOffsets(count, (k) => dims[k]!.nh * (dims[k]!.nx + dims[k]!.nu));
    const hJac = new Float64Array(hjOff[count]!);
    const hsOff = stageOffsets(count, (k) => (dims[k]!.nx + dims[k]!.nu + ny(k)) ** 2);
    const hess = new Float64Array(hsOff[count]!);
    const sub = (a: Float64Array, o: Int32Array, k: number) => a.subarray(o[k]!, o[k + 1]!);
    for (let k = 0; k < count; k++) {
      this.xIn.push(sub(xIn, sOff, k));
      this.xOut.push(sub(xOut, sOff, k));
      this.uIn.push(sub(uIn, this.uOff, k));
      this.etaIn.push(sub(etaIn, this.hOff, k));
      this.innerEval.push({
        cost: 0,
        costGrad: sub(grad, nwOff, k),
        c: sub(this.cVal, this.cOff, k),
        cJac: sub(cJac, cjOff, k),
        g: sub(this.gVal, this.gOff, k),
        gJac: sub(gJac, gjOff, k),
        h: sub(this.hVal, this.hOff, k),
        hJac: sub(hJac, hjOff, k),
        hess: sub(hess, hsOff, k),
      });
    }
  }

  dims(k: number): OcpStageDims {
    return this.outerDims[k]!;
  }

  stateStorage(k: number): number {
    return this.innerStorage[k]! + this.innerDims[k]!.nx;
  }

  retract(k: number, out: Float64Array, x: Float64Array, dx: Float64Array): void {
    const ns = this.innerStorage[k]!;
    const nx = this.innerDims[k]!.nx;
    const xi = this.xIn[k]!;
    const xo = this.xOut[k]!;
    for (let i = 0; i < ns; i++) xi[i] = x[i]!;
    this.inner.retract(k, xo, xi, dx);
    for (let i = 0; i < ns; i++) out[i] = xo[i]!;
    for (let i = 0; i < nx; i++) out[ns + i] = x[ns + i]! + dx[i]!;
  }

  evaluate(
    k: number,
    x: Float64Array,
    u: Float64Array,
    xNext: Float64Array | undefined,
    level: 0 | 1 | 2,
    _sigma: number,
    lambda: Float64Array,
    mu: Float64Array,
    eta: Float64Array,
    out: OcpStageEval,
  ): void {
    const d = this.innerDims[k]!;
    const nx = d.nx;
    const nu = d.nu;
    const ng = d.ng;
    const nh = d.nh;
    const ny = k < this.N ? this.innerDims[k + 1]!.nx : 0;
    const e = this.nElastic[k]!;
    const nuP = nu + 2 * e;
    const nwP = nx + nuP;
    const ns = this.innerStorage[k]!;
    const xi = this.xIn[k]!;
    for (let i = 0; i < ns; i++) xi[i] = x[i]!;
    let xn: Float64Array | undefined;
    if (k < this.N) {
      xn = this.xIn[k + 1]!;
      const ns1 = this.innerStorage[k + 1]!;
      for (let i = 0; i < ns1; i++) xn[i] = xNext![i]!;
    }
    const ui = this.uIn[k]!;
    for (let i = 0; i < nu; i++) ui[i] = u[i]!;
    const ei = this.etaIn[k]!;
    for (let i = 0; i < nh; i++) ei[i] = eta[i]!;
    const ie = this.innerEval[k]!;
    // σ = 0: the restoration objective does not contain the original one
    this.inner.evaluate(k, xi, ui, xn, level, 0, lambda, mu, ei, ie);
    this.innerCost[k] = ie.cost;
    // elastic variables: u = [u (n_u) | p_c n_c (n_y each) | p_g n_g | p_h n_h]
    const pc = nu;
    const ncI = nu + ny;
    const pg = nu + 2 * ny;
    const ngI = pg + ng;
    const ph = pg + 2 * ng;
    const nhI = ph + nh;
    const rho = this.rho;
    const zeta = this.zeta;
    const uo = this.uOff[k]!;
    let cost = 0;
    for (let j = nu; j < nuP; j++) cost += rho * u[j]!;
    for (let i = 0; i < nx; i++) {
      const di = x[ns + i]!;
      cost += 0.5 * zeta * di * di;
    }
    for (let i = 0; i < nu; i++) {
      const di = u[i]! - this.uRef[uo + i]!;
      cost += 0.5 * zeta * this.dU2[uo + i]! * di * di;
    }
    out.cost = cost;
    for (let i = 0; i < ny; i++) out.c[i] = ie.c[i]! - u[pc + i]! + u[ncI + i]!;
    for (let i = 0; i < ng; i++) out.g[i] = ie.g[i]! - u[pg + i]! + u[ngI + i]!;
    for (let i = 0; i < nh; i++) out.h[i] = ie.h[i]! - u[ph + i]! + u[nhI + i]!;
    for (let j = 0; j < 2 * e; j++) out.h[nh + j] = u[nu + j]!;
    if (level === 0) return;
    const g = out.costGrad;
    for (let i = 0; i < nx; i++) g[i] = zeta * x[ns + i]!;
    for (let i = 0; i < nu; i++)
      g[nx + i] = zeta * this.dU2[uo + i]! * (u[i]! - this.uRef[uo + i]!);
    for (let j = nu; j < nuP; j++) g[nx + j] = rho;
    // dynamics Jacobian: [c_x, c_u, −I, +I, 0…, c_y]
    const cw = nwP + ny;
    const cwI = nx + nu + ny;
    out.cJac.fill(0);
    for (let i = 0; i < ny; i++) {
      for (let a = 0; a < nx + nu; a++) out.cJac[i * cw + a] = ie.cJac[i * cwI + a]!;
      for (let j = 0; j < ny; j++) out.cJac[i * cw + nwP + j] = ie.cJac[i * cwI + nx + nu + j]!;
      out.cJac[i * cw + nx + pc + i] = -1;
      out.cJac[i * cw + nx + ncI + i] = 1;
    }
    out.gJac.fill(0);
    for (let i = 0; i < ng; i++) {
      for (let a = 0; a < nx + nu; a++) out.gJac[i * nwP + a] = ie.gJac[i * (nx + nu) + a]!;
      out.gJac[i * nwP + nx + pg + i] = -1;
      out.gJac[i * nwP + nx + ngI + i] = 1;
    }
    out.hJac.fill(0);
    for (let i = 0; i < nh; i++) {
      for (let a = 0; a < nx + nu; a++) out.hJac[i * nwP + a] = ie.hJac[i * (nx + nu) + a]!;
      out.hJac[i * nwP + nx + ph + i] = -1;
      out.hJac[i * nwP + nx + nhI + i] = 1;
    }
    for (let j = 0; j < 2 * e; j++) out.hJac[(nh + j) * nwP + nx + nu + j] = 1;
    if (level === 1) return;
    // Hessian: the inner one (constraints only) embedded, plus the proximity term
    const hw = nwP + ny;
    const H = out.hess;
    H.fill(0);
    // indices of (x, u, x⁺) in (x, u, p, n, x⁺): x⁺ moves by the 2e elastic controls
    const split = nx + nu;
    const shift = 2 * e;
    for (let a = 0; a < cwI; a++) {
      const ra = (a < split ? a : a + shift) * hw;
      for (let b = 0; b < cwI; b++) H[ra + (b < split ? b : b + shift)] = ie.hess[a * cwI + b]!;
    }
    for (let i = 0; i < nx; i++) H[i * hw + i] = H[i * hw + i]! + zeta;
    for (let i = 0; i < nu; i++) {
      H[(nx + i) * hw + nx + i] = H[(nx + i) * hw + nx + i]! + zeta * this.dU2[uo + i]!;
    }
  }
}

/** Runs the restoration phase for a main core (the {@link RestorationHandler} of the solver). */
export class RestorationPhase implements RestorationHandler {
  readonly problem: RestorationOcp;
  readonly core: IpmCore;
  /** The main core's θ (max-norm, scaled) where the phase started. */
  private startInfPr = 0;
  private main: IpmCore | null = null;
  /** Number of restoration phases run. */
  calls = 0;
  /** Reports a restoration iteration (set by the solver). */
  reporter: ((core: IpmCore) => boolean) | null = null;

  constructor(scaledProblem: StageOcp, main: IpmCore, options: ResolvedOcpOptions) {
    const count = main.N + 1;
    const storage = new Int32Array(count);
    for (let k = 0; k < count; k++) storage[k] = main.xsOff[k + 1]! - main.xsOff[k]!;
    this.problem = new RestorationOcp(scaledProblem, main.dimsList, storage);
    this.core = new Core(this.problem, options, 'restoration');
    this.core.exitCheck = (c) => this.originalProgress(c);
  }

  restore(main: IpmCore): 'success' | CoreExit {
    this.calls++;
    this.main = main;
    const o = main.o;
    const R = this.problem;
    const core = this.core;
    const N = main.N;
    // μ_R = max(μ, ‖c‖∞, ‖g‖∞, ‖h − s‖∞)
    let viol = 0;
    for (let i = 0; i < main.c.length; i++) viol = Math.max(viol, Math.abs(main.c[i]!));
    for (let i = 0; i < main.g.length; i++) viol = Math.max(viol, Math.abs(main.g[i]!));
    for (let i = 0; i < main.nTotalH; i++) viol = Math.max(viol, Math.abs(main.h[i]! - main.s[i]!));
    this.startInfPr = viol;
    const muR = Math.max(main.barrier, viol);
    const rho = o.restoPenaltyParameter;
    R.rho = rho;
    R.zeta = o.restoProximityWeight * Math.sqrt(main.barrier);
    for (let i = 0; i < main.u.length; i++) {
      R.uRef[i] = main.u[i]!;
      const a = Math.abs(main.u[i]!);
      const dr = a > 1 ? 1 / a : 1;
      R.dU2[i] = dr * dr;
    }
    // initial point of the restoration problem
    for (let k = 0; k <= N; k++) {
      const nx = main.nxA[k]!;
      const nu = main.nuA[k]!;
      const ny = main.nyA[k]!;
      const ng = main.ngA[k]!;
      const nh = main.nhA[k]!;
      const e = R.nElastic[k]!;
      const xs = main.xsOff[k]!;
      const ns = main.xsOff[k + 1]! - xs;
      const xo = core.xsOff[k]!;
      for (let i = 0; i < ns; i++) core.x[xo + i] = main.x[xs + i]!;
      for (let i = 0; i < nx; i++) core.x[xo + ns + i] = 0;
      const uo = core.uOff[k]!;
      const um = main.uOff[k]!;
      for (let i = 0; i < nu; i++) core.u[uo + i] = main.u[um + i]!;
      // elastic pairs: rows c, g, h − s
      const so = core.hOff[k]!;
      const sm = main.hOff[k]!;
      // p and n in the layout [p_c n_c p_g n_g p_h n_h]
      const co = main.kkt.cOffset[k]!;
      const go = main.gOffC[k]!;
      for (let i = 0; i < ny; i++)
        this.pair(core, uo + nu + i, uo + nu + ny + i, main.c[co + i]!, muR, rho);
      for (let i = 0; i < ng; i++) {
        this.pair(core, uo + nu + 2 * ny + i, uo + nu + 2 * ny + ng + i, main.g[go + i]!, muR, rho);
      }
      for (let i = 0; i < nh; i++) {
        const r = main.h[sm + i]! - main.s[sm + i]!;
        this.pair(
          core,
          uo + nu + 2 * ny + 2 * ng + i,
          uo + nu + 2 * ny + 2 * ng + nh + i,
          r,
          muR,
          rho,
        );
      }
      // slacks and bound multipliers
      for (let i = 0; i < nh; i++) {
        core.s[so + i] = main.s[sm + i]!;
        core.z[so + i] = Math.min(rho, main.z[sm + i]!);
      }
      for (let t = 0; t < 2 * e; t++) {
        const v = core.u[uo + nu + t]!;
        core.s[so + nh + t] = v;
        core.z[so + nh + t] = muR / v;
      }
    }
    core.lam.fill(0);
    core.mu.fill(0);
    core.y.fill(0);
    core.resetForRun(muR);
    core.iterBase = main.iterBase + main.iter;
    core.iterLimit = main.iterLimit - main.iter;
    core.setDeadline(main.deadline);
    core.reporter = this.reporter;
    let exit: CoreExit;
    if (!core.evaluate(2, false)) {
      exit = 'invalidNumbers';
      core.message = 'the restoration problem cannot be evaluated at its starting point';
    } else {
      exit = core.run();
    }
    main.iter += core.iter;
    this.copyBack(main);
    switch (exit) {
      case 'restorationReturn':
        this.updateBoundMultipliers(main);
        return 'success';
      case 'converged':
      case 'acceptable':
      case 'stepTooSmall': {
        // the restoration problem converged: locally infeasible unless (almost) feasible
        this.originalInfPrInto();
        const inf = this.infPr;
        if (inf <= 1e2 * o.tol) {
          main.message =
            'the restoration phase converged to a feasible point that is not acceptable to the filter';
          return 'restorationFailed';
        }
        main.message = `converged to a point of local infeasibility (restoration phase: constraint violation ${inf.toExponential(3)} cannot be reduced)`;
        return 'infeasible';
      }
      case 'lineSearchFailed':
      case 'stepComputationFailed':
      case 'restorationFailed':
        main.message = `restoration phase failed: ${core.message}`;
        return 'restorationFailed';
      default:
        main.message = `${core.message} (in the restoration phase)`;
        return exit;
    }
  }

  /** Sets the elastic pair (p, n) of a row with value r (IPOPT's closed form). */
  private pair(core: IpmCore, ip: number, iN: number, r: number, muR: number, rho: number): void {
    const a = (muR - rho * r) / (2 * rho);
    const b = (muR * r) / (2 * rho);
    const n = a + Math.sqrt(a * a + b);
    core.u[ip] = r + n;
    core.u[iN] = n;
  }

  /** Output of {@link originalInfPrInto}. */
  infPr = 0.5;

  /**
   * {@link infPr} ← the original problem's ‖(c, g, h − s)‖∞ at the restoration iterate: scaled,
   * or unscaled when the row scaling factors are given. Into a field, not returned: it runs at
   * every restoration iteration, and a returned double is boxed when the call is not inlined.
   */
  originalInfPrInto(cScale?: Float64Array, gScale?: Float64Array, hScale?: Float64Array): void {
    const R = this.problem;
    const core = this.core;
    let v = 0;
    for (let i = 0; i < R.cVal.length; i++)
      v = Math.max(v, Math.abs(R.cVal[i]! / (cScale?.[i] ?? 1)));
    for (let i = 0; i < R.gVal.length; i++)
      v = Math.max(v, Math.abs(R.gVal[i]! / (gScale?.[i] ?? 1)));
    for (let k = 0; k <= R.N; k++) {
      const nh = R.innerDims[k]!.nh;
      const so = core.hOff[k]!;
      const ho = R.hOff[k]!;
      for (let i = 0; i < nh; i++) {
        const d = hScale?.[ho + i] ?? 1;
        v = Math.max(v, Math.abs(R.hVal[ho + i]! - core.s[so + i]!) / d);
      }
    }
    this.infPr = v;
  }

  /** IPOPT's RestoConvergenceCheck: enough reduction and acceptable to the original filter. */
  private originalProgress(core: IpmCore): boolean {
    const main = this.main;
    if (main === null) return false;
    const o = main.o;
    this.originalInfPrInto();
    const inf = this.infPr;
    const infMax = Math.max(
      o.requiredInfeasibilityReduction * this.startInfPr,
      Math.min(o.tol, o.constrViolTol),
    );
    if (inf > infMax) return false;
    const R = this.problem;
    let theta = 0;
    for (let i = 0; i < R.cVal.length; i++) theta += Math.abs(R.cVal[i]!);
    for (let i = 0; i < R.gVal.length; i++) theta += Math.abs(R.gVal[i]!);
    let f = 0;
    for (let k = 0; k <= R.N; k++) f += R.innerCost[k]!;
    let lg = 0;
    let sum = 0;
    for (let k = 0; k <= R.N; k++) {
      const nh = R.innerDims[k]!.nh;
      const so = core.hOff[k]!;
      const ho = R.hOff[k]!;
      for (let i = 0; i < nh; i++) {
        const s = core.s[so + i]!;
        theta += Math.abs(R.hVal[ho + i]! - s);
        lg += Math.log(s);
        sum += s;
      }
    }
    const barr = f - main.barrier * lg + o.kappaD * main.barrier * sum;
    main.testTheta = theta;
    main.testBarr = barr;
    return main.acceptableToFilter() && main.acceptableToCurrentIterate(true);
  }

  /** Copies the restoration iterate (states, controls, original slacks) into the main core. */
  private copyBack(main: IpmCore): void {
    const core = this.core;
    const R = this.problem;
    main.sT.set(main.s);
    for (let k = 0; k <= main.N; k++) {
      const xs = main.xsOff[k]!;
      const ns = main.xsOff[k + 1]! - xs;
      const xo = core.xsOff[k]!;
      for (let i = 0; i < ns; i++) main.x[xs + i] = core.x[xo + i]!;
      const nu = main.nuA[k]!;
      const uo = core.uOff[k]!;
      const um = main.uOff[k]!;
      for (let i = 0; i < nu; i++) main.u[um + i] = core.u[uo + i]!;
      const nh = R.innerDims[k]!.nh;
      const so = core.hOff[k]!;
      const sm = main.hOff[k]!;
      for (let i = 0; i < nh; i++) main.s[sm + i] = core.s[so + i]!;
    }
  }

  /**
   * IPOPT's ComputeBoundMultiplierStep after a restoration phase: the whole phase is taken as one
   * Newton step for complementarity, dz = (μ + z(s_old − s_new))/s_old − z, with the
   * fraction-to-the-boundary rule; reset to 1 when larger than `boundMultResetThreshold`.
   */
  private updateBoundMultipliers(main: IpmCore): void {
    const { z, s, sT } = main;
    const mu = main.barrier;
    let alpha = 1;
    for (let i = 0; i < z.length; i++) {
      const dz = (mu + z[i]! * (sT[i]! - s[i]!)) / sT[i]! - z[i]!;
      main.dz[i] = dz;
      if (dz < 0) alpha = Math.min(alpha, (-main.tau * z[i]!) / dz);
    }
    let zmax = 0;
    for (let i = 0; i < z.length; i++) {
      z[i] = z[i]! + alpha * main.dz[i]!;
      zmax = Math.max(zmax, z[i]!);
    }
    if (zmax > main.o.boundMultResetThreshold) z.fill(1);
  }
}
