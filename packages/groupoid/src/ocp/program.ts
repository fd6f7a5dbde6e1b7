/**
 * The compiled form of an {@link OcpSpec} (internal to the problem layer): the user's functions
 * traced once per kind of stage on a symbolic graph (core's `SymGraph`), differentiated in the
 * chart x ⊕ δ at δ = 0, and compiled into flat allocation-free functions; and the
 * {@link StageOcp} that core's {@link OcpSolver} evaluates through them.
 *
 * ## Charts and derivatives
 *
 * States move by x ⊕ δ = x·cay(δ) per group factor (x + δ on Rⁿ): the solver's retraction. The
 * derivatives the solver needs (gradient, Jacobians, Hessian of the weighted stage Lagrangian
 * over (δx_k, u_k, δx_{k+1})) are first and second derivatives at δ = 0, so they are traced with
 * the second-order Taylor polynomial x·(I + δ̂ + δ̂²/2) of the retraction (the same for cay and
 * exp), which gives them exactly and keeps the graphs small; δ is then replaced by 0 and the
 * graph's constant folding removes every term that vanishes there.
 *
 * ## Defects (the dynamics rows)
 *
 * For explicit dynamics x_{k+1} = x_k·M (kinematic: M = τ(hξ); an increment M; an explicit map F:
 * M = x_k⁻¹F) the dynamics rows of a group factor are
 *
 *     c = cay⁻¹(x_k⁻¹x_{k+1}) − cay⁻¹(M)          (cay⁻¹(M) = hξ itself for τ = cay)
 *
 * (x_{k+1} − x_k − M on Rⁿ factors): zero exactly when x_{k+1} = x_k·M, because cay⁻¹ is injective
 * on its domain (rotation angles below π, checked through {@link OCP_CHART_MARGIN} for both
 * arguments; outside it `evaluate` returns NaN and the solver shortens its step), smooth there,
 * with ∂c/∂x_{k+1} = dcay⁻¹ invertible. The two states enter only through the relative element
 * D = x_k⁻¹x_{k+1}, which is computed numerically before the call and perturbed as
 * cay(−δ_k)·D·cay(δ_{k+1}) inside the traced function, and M enters only through its own chart:
 * this keeps the derivative graphs free of products of the two states' storages and of D with M
 * (the plate-ball's level-2 function shrank from 3944 to 1512 operations per stage). Implicit
 * dynamics use the user's c as given.
 *
 * Boundary rows are cay⁻¹(start⁻¹x_0) and cay⁻¹(end⁻¹x_N) per fixed factor (x − start on Rⁿ).
 *
 * @module
 */
import {
  compileSym,
  DimensionError,
  DomainError,
  type LieScalarOps,
  type OcpStageDims,
  type OcpStageEval,
  type SparseSX,
  type StageOcp,
  type SX,
  type SymFunction,
  SymGraph,
  type SymOps,
} from '@geomech/core';
import type { OcpFactor, OcpMap } from './factors.js';
import type { OcpStage, OcpTransition, OcpVectorFunction } from './spec.js';

/**
 * Smallest value of a Cayley chart's margin (1 + tr R of a 3×3 rotation block, 1 + cos φ for
 * SO(2)) at which a dynamics defect or boundary row is evaluated: 1 + tr R = 4cos²(θ/2), so this
 * admits rotation mismatches θ < π − 2·10⁻⁴; beyond, the stage reports NaN (outside the domain).
 */
export const OCP_CHART_MARGIN = 1e-8;

/** Where the rows of one group sit in a stage's g or h (offset and count). */
export interface OcpRowBlock {
  readonly offset: number;
  readonly count: number;
}

/** The rows of one stage kind, by origin. */
export interface OcpStageRows {
  /** g rows: boundary condition (start at k = 0, end at k = N). */
  readonly boundary: OcpRowBlock;
  /** g rows: path equalities (k < N) or terminal equalities (k = N). */
  readonly equalities: OcpRowBlock;
  /** g rows: the stage's `at` equalities. */
  readonly atEqualities: OcpRowBlock;
  /** h rows: path (k < N) or terminal (k = N) inequalities. */
  readonly inequalities: OcpRowBlock;
  /** h rows: control bounds (lower then upper, finite ones in index order). */
  readonly controlBounds: OcpRowBlock;
  /** h rows: state bounds. */
  readonly stateBounds: OcpRowBlock;
  /** h rows: horizon bounds (free horizon, k = 0). */
  readonly horizonBounds: OcpRowBlock;
  /** h rows: the stage's `at` inequalities. */
  readonly atInequalities: OcpRowBlock;
}

