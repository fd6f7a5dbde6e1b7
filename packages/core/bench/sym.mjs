// Benchmarks of the symbolic graphs (src/sym): for each case the graph sizes, the compile time
// (tracing, differentiation, code generation and `new Function`) and the evaluation time of the
// compiled functions against hand-written JavaScript of the same quantity, with the allocation per
// call. Cases: (a) an SO(3) chordal cost Σ‖Exp(δₖ)Rₖ − Rₖ₊₁‖² over 20 rotations (the branch-free
// relative of Σ‖Log(Rₖ₊₁⁻¹Exp(δₖ)Rₖ)‖²) at δ = 0, with its exact Hessian there; (b) the models of
// issue 18: a 24-coordinate coupled oscillator and sin nested 9 deep in 64 coordinates (gradient
// and Hessian of the Lagrangian in (q, q̇, z)); (c) the coupled oscillator with 128 and 256
// coordinates. Run after a build (`pnpm build`): node bench/sym.mjs.
import { bytesPerCall, core, fmt, median } from './harness.mjs';

const { SymGraph, compileSym, compileSymNlp, SO3, Dual, DualOps } = core;

/**
 * ns per call of `call(k)`, median of 7 batches after a warm-up. The loop is compiled afresh for
 * each measurement, so no call site is shared between the functions measured (a shared one turns
 * megamorphic and slows every later measurement).
 */
function ns(call, batch) {
  const loop = new Function('call', 'n', 'for (let k = 0; k < n; k++) call(k);');
  const t0 = performance.now();
  while (performance.now() - t0 < 300) loop(call, batch);
  const times = [];
  for (let r = 0; r < 7; r++) {
    const t1 = performance.now();
    loop(call, batch);
    times.push(((performance.now() - t1) * 1e6) / batch);
  }
  return median(times);
}

const rows = [];
function row(label, nodes, compileMs, compiled, hand, bytes) {
  rows.push(
    `| ${label} | ${nodes} | ${fmt(compileMs, 1)} | ${fmt(compiled, 1)} | ${hand === undefined ? '—' : fmt(hand, 1)} | ${hand === undefined ? '—' : fmt(compiled / hand, 2)} | ${fmt(bytes, 1)} |`,
  );
}

// ---------------------------------------------------------------------------------------------
// (a) SO(3): f(δ) = Σₖ ‖Exp(δₖ)Rₖ − Rₖ₊₁‖²_F, Exp(δ) = I + c₁(θ²)δ̂ + c₂(θ²)δ̂²

function exp3(o, d0, d1, d2) {
  const t = o.add(o.add(o.mul(d0, d0), o.mul(d1, d1)), o.mul(d2, d2));
  const a = o.stumpff(1, t);
  const b = o.stumpff(2, t);
  const d = [d0, d1, d2];
  const W = [o.const(0), o.neg(d2), d1, d2, o.const(0), o.neg(d0), o.neg(d1), d0, o.const(0)];
  const out = [];
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const sq = o.sub(o.mul(d[i], d[j]), i === j ? t : o.const(0));
      const e = o.add(o.mul(a, W[3 * i + j]), o.mul(b, sq));
      out.push(i === j ? o.add(o.const(1), e) : e);
    }
  }
  return out;
}

function chordal(o, x, R) {
  let f = o.const(0);
  for (let k = 0; k + 1 < R.length; k++) {
    const E = exp3(o, x[3 * k], x[3 * k + 1], x[3 * k + 2]);
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        let v = o.const(-R[k + 1][3 * i + j]);
        for (let l = 0; l < 3; l++) v = o.add(v, o.mul(E[3 * i + l], o.const(R[k][3 * l + j])));
        f = o.add(f, o.mul(v, v));
      }
    }
  }
  return f;
}