/** A traced, differentiated and compiled kind of stage. */
export interface CompiledStageKind {
  readonly dims: OcpStageDims;
  readonly ny: number;
  readonly rows: OcpStageRows;
  /** Values: (out, x, u, r, p) → [cost, c, g, h, margins]. */
  readonly f0: SymFunction;
  /** Values and first derivatives (pruned nonzeros). */
  readonly f1: SymFunction;
  /** Values, first derivatives and the Hessian's lower-triangle nonzeros; extra input `wts`. */
  readonly f2: SymFunction;
  /**
   * f0, f1, f2 compiled as tapes (core's `'interpreter'` mode), for the kinds an instance calls at
   * few stages (see {@link OCP_GENERATED_MIN_STAGES}).
   */
  readonly tapes: readonly [SymFunction, SymFunction, SymFunction];
  readonly nMargins: number;
  readonly gradIndex: Int32Array;
  readonly cJacIndex: Int32Array;
  readonly gJacIndex: Int32Array;
  readonly hJacIndex: Int32Array;
  /** Hessian entries: row-major position of (i, j) and of (j, i). */
  readonly hessIndex: Int32Array;
  readonly hessMirror: Int32Array;
  /** Operations per call of f0, f1, f2. */
  readonly operations: readonly [number, number, number];
}

/** The structure of a problem (what tracing depends on). */
export interface ProgramStructure {
  readonly factors: readonly OcpFactor[];
  /** A free horizon adds an R¹ factor T after the user's factors. */
  readonly freeHorizon: boolean;
  readonly nu: number;
  readonly dynamics:
    | { readonly kind: 'kinematic'; readonly f: OcpVectorFunction; readonly map: OcpMap }
    | { readonly kind: 'increment'; readonly f: OcpVectorFunction }
    | { readonly kind: 'next'; readonly f: OcpVectorFunction }
    | {
        readonly kind: 'defect';
        readonly f: <T>(o: LieScalarOps<T>, s: OcpTransition<T>) => readonly T[];
      };
  readonly cost: (<T>(o: LieScalarOps<T>, s: OcpStage<T>) => T) | undefined;
  readonly terminalCost: (<T>(o: LieScalarOps<T>, s: OcpStage<T>) => T) | undefined;
  readonly equalities: OcpVectorFunction | undefined;
  readonly inequalities: OcpVectorFunction | undefined;
  readonly terminalEqualities: OcpVectorFunction | undefined;
  readonly terminalInequalities: OcpVectorFunction | undefined;
  /** Finite control bounds: index and value. */
  readonly controlLower: readonly (readonly [number, number])[];
  readonly controlUpper: readonly (readonly [number, number])[];
  readonly stateLower: readonly (readonly [number, number])[];
  readonly stateUpper: readonly (readonly [number, number])[];
  /** Factors fixed at the start and at the end. */
  readonly startFactors: readonly number[];
  readonly endFactors: readonly number[];
  readonly at: readonly {
    readonly equalities: OcpVectorFunction | undefined;
    readonly inequalities: OcpVectorFunction | undefined;
  }[];
  readonly paramNames: readonly string[];
}

/** Positions in the parameter vector p. */
export const P_K = 0;
export const P_H = 1;
export const P_N = 2;
export const P_T = 3;
export const P_FIXED = 4;

const EMPTY = new Float64Array(0);

/**
 * The compiled program of one problem structure: storage layout, the retraction and the relative
 * element as compiled numeric functions, and the stage kinds (traced on first use and cached).
 */