{
  const K = 21;
  const R = Array.from({ length: K }, (_, k) =>
    SO3.exp(new Float64Array(9), Float64Array.of(0.1 * k, -0.05 * k, 0.3)),
  );
  const n = 3 * (K - 1);
  const t0 = performance.now();
  const g = new SymGraph();
  const x = g.symbols(n, 'd');
  const f = chordal(g.ops, x, R);
  const nlp = compileSymNlp(g, { variables: x, objective: f });
  const compileMs = performance.now() - t0;
  const zero = new Float64Array(n);
  const p = new Float64Array(0);
  const grad = new Float64Array(n);
  const H = new Float64Array(n * n);
  const none = new Float64Array(0);
  // hand-written value with core's SO3.exp (closed form with Taylor branches)
  const E = new Float64Array(9);
  const tau = new Float64Array(3);
  const hand = (d) => {
    let s = 0;
    for (let k = 0; k + 1 < K; k++) {
      tau[0] = d[3 * k];
      tau[1] = d[3 * k + 1];
      tau[2] = d[3 * k + 2];
      SO3.exp(E, tau);
      const A = R[k];
      const B = R[k + 1];
      for (let i = 0; i < 3; i++) {
        for (let j = 0; j < 3; j++) {
          const v =
            E[3 * i] * A[j] + E[3 * i + 1] * A[3 + j] + E[3 * i + 2] * A[6 + j] - B[3 * i + j];
          s += v * v;
        }
      }
    }
    return s;
  };
  const nodes = g.countNodes([f]);
  let sink = 0;
  row(
    'SO(3) chordal cost, 20 rotations: value at δ = 0',
    nodes,
    compileMs,
    ns(() => {
      sink += nlp.objective(zero, p);
    }, 20_000),
    ns(() => {
      sink += hand(zero);
    }, 20_000),
    bytesPerCall(() => nlp.objective(zero, p)),
  );
  // gradient: compiled (one reverse sweep) against dual numbers (60 tangents per operation)
  const duals = Dual.variables(zero);
  row(
    '  gradient (60) vs dual numbers',
    g.countNodes(nlp ? [f] : []),
    0,
    ns(() => nlp.gradient(grad, zero, p), 20_000),
    ns(() => {
      sink += chordal(DualOps, duals, R).value;
    }, 200),
    bytesPerCall(() => nlp.gradient(grad, zero, p)),
  );
  row(
    '  Hessian (60×60 dense) at δ = 0',
    '',
    0,
    ns(() => nlp.hessian(H, zero, p, 1, none), 2_000),
    undefined,
    bytesPerCall(() => nlp.hessian(H, zero, p, 1, none), 20, 1000),
  );
  if (!Number.isFinite(H[0]) || sink === 17) console.log('unexpected');
}

// ---------------------------------------------------------------------------------------------
// (b, c) contact Lagrangians of issue 18: gradient and Hessian in x = (q, q̇, z)

/** L = ½Σ q̇ᵢ² − ½k(q₀² + Σ(qᵢ − qᵢ₊₁)²) + γz: traced, with a hand-written ∇V and ∇²V. */
function coupled(n) {
  return {
    label: `coupled oscillator, ${n} coordinates`,
    L: (o, q, v, z) => {
      let kin = o.const(0);
      for (let i = 0; i < n; i++) kin = o.add(kin, o.mul(v[i], v[i]));
      let V = o.mul(q[0], q[0]);
      for (let i = 0; i + 1 < n; i++) {
        const d = o.sub(q[i], q[i + 1]);
        V = o.add(V, o.mul(d, d));
      }
      return o.add(o.sub(o.scale(kin, 0.5), o.scale(V, 0.5)), o.scale(z, -0.01));
    },
    gradient: (out, q, v) => {
      // (−∇V, v, γ)
      for (let i = 0; i < n; i++) {
        let gi = i === 0 ? q[0] : 0;
        if (i > 0) gi += q[i] - q[i - 1];
        if (i + 1 < n) gi += q[i] - q[i + 1];
        out[i] = -gi;
        out[n + i] = v[i];
      }
      out[2 * n] = -0.01;
    },
    hessian: (out) => {
      const N = 2 * n + 1;
      out.fill(0);
      for (let i = 0; i < n; i++) {
        out[i * N + i] = -((i === 0 ? 1 : 0) + (i > 0 ? 1 : 0) + (i + 1 < n ? 1 : 0));
        if (i + 1 < n) out[i * N + i + 1] = out[(i + 1) * N + i] = 1;
        out[(n + i) * N + n + i] = 1;
      }
    },
  };
}

/** L = ½Σ ȧᵢ² − sin⁹(Σaᵢ) + γz(1 + ȧ₀/10): traced, with a hand-written gradient and Hessian. */
function nested(n) {
  const g = -0.05;
  // f = sin∘…∘sin (9 times) and its first two derivatives by the chain rule
  const f012 = (s) => {
    let f = s;
    let d1 = 1;
    let d2 = 0;
    for (let k = 0; k < 9; k++) {
      const c = Math.cos(f);
      const sn = Math.sin(f);
      d2 = c * d2 - sn * d1 * d1;
      d1 = c * d1;
      f = sn;
    }
    return [f, d1, d2];
  };
  return {
    label: `sin nested 9 deep, ${n} coordinates (general)`,
    L: (o, q, v, z) => {
      let s = q[0];
      for (let i = 1; i < n; i++) s = o.add(s, q[i]);
      for (let k = 0; k < 9; k++) s = o.sin(s);
      let kin = o.const(0);
      for (let i = 0; i < n; i++) kin = o.add(kin, o.mul(v[i], v[i]));
      const damp = o.mul(o.scale(z, g), o.add(o.const(1), o.scale(v[0], 0.1)));
      return o.add(o.sub(o.scale(kin, 0.5), s), damp);
    },
    gradient: (out, q, v, z) => {
      let s = 0;
      for (let i = 0; i < n; i++) s += q[i];
      const d1 = f012(s)[1];
      for (let i = 0; i < n; i++) {
        out[i] = -d1;
        out[n + i] = v[i];
      }
      out[n] += 0.1 * g * z;
      out[2 * n] = g * (1 + 0.1 * v[0]);
    },
    hessian: (out, q) => {
      const N = 2 * n + 1;
      let s = 0;
      for (let i = 0; i < n; i++) s += q[i];
      const d2 = f012(s)[2];
      out.fill(0);
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) out[i * N + j] = -d2;
        out[(n + i) * N + n + i] = 1;
      }
      out[n * N + 2 * n] = out[2 * n * N + n] = 0.1 * g;
    },
  };
}

for (const model of [coupled(24), nested(64), coupled(128), coupled(256)]) {
  const n = model.label.match(/(\d+) coordinates/)[1] * 1;
  const N = 2 * n + 1;
  const t0 = performance.now();
  const g = new SymGraph();
  const q = g.symbols(n, 'q');
  const v = g.symbols(n, 'v');
  const z = g.symbol('z');
  const L = model.L(g.ops, q, v, z);
  const xs = [...q, ...v, z];
  const grad = g.gradient(L, xs);
  const H = g.hessian(L, xs);
  const fg = compileSym(g, [q, v, z], grad);
  const fh = compileSym(g, [q, v, z], g.dense(H));
  const compileMs = performance.now() - t0;
  const qa = Float64Array.from({ length: n }, (_, i) => 0.01 * Math.sin(i + 1));
  const va = Float64Array.from({ length: n }, (_, i) => 0.02 * Math.cos(i));
  const og = new Float64Array(N);
  const oh = new Float64Array(N * N);
  const hg = new Float64Array(N);
  const hh = new Float64Array(N * N);
  fg(og, qa, va, 0.3);
  model.gradient(hg, qa, va, 0.3);
  fh(oh, qa, va, 0.3);
  model.hessian(hh, qa, va, 0.3);
  let err = 0;
  for (let i = 0; i < N; i++) err = Math.max(err, Math.abs(og[i] - hg[i]));
  for (let i = 0; i < N * N; i++) err = Math.max(err, Math.abs(oh[i] - hh[i]));
  if (!(err < 1e-12)) console.log(`${model.label}: compiled and hand-written differ by ${err}`);
  const graph = `${g.countNodes([L])} / ${g.countNodes(grad)} / ${g.countNodes([...H.values])} (${H.pattern.nnz} nnz)`;
  const batch = Math.max(100, Math.floor(2e6 / (N * N)));
  row(
    `${model.label}: gradient`,
    graph,
    compileMs,
    ns(() => fg(og, qa, va, 0.3), 20 * batch),
    ns(() => model.gradient(hg, qa, va, 0.3), 20 * batch),
    bytesPerCall(() => fg(og, qa, va, 0.3), 20, 1000),
  );
  row(
    `  Hessian (${N}×${N} dense)`,
    '',
    0,
    ns(() => fh(oh, qa, va, 0.3), batch),
    ns(() => model.hessian(hh, qa, va, 0.3), batch),
    bytesPerCall(() => fh(oh, qa, va, 0.3), 20, 100),
  );
}

console.log('## Symbolic graphs: compile once, evaluate flat');
console.log('');
console.log(
  'Graph nodes: value (or L / ∇L / Hessian values, with the stored lower-triangle entries); compile: trace, differentiate and generate all functions of the case; evaluation against hand-written JavaScript of the same quantity.',
);
console.log('');
console.log(
  '| case | graph nodes | compile ms | compiled ns/call | hand-written ns/call | ratio | bytes/call |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const r of rows) console.log(r);