export class OcpProgram {
  readonly s: ProgramStructure;
  /** All factors, the horizon's R¹ last when free. */
  readonly factors: readonly OcpFactor[];
  /** Storage and tangent offsets of the factors (length factors + 1). */
  readonly so: Int32Array;
  readonly to: Int32Array;
  /** User storage S and tangent n (without the horizon). */
  readonly userStorage: number;
  readonly userDim: number;
  /** Internal storage and tangent dimension. */
  readonly storage: number;
  readonly nx: number;
  readonly nu: number;
  /** Length of p and offsets of the parameters, start and end, horizon bounds. */
  readonly np: number;
  readonly pParams: number;
  readonly pStart: number;
  readonly pEnd: number;
  readonly pTmin: number;
  readonly pTmax: number;
  /** Whether the dynamics use the relative element x_k⁻¹x_{k+1} (every explicit form). */
  readonly relative: boolean;
  /** out ← x ⊕ d (x·cay(d) per factor). */
  readonly retract: SymFunction;
  /** out ← x_k⁻¹x_{k+1} per factor (x_{k+1} − x_k on Rⁿ). */
  readonly relativeOf: SymFunction;
  /** out ← cay⁻¹(a⁻¹b) per factor (b − a on Rⁿ). */
  readonly chart: SymFunction;
  private readonly kinds = new Map<string, CompiledStageKind>();
  private nextFn: SymFunction | undefined;

  constructor(s: ProgramStructure, rnOne: OcpFactor | undefined) {
    this.s = s;
    const factors = s.freeHorizon ? [...s.factors, rnOne!] : [...s.factors];
    this.factors = factors;
    this.so = new Int32Array(factors.length + 1);
    this.to = new Int32Array(factors.length + 1);
    factors.forEach((f, i) => {
      this.so[i + 1] = this.so[i]! + f.storage;
      this.to[i + 1] = this.to[i]! + f.dim;
    });
    const nUser = s.factors.length;
    this.userStorage = this.so[nUser]!;
    this.userDim = this.to[nUser]!;
    this.storage = this.so[factors.length]!;
    this.nx = this.to[factors.length]!;
    this.nu = s.nu;
    this.pParams = P_FIXED;
    this.pStart = this.pParams + s.paramNames.length;
    this.pEnd = this.pStart + this.userStorage;
    this.pTmin = this.pEnd + this.userStorage;
    this.pTmax = this.pTmin + 1;
    this.np = this.pTmax + 1;
    this.relative = s.dynamics.kind !== 'defect';
    // numeric helpers
    const g = new SymGraph();
    const o = g.ops;
    const a = g.symbols(this.storage, 'a');
    const b = g.symbols(this.storage, 'b');
    const d = g.symbols(this.nx, 'd');
    const ret: SX[] = [];
    const rel: SX[] = [];
    const cht: SX[] = [];
    factors.forEach((f, i) => {
      const af = a.slice(this.so[i]!, this.so[i + 1]!);
      const bf = b.slice(this.so[i]!, this.so[i + 1]!);
      const df = d.slice(this.to[i]!, this.to[i + 1]!);
      ret.push(...f.compose(o, af, f.tau(o, df, 'cayley')));
      const D = f.compose(o, f.inverse(o, af), bf);
      rel.push(...D);
      cht.push(...f.cayInv(o, D));
    });
    this.retract = compileSym(g, [a, d], ret, { name: 'ocp retract' });
    this.relativeOf = compileSym(g, [a, b], rel, { name: 'ocp relative' });
    this.chart = compileSym(g, [a, b], cht, { name: 'ocp chart' });
  }

  /** The compiled kind of a stage: role and the `at` entries that apply. */
  kind(role: 'first' | 'middle' | 'last', at: readonly number[]): CompiledStageKind {
    const key = `${role}:${at.join(',')}`;
    let k = this.kinds.get(key);
    if (k === undefined) {
      k = this.trace(role, at);
      this.kinds.set(key, k);
    }
    return k;
  }

  /**
   * out ← x_{k+1} = F(t_k, x_k, u_k) for the explicit dynamics (kinematic, increment, next);
   * compiled on first use. Inputs (out, x, u, p).
   * @throws DomainError for implicit dynamics.
   */
  next(): SymFunction {
    if (this.nextFn !== undefined) return this.nextFn;
    const dyn = this.s.dynamics;
    if (dyn.kind === 'defect') {
      throw new DomainError('ocp rollout', 'implicit dynamics', 'needs explicit dynamics');
    }
    const g = new SymGraph();
    const o = g.ops;
    const x = g.symbols(this.storage, 'x');
    const u = g.symbols(this.nu, 'u');
    const p = g.symbols(this.np, 'p');
    const stage = this.stageArgs(o, x, u, p);
    const out: SX[] = [];
    if (dyn.kind === 'next') {
      out.push(...this.checked(dyn.f(o, stage), this.userStorage, 'dynamics.next'));
    } else {
      const M =
        dyn.kind === 'kinematic'
          ? this.tauOfVelocity(
              o,
              this.checked(dyn.f(o, stage), this.userDim, 'dynamics.kinematic'),
              stage.h,
              dyn.map,
            )
          : this.checked(dyn.f(o, stage), this.userStorage, 'dynamics.increment');
      this.s.factors.forEach((f, i) => {
        out.push(
          ...f.compose(
            o,
            x.slice(this.so[i]!, this.so[i + 1]!),
            M.slice(this.so[i]!, this.so[i + 1]!),
          ),
        );
      });
    }
    if (this.s.freeHorizon) out.push(x[this.storage - 1]!);
    this.nextFn = compileSym(g, [x, u, p], out, { name: 'ocp next' });
    return this.nextFn;
  }

  // -------------------------------------------------------------------------------------------

  /** The stage arguments a user function sees, from the state X (internal storage). */
  private stageArgs<T>(
    o: LieScalarOps<T>,
    X: readonly T[],
    u: readonly T[],
    p: readonly T[],
  ): OcpStage<T> {
    const s = this.s;
    const h = s.freeHorizon ? o.div(X[this.storage - 1]!, p[P_N]!) : p[P_H]!;
    const T = s.freeHorizon ? X[this.storage - 1]! : p[P_T]!;
    const params: Record<string, T> = {};
    s.paramNames.forEach((name, i) => {
      params[name] = p[this.pParams + i]!;
    });
    return {
      k: p[P_K]!,
      t: o.mul(p[P_K]!, h),
      h,
      T,
      x: X.slice(0, this.userStorage),
      u,
      p: params,
      start: p.slice(this.pStart, this.pStart + this.userStorage),
      end: p.slice(this.pEnd, this.pEnd + this.userStorage),
    };
  }

  /** τ(h ξ) per user factor (storage of the user's state). */
  private tauOfVelocity<T>(o: LieScalarOps<T>, xi: readonly T[], h: T, map: OcpMap): T[] {
    const out: T[] = [];
    this.s.factors.forEach((f, i) => {
      const v = xi.slice(this.to[i]!, this.to[i + 1]!).map((e) => o.mul(h, e));
      out.push(...f.tau(o, v, map));
    });
    return out;
  }

  private checked<T>(v: readonly T[], n: number, what: string): T[] {
    if (!Array.isArray(v)) throw new DimensionError(`ocp: ${what}`, `an array of ${n}`, typeof v);
    if (v.length !== n) throw new DimensionError(`ocp: ${what}`, n, v.length);
    return v as T[];
  }

  private trace(role: 'first' | 'middle' | 'last', at: readonly number[]): CompiledStageKind {
    const s = this.s;
    const { nx, storage: S, factors, so, to } = this;
    const nu = role === 'last' ? 0 : s.nu;
    const hasNext = role !== 'last';
    const g = new SymGraph();
    const o: SymOps = g.ops;
    const x = g.symbols(S, 'x');
    const u = g.symbols(nu, 'u');
    const r = hasNext ? g.symbols(S, this.relative ? 'r' : 'xn') : [];
    const p = g.symbols(this.np, 'p');
    const dx = g.symbols(nx, 'dx');
    const dxn = hasNext ? g.symbols(nx, 'dxn') : [];
    const zero = o.const(0);
    // X = x ⊕ δ to second order
    const perturb = (base: readonly SX[], d: readonly SX[]): SX[] => {
      const out: SX[] = [];
      factors.forEach((f, i) => {
        const b = base.slice(so[i]!, so[i + 1]!);
        const di = d.slice(to[i]!, to[i + 1]!);
        out.push(
          ...(f.kind === 'Rn'
            ? b.map((e, j) => o.add(e, di[j]!))
            : f.compose(o, b, f.taylor(o, di))),
        );
      });
      return out;
    };
    const X = perturb(x, dx);
    const stage = this.stageArgs(o, X, u, p);
    const margins: SX[] = [];
    /** cay⁻¹ of a factor's element, recording its margin. */
    const chartOf = (f: OcpFactor, D: readonly SX[]): SX[] => {
      const m = f.cayInvMargin(o, D);
      if (m !== undefined) margins.push(m);
      return f.cayInv(o, D);
    };
    // cost
    let cost: SX = zero;
    if (role === 'last') {
      if (s.terminalCost !== undefined) cost = s.terminalCost(o, stage);
    } else if (s.cost !== undefined) {
      cost = o.mul(stage.h, s.cost(o, stage));
    }
    // dynamics
    const c: SX[] = [];
    if (hasNext) {
      const dyn = s.dynamics;
      if (this.relative) {
        // D = cay(−δ_k)·(x_k⁻¹x_{k+1})·cay(δ_{k+1}) to second order
        const D: SX[][] = factors.map((f, i) => {
          const ri = r.slice(so[i]!, so[i + 1]!);
          const a = dx.slice(to[i]!, to[i + 1]!);
          const b = dxn.slice(to[i]!, to[i + 1]!);
          if (f.kind === 'Rn') return ri.map((e, j) => o.add(o.sub(e, a[j]!), b[j]!));
          const left = f.taylor(
            o,
            a.map((e) => o.neg(e)),
          );
          return f.compose(o, f.compose(o, left, ri), f.taylor(o, b));
        });
        // c = cay⁻¹(D) − cay⁻¹(M) with the increment M (hξ itself for the Cayley kinematics)
        const xi =
          dyn.kind === 'kinematic'
            ? this.checked(dyn.f(o, stage), this.userDim, 'dynamics.kinematic')
            : [];
        const M =
          dyn.kind === 'increment'
            ? this.checked(dyn.f(o, stage), this.userStorage, 'dynamics.increment')
            : dyn.kind === 'next'
              ? this.checked(dyn.f(o, stage), this.userStorage, 'dynamics.next')
              : [];
        s.factors.forEach((f, i) => {
          const cD = chartOf(f, D[i]!);
          let cM: SX[];
          if (dyn.kind === 'kinematic') {
            const hxi = xi.slice(to[i]!, to[i + 1]!).map((e) => o.mul(stage.h, e));
            cM = dyn.map === 'cayley' || f.kind === 'Rn' ? hxi : chartOf(f, f.tau(o, hxi, dyn.map));
          } else {
            let Mi = M.slice(so[i]!, so[i + 1]!);
            // x_{k+1} = F: the increment is x_k⁻¹F
            if (dyn.kind === 'next')
              Mi = f.compose(o, f.inverse(o, X.slice(so[i]!, so[i + 1]!)), Mi);
            cM = chartOf(f, Mi);
          }
          c.push(...cD.map((e, j) => o.sub(e, cM[j]!)));
        });
        if (s.freeHorizon) c.push(D[factors.length - 1]![0]!);
      } else {
        const Xn = perturb(r, dxn);
        if (dyn.kind === 'defect') {
          const tr: OcpTransition<SX> = { ...stage, xNext: Xn.slice(0, this.userStorage) };
          c.push(...this.checked(dyn.f(o, tr), this.userDim, 'dynamics.defect'));
        }
        if (s.freeHorizon) c.push(o.sub(Xn[S - 1]!, X[S - 1]!));
      }
    }
    // equalities
    const geq: SX[] = [];
    const bStart = geq.length;
    const fixed = role === 'first' ? s.startFactors : role === 'last' ? s.endFactors : [];
    const refOff = role === 'first' ? this.pStart : this.pEnd;
    for (const i of fixed) {
      const f = factors[i]!;
      const ref = p.slice(refOff + so[i]!, refOff + so[i + 1]!);
      const Xi = X.slice(so[i]!, so[i + 1]!);
      geq.push(...chartOf(f, f.compose(o, f.inverse(o, ref), Xi)));
    }
    const bCount = geq.length - bStart;
    const eStart = geq.length;
    const eqFn = role === 'last' ? s.terminalEqualities : s.equalities;
    if (eqFn !== undefined) geq.push(...this.array(eqFn(o, stage), 'equalities'));
    const eCount = geq.length - eStart;
    const aeStart = geq.length;
    for (const j of at) {
      const fn = s.at[j]!.equalities;
      if (fn !== undefined) geq.push(...this.array(fn(o, stage), `at[${j}].equalities`));
    }
    const aeCount = geq.length - aeStart;
    // inequalities
    const hin: SX[] = [];
    const inFn = role === 'last' ? s.terminalInequalities : s.inequalities;
    if (inFn !== undefined) hin.push(...this.array(inFn(o, stage), 'inequalities'));
    const iCount = hin.length;
    const cbStart = hin.length;
    if (role !== 'last') {
      for (const [i, v] of s.controlLower) hin.push(o.sub(u[i]!, o.const(v)));
      for (const [i, v] of s.controlUpper) hin.push(o.sub(o.const(v), u[i]!));
    }
    const cbCount = hin.length - cbStart;
    const sbStart = hin.length;
    for (const [i, v] of s.stateLower) hin.push(o.sub(X[i]!, o.const(v)));
    for (const [i, v] of s.stateUpper) hin.push(o.sub(o.const(v), X[i]!));
    const sbCount = hin.length - sbStart;
    const hbStart = hin.length;
    if (role === 'first' && s.freeHorizon) {
      hin.push(o.sub(X[S - 1]!, p[this.pTmin]!), o.sub(p[this.pTmax]!, X[S - 1]!));
    }
    const hbCount = hin.length - hbStart;
    const aiStart = hin.length;
    for (const j of at) {
      const fn = s.at[j]!.inequalities;
      if (fn !== undefined) hin.push(...this.array(fn(o, stage), `at[${j}].inequalities`));
    }
    const aiCount = hin.length - aiStart;
    const ny = c.length;
    if (hasNext && ny !== nx) throw new DimensionError('ocp: dynamics rows', nx, ny);
    const ng = geq.length;
    const nh = hin.length;
    const nw = nx + nu;
    // derivatives
    const wk = [...dx, ...u];
    const w = [...wk, ...dxn];
    const grad = g.jacobian([cost], wk);
    const Jc = g.jacobian(c, w);
    const Jg = g.jacobian(geq, wk);
    const Jh = g.jacobian(hin, wk);
    const sigma = g.symbol('sigma');
    const lam = g.symbols(ny, 'lambda');
    const mu = g.symbols(ng, 'mu');
    const eta = g.symbols(nh, 'eta');
    let L = o.mul(sigma, cost);
    c.forEach((e, i) => {
      L = o.add(L, o.mul(lam[i]!, e));
    });
    geq.forEach((e, i) => {
      L = o.add(L, o.mul(mu[i]!, e));
    });
    hin.forEach((e, i) => {
      L = o.add(L, o.mul(eta[i]!, e));
    });
    const H = g.hessian(L, w);
    // at δ = 0
    const deltas = [...dx, ...dxn];
    const zeros = deltas.map(() => zero);
    const at0 = (v: readonly SX[]): SX[] => g.substitute(v, deltas, zeros);
    const values = at0([cost, ...c, ...geq, ...hin, ...margins]);
    const sparse = (J: SparseSX, width: number, rowStride: number) => {
      const vals = at0(J.values);
      const idx: number[] = [];
      const keep: SX[] = [];
      const { rowStart, col } = J.pattern;
      for (let i = 0; i < J.pattern.rows; i++) {
        for (let e = rowStart[i]!; e < rowStart[i + 1]!; e++) {
          const v = vals[e]!;
          if (g.constantValue(v) === 0) continue;
          if (col[e]! >= width) continue;
          idx.push(i * rowStride + col[e]!);
          keep.push(v);
        }
      }
      return { idx: Int32Array.from(idx), vals: keep };
    };
    const gr = sparse(grad, nw, 0);
    const cj = sparse(Jc, nw + ny, nw + ny);
    const gj = sparse(Jg, nw, nw);
    const hj = sparse(Jh, nw, nw);
    const hw = nw + ny;
    const hv = at0(H.values);
    const hIdx: number[] = [];
    const hMir: number[] = [];
    const hKeep: SX[] = [];
    for (let i = 0; i < H.pattern.rows; i++) {
      for (let e = H.pattern.rowStart[i]!; e < H.pattern.rowStart[i + 1]!; e++) {
        const v = hv[e]!;
        if (g.constantValue(v) === 0) continue;
        const j = H.pattern.col[e]!;
        hIdx.push(i * hw + j);
        hMir.push(j * hw + i);
        hKeep.push(v);
      }
    }
    const level1 = [...values, ...gr.vals, ...cj.vals, ...gj.vals, ...hj.vals];
    const inputs = [x, u, r, p];
    const wts = [sigma, ...lam, ...mu, ...eta];
    const name = `ocp stage (${role}${at.length > 0 ? ` + at ${at.join(',')}` : ''})`;
    const f0 = compileSym(g, inputs, values, { name: `${name} values` });
    const f1 = compileSym(g, inputs, level1, { name: `${name} derivatives` });
    const f2 = compileSym(g, [...inputs, wts], [...level1, ...hKeep], { name: `${name} hessian` });
    const tape = { mode: 'interpreter' } as const;
    const tapes = [
      compileSym(g, inputs, values, { name: `${name} values`, ...tape }),
      compileSym(g, inputs, level1, { name: `${name} derivatives`, ...tape }),
      compileSym(g, [...inputs, wts], [...level1, ...hKeep], { name: `${name} hessian`, ...tape }),
    ] as const;
    const block = (offset: number, count: number): OcpRowBlock => ({ offset, count });
    return {
      dims: { nx, nu, ng, nh },
      ny,
      rows: {
        boundary: block(bStart, bCount),
        equalities: block(eStart, eCount),
        atEqualities: block(aeStart, aeCount),
        inequalities: block(0, iCount),
        controlBounds: block(cbStart, cbCount),
        stateBounds: block(sbStart, sbCount),
        horizonBounds: block(hbStart, hbCount),
        atInequalities: block(aiStart, aiCount),
      },
      f0,
      f1,
      f2,
      tapes,
      nMargins: margins.length,
      gradIndex: gr.idx,
      cJacIndex: cj.idx,
      gJacIndex: gj.idx,
      hJacIndex: hj.idx,
      hessIndex: Int32Array.from(hIdx),
      hessMirror: Int32Array.from(hMir),
      operations: [f0.operations, f1.operations, f2.operations],
    };
  }

  private array(v: readonly SX[], what: string): readonly SX[] {
    if (!Array.isArray(v)) throw new DimensionError(`ocp: ${what}`, 'an array', typeof v);
    return v;
  }
}

/**
 * Stage kinds that an instance evaluates at fewer stages than this (the first and last stage, the
 * stages of `at` constraints) run on tapes; the others on generated code. Generated code runs
 * unoptimised, allocating a heap number per operation, until V8 finds it hot, and a function called
 * a few times per iteration never gets there (measured: ~56 KB per interior-point iteration at
 * plate-ball n = 200–1000 after 150 warm-up solves), while the one interpreter loop that every tape
 * shares is optimised early. Kinds used at many stages get the faster straight-line code.
 */
const OCP_GENERATED_MIN_STAGES = 16;

/**
 * The {@link StageOcp} of one instance of a program: N, the parameter vector, the stage kinds,
 * evaluation through the compiled functions with no allocation per call.
 */
export class CompiledStageOcp implements StageOcp {
  readonly N: number;
  readonly program: OcpProgram;
  /** The parameter vector p (p[0] is set to k before each call). */
  readonly p: Float64Array;
  readonly kinds: readonly CompiledStageKind[];
  /** Index into {@link kinds} of each stage. */
  readonly stageKind: Int32Array;
  private readonly buf: Float64Array;
  private readonly wts: Float64Array;
  private readonly rel: Float64Array;
  /** Per kind, the functions evaluated: generated code or tapes (see OCP_GENERATED_MIN_STAGES). */
  private readonly fn0: SymFunction[] = [];
  private readonly fn1: SymFunction[] = [];
  private readonly fn2: SymFunction[] = [];

  constructor(program: OcpProgram, N: number, p: Float64Array, atStages: readonly number[][]) {
    this.program = program;
    this.N = N;
    this.p = p;
    const kinds: CompiledStageKind[] = [];
    const index = new Map<CompiledStageKind, number>();
    this.stageKind = new Int32Array(N + 1);
    for (let k = 0; k <= N; k++) {
      const role = k === 0 ? 'first' : k === N ? 'last' : 'middle';
      const K = program.kind(role, atStages[k] ?? []);
      let i = index.get(K);
      if (i === undefined) {
        i = kinds.length;
        kinds.push(K);
        index.set(K, i);
      }
      this.stageKind[k] = i;
    }
    this.kinds = kinds;
    const uses = new Int32Array(kinds.length);
    for (let k = 0; k <= N; k++) uses[this.stageKind[k]!]!++;
    kinds.forEach((K, i) => {
      const hot = uses[i]! >= OCP_GENERATED_MIN_STAGES;
      this.fn0.push(hot ? K.f0 : K.tapes[0]);
      this.fn1.push(hot ? K.f1 : K.tapes[1]);
      this.fn2.push(hot ? K.f2 : K.tapes[2]);
    });
    let len = 0;
    let wl = 0;
    for (const K of kinds) {
      len = Math.max(len, K.f2.outputs);
      wl = Math.max(wl, 1 + K.ny + K.dims.ng + K.dims.nh);
    }
    this.buf = new Float64Array(len);
    this.wts = new Float64Array(wl);
    this.rel = new Float64Array(program.storage);
  }

  dims(k: number): OcpStageDims {
    return this.kinds[this.stageKind[k]!]!.dims;
  }

  stateStorage(): number {
    return this.program.storage;
  }

  retract(_k: number, out: Float64Array, x: Float64Array, dx: Float64Array): void {
    this.program.retract(out, x, dx);
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
    const ki = this.stageKind[k]!;
    const K = this.kinds[ki]!;
    const p = this.p;
    p[P_K] = k;
    let r: Float64Array = EMPTY;
    if (xNext !== undefined) {
      if (this.program.relative) {
        this.program.relativeOf(this.rel, x, xNext);
        r = this.rel;
      } else r = xNext;
    }
    const buf = this.buf;
    if (level === 0) this.fn0[ki]!(buf, x, u, r, p);
    else if (level === 1) this.fn1[ki]!(buf, x, u, r, p);
    else {
      const w = this.wts;
      const ny = K.ny;
      const ng = K.dims.ng;
      const nh = K.dims.nh;
      w[0] = sigma;
      for (let i = 0; i < ny; i++) w[1 + i] = lambda[i]!;
      for (let i = 0; i < ng; i++) w[1 + ny + i] = mu[i]!;
      for (let i = 0; i < nh; i++) w[1 + ny + ng + i] = eta[i]!;
      this.fn2[ki]!(buf, x, u, r, p, w);
    }
    this.scatter(K, level, out);
  }

  private scatter(K: CompiledStageKind, level: 0 | 1 | 2, out: OcpStageEval): void {
    const buf = this.buf;
    const ny = K.ny;
    const { ng, nh } = K.dims;
    let q = 1 + ny + ng + nh;
    for (let i = 0; i < K.nMargins; i++) {
      if (!(buf[q + i]! > OCP_CHART_MARGIN)) {
        out.cost = Number.NaN;
        return;
      }
    }
    out.cost = buf[0]!;
    const c = out.c;
    for (let i = 0; i < ny; i++) c[i] = buf[1 + i]!;
    const gg = out.g;
    for (let i = 0; i < ng; i++) gg[i] = buf[1 + ny + i]!;
    const hh = out.h;
    for (let i = 0; i < nh; i++) hh[i] = buf[1 + ny + ng + i]!;
    if (level === 0) return;
    q += K.nMargins;
    q = put(out.costGrad, K.gradIndex, buf, q);
    q = put(out.cJac, K.cJacIndex, buf, q);
    q = put(out.gJac, K.gJacIndex, buf, q);
    q = put(out.hJac, K.hJacIndex, buf, q);
    if (level === 1) return;
    const H = out.hess;
    H.fill(0);
    const hi = K.hessIndex;
    const hm = K.hessMirror;
    for (let e = 0; e < hi.length; e++) {
      const v = buf[q + e]!;
      H[hi[e]!] = v;
      H[hm[e]!] = v;
    }
  }
}

/** dst ← 0, then dst[idx[e]] ← buf[q + e]; returns q + idx.length. */
function put(dst: Float64Array, idx: Int32Array, buf: Float64Array, q: number): number {
  dst.fill(0);
  for (let e = 0; e < idx.length; e++) dst[idx[e]!] = buf[q + e]!;
  return q + idx.length;
}
