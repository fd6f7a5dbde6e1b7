import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"CLI reference","description":"","frontmatter":{},"headers":[],"relativePath":"cli-reference.md","filePath":"cli-reference.md"}');
const _sfc_main = { name: "cli-reference.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="cli-reference" tabindex="-1">CLI reference <a class="header-anchor" href="#cli-reference" aria-label="Permalink to &quot;CLI reference&quot;">​</a></h1><p>This page is generated at build time from the <code>--help</code> output of the built <code>geomech</code> command (<code>packages/cli</code>); a test fails when it no longer matches. The stable contract (output fields, exit codes, model files) is described in the <a href="./cli">CLI guide</a>.</p><table tabindex="0"><thead><tr><th>command</th><th>what it does</th></tr></thead><tbody><tr><td><a href="#geomech-list"><code>geomech list</code></a></td><td>list the built-in systems and problems with their methods, parameters and defaults</td></tr><tr><td><a href="#geomech-simulate"><code>geomech simulate</code></a></td><td>integrate a built-in system, or a user model (--model), with a structure-preserving method</td></tr><tr><td><a href="#geomech-order"><code>geomech order</code></a></td><td>measure the convergence order of a method against the exact solution</td></tr><tr><td><a href="#geomech-solve"><code>geomech solve</code></a></td><td>solve a discrete optimal-control problem with an interior-point method over the whole trajectory</td></tr><tr><td><a href="#geomech-sweep"><code>geomech sweep</code></a></td><td>run a parameter sweep (grid and/or seeded samples) of simulate, solve or order on all cores</td></tr><tr><td><a href="#geomech-merge"><code>geomech merge</code></a></td><td>join the shard files of <code>geomech sweep --shard K/N</code> into the full table</td></tr></tbody></table><h2 id="geomech" tabindex="-1"><code>geomech</code> <a class="header-anchor" href="#geomech" aria-label="Permalink to &quot;\`geomech\`&quot;">​</a></h2><div class="language-text vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">text</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span>Usage: geomech [options] [command]</span></span>
<span class="line"><span></span></span>
<span class="line"><span>Structure-preserving mechanics and optimal control: simulations and</span></span>
<span class="line"><span>optimal-control solves.</span></span>
<span class="line"><span></span></span>
<span class="line"><span>Options:</span></span>
<span class="line"><span>  -V, --version                print the version</span></span>
<span class="line"><span>  --debug                      print stack traces of errors</span></span>
<span class="line"><span>  -h, --help                   display help for command</span></span>
<span class="line"><span></span></span>
<span class="line"><span>Commands:</span></span>
<span class="line"><span>  list [options]               list the built-in systems and problems with their</span></span>
<span class="line"><span>                               methods, parameters and defaults</span></span>
<span class="line"><span>  simulate [options] [system]  integrate a built-in system, or a user model</span></span>
<span class="line"><span>                               (--model), with a structure-preserving method</span></span>
<span class="line"><span>  order [options] &lt;system&gt;     measure the convergence order of a method against</span></span>
<span class="line"><span>                               the exact solution</span></span>
<span class="line"><span>  solve [options] [problem]    solve a discrete optimal-control problem with an</span></span>
<span class="line"><span>                               interior-point method over the whole trajectory</span></span>
<span class="line"><span>  sweep [options] &lt;spec.json&gt;  run a parameter sweep (grid and/or seeded</span></span>
<span class="line"><span>                               samples) of simulate, solve or order on all cores</span></span>
<span class="line"><span>  merge [options] &lt;shard...&gt;   join the shard files of \`geomech sweep --shard</span></span>
<span class="line"><span>                               K/N\` into the full table</span></span>
<span class="line"><span>  help [command]               display help for command</span></span>
<span class="line"><span></span></span>
<span class="line"><span>Examples:</span></span>
<span class="line"><span>  $ geomech list</span></span>
<span class="line"><span>  $ geomech simulate pendulum --method dirac-2c --t-end 20 --plot pendulum.svg</span></span>
<span class="line"><span>  $ geomech solve plate-ball --param Omega=0.5 --n 200 --out loop.json</span></span>
<span class="line"><span></span></span>
<span class="line"><span>Exit codes: 0 success (also when the reader of stdout has gone, as with | head), 1 numerical failure, 2 bad usage or input (also a file that cannot be read or written).</span></span>
<span class="line"><span></span></span>
<span class="line"><span>Limits (each refused with exit 2 before any work): --steps (or --t-end/--h) 1e8;</span></span>
<span class="line"><span>Ziegler links --param n 1000; solve --n 10000; --continuation 100;</span></span>
<span class="line"><span>--max-iter 10000; order --levels 20 and 1e7 steps over all levels;</span></span>
<span class="line"><span>output 1 GiB (estimated before the run: use --every); --model files 1 MiB,</span></span>
<span class="line"><span>--guess files 64 MiB, --input files 64 MiB (regular files only).</span></span></code></pre></div><h2 id="geomech-list" tabindex="-1"><code>geomech list</code> <a class="header-anchor" href="#geomech-list" aria-label="Permalink to &quot;\`geomech list\`&quot;">​</a></h2><div class="language-text vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">text</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span>Usage: geomech list [options]</span></span>
<span class="line"><span></span></span>
<span class="line"><span>list the built-in systems and problems with their methods, parameters and</span></span>
<span class="line"><span>defaults</span></span>
<span class="line"><span></span></span>
<span class="line"><span>Options:</span></span>
<span class="line"><span>  --json      machine-readable output</span></span>
<span class="line"><span>  -h, --help  display help for command</span></span>
<span class="line"><span></span></span>
<span class="line"><span>Examples:</span></span>
<span class="line"><span>  $ geomech list</span></span>
<span class="line"><span>  $ geomech list --json</span></span></code></pre></div><h2 id="geomech-simulate" tabindex="-1"><code>geomech simulate</code> <a class="header-anchor" href="#geomech-simulate" aria-label="Permalink to &quot;\`geomech simulate\`&quot;">​</a></h2><div class="language-text vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">text</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span>Usage: geomech simulate [options] [system]</span></span>
<span class="line"><span></span></span>
<span class="line"><span>integrate a built-in system, or a user model (--model), with a</span></span>
<span class="line"><span>structure-preserving method</span></span>
<span class="line"><span></span></span>
<span class="line"><span>Arguments:</span></span>
<span class="line"><span>  system                system name (see \`geomech list\`); omit with --model</span></span>
<span class="line"><span></span></span>
<span class="line"><span>Options:</span></span>
<span class="line"><span>  --method &lt;name&gt;       integrator (default: the first listed for the system)</span></span>
<span class="line"><span>  --h &lt;step&gt;            time step</span></span>
<span class="line"><span>  --t-end &lt;T&gt;           horizon; steps = round(T/h), at most 1e8</span></span>
<span class="line"><span>  --param &lt;name=value&gt;  model parameter, repeatable (default: [])</span></span>
<span class="line"><span>  --init &lt;name=value&gt;   initial datum (comma list for vectors), repeatable</span></span>
<span class="line"><span>                        (default: [])</span></span>
<span class="line"><span>  --tol &lt;x&gt;             Newton tolerance per step</span></span>
<span class="line"><span>  --max-iter &lt;k&gt;        Newton iteration cap per step (at most 10000)</span></span>
<span class="line"><span>  --steps &lt;n&gt;           number of steps (at most 1e8)</span></span>
<span class="line"><span>  --every &lt;k&gt;           keep every k-th state (first and last always kept)</span></span>
<span class="line"><span>  --format &lt;format&gt;     output format (default: from --out extension, else json)</span></span>
<span class="line"><span>                        (choices: &quot;json&quot;, &quot;csv&quot;)</span></span>
<span class="line"><span>  --out &lt;file&gt;          write the result to a file instead of stdout</span></span>
<span class="line"><span>                        (atomically)</span></span>
<span class="line"><span>  --model &lt;file.json&gt;   user-defined system: a JSON model file of at most 1 MiB</span></span>
<span class="line"><span>                        (see the CLI README)</span></span>
<span class="line"><span>  --input &lt;file&gt;        control sequence of a --model with &quot;inputs&quot;: one row of</span></span>
<span class="line"><span>                        u per step, JSON [[...], ...] or CSV, at most 64 MiB</span></span>
<span class="line"><span>  --plot &lt;file.svg&gt;     also draw the main series to an SVG file</span></span>
<span class="line"><span>  --quiet               no warnings or progress on stderr</span></span>
<span class="line"><span>  -h, --help            display help for command</span></span>
<span class="line"><span></span></span>
<span class="line"><span>Examples:</span></span>
<span class="line"><span>  $ geomech simulate damped-oscillator --h 0.5 --steps 50</span></span>
<span class="line"><span>  $ geomech simulate pendulum --method rattle --t-end 20 --every 10 --out pendulum.csv --plot pendulum.svg</span></span>
<span class="line"><span></span></span>
<span class="line"><span>Warnings (stderr on a terminal, &quot;warnings&quot; in the JSON) report a step above the system&#39;s time scale and a run that leaves the system&#39;s accuracy bands (constraint residual, energy drift; see the CLI README). A failed run exits 1 and, with --out, writes its partial result with &quot;ok&quot;: false (CSV: a last line &quot;# ok=false reason=...&quot;).</span></span>
<span class="line"><span></span></span>
<span class="line"><span>Limits (each refused with exit 2 before any work): --steps (or --t-end/--h) 1e8;</span></span>
<span class="line"><span>Ziegler links --param n 1000; solve --n 10000; --continuation 100;</span></span>
<span class="line"><span>--max-iter 10000; order --levels 20 and 1e7 steps over all levels;</span></span>
<span class="line"><span>output 1 GiB (estimated before the run: use --every); --model files 1 MiB,</span></span>
<span class="line"><span>--guess files 64 MiB, --input files 64 MiB (regular files only).</span></span></code></pre></div><h2 id="geomech-order" tabindex="-1"><code>geomech order</code> <a class="header-anchor" href="#geomech-order" aria-label="Permalink to &quot;\`geomech order\`&quot;">​</a></h2><div class="language-text vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">text</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span>Usage: geomech order [options] &lt;system&gt;</span></span>
<span class="line"><span></span></span>
<span class="line"><span>measure the convergence order of a method against the exact solution</span></span>
<span class="line"><span></span></span>
<span class="line"><span>Arguments:</span></span>
<span class="line"><span>  system                system name (see \`geomech list\`)</span></span>
<span class="line"><span></span></span>
<span class="line"><span>Options:</span></span>
<span class="line"><span>  --method &lt;name&gt;       integrator (default: the first listed for the system)</span></span>
<span class="line"><span>  --h &lt;step&gt;            time step</span></span>
<span class="line"><span>  --t-end &lt;T&gt;           horizon; steps = round(T/h), at most 1e8</span></span>
<span class="line"><span>  --param &lt;name=value&gt;  model parameter, repeatable (default: [])</span></span>
<span class="line"><span>  --init &lt;name=value&gt;   initial datum (comma list for vectors), repeatable</span></span>
<span class="line"><span>                        (default: [])</span></span>
<span class="line"><span>  --tol &lt;x&gt;             Newton tolerance per step</span></span>
<span class="line"><span>  --max-iter &lt;k&gt;        Newton iteration cap per step (at most 10000)</span></span>
<span class="line"><span>  --levels &lt;k&gt;          number of step sizes h0, h0/2, … (default 5, at most 20;</span></span>
<span class="line"><span>                        all levels together at most 1e7 steps)</span></span>
<span class="line"><span>  --out &lt;file&gt;          write the result to a file instead of stdout</span></span>
<span class="line"><span>                        (atomically)</span></span>
<span class="line"><span>  -h, --help            display help for command</span></span>
<span class="line"><span></span></span>
<span class="line"><span>Examples:</span></span>
<span class="line"><span>  $ geomech order damped-oscillator --method implicit-z-midpoint --param gamma=-0.5</span></span>
<span class="line"><span>  $ geomech order pendulum --method rk4 --h 0.01 --t-end 2 --levels 4</span></span>
<span class="line"><span></span></span>
<span class="line"><span>Limits (each refused with exit 2 before any work): --steps (or --t-end/--h) 1e8;</span></span>
<span class="line"><span>Ziegler links --param n 1000; solve --n 10000; --continuation 100;</span></span>
<span class="line"><span>--max-iter 10000; order --levels 20 and 1e7 steps over all levels;</span></span>
<span class="line"><span>output 1 GiB (estimated before the run: use --every); --model files 1 MiB,</span></span>
<span class="line"><span>--guess files 64 MiB, --input files 64 MiB (regular files only).</span></span></code></pre></div><h2 id="geomech-solve" tabindex="-1"><code>geomech solve</code> <a class="header-anchor" href="#geomech-solve" aria-label="Permalink to &quot;\`geomech solve\`&quot;">​</a></h2><div class="language-text vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">text</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span>Usage: geomech solve [options] [problem]</span></span>
<span class="line"><span></span></span>
<span class="line"><span>solve a discrete optimal-control problem with an interior-point method over the</span></span>
<span class="line"><span>whole trajectory</span></span>
<span class="line"><span></span></span>
<span class="line"><span>Arguments:</span></span>
<span class="line"><span>  problem               problem name (see \`geomech list\`); omit with --model</span></span>
<span class="line"><span></span></span>
<span class="line"><span>Options:</span></span>
<span class="line"><span>  --model &lt;file.json&gt;   user-defined problem: an optimal-control model file (see</span></span>
<span class="line"><span>                        the CLI README)</span></span>
<span class="line"><span>  --method &lt;name&gt;       interior-point (the only one, default)</span></span>
<span class="line"><span>  --param &lt;name=value&gt;  problem parameter, repeatable (e.g. phi=2, map=exp)</span></span>
<span class="line"><span>                        (default: [])</span></span>
<span class="line"><span>  --n &lt;n&gt;               number of steps (h = 1/n), at most 10000</span></span>
<span class="line"><span>  --start &lt;v1,v2,...&gt;   start (plate-ball: x,y,ax,ay,az; unicycle-parking:</span></span>
<span class="line"><span>                        x,y,theta; see \`geomech list\`)</span></span>
<span class="line"><span>  --end &lt;v1,v2,...&gt;     end (plate-ball: x,y,ax,ay,az; unicycle-parking:</span></span>
<span class="line"><span>                        x,y,theta; satellite: ax,ay,az)</span></span>
<span class="line"><span>  --tol &lt;x&gt;             the solver&#39;s tolerance on its scaled optimality error</span></span>
<span class="line"><span>                        (default 1e-10)</span></span>
<span class="line"><span>  --max-iter &lt;k&gt;        iteration cap of each solve (default 3000, at most</span></span>
<span class="line"><span>                        10000; 0 only evaluates the --guess)</span></span>
<span class="line"><span>  --guess &lt;file.json&gt;   warm start from a previous solution (its JSON output, at</span></span>
<span class="line"><span>                        most 64 MiB)</span></span>
<span class="line"><span>  --continuation &lt;k&gt;    solve k intermediate problems from an easy one first (at</span></span>
<span class="line"><span>                        most 100)</span></span>
<span class="line"><span>  --format &lt;format&gt;     output format (default: from --out extension, else json)</span></span>
<span class="line"><span>                        (choices: &quot;json&quot;, &quot;csv&quot;)</span></span>
<span class="line"><span>  --out &lt;file&gt;          write the result to a file instead of stdout</span></span>
<span class="line"><span>                        (atomically)</span></span>
<span class="line"><span>  --plot &lt;file.svg&gt;     also draw the solution to an SVG file</span></span>
<span class="line"><span>  --quiet               no progress output</span></span>
<span class="line"><span>  -h, --help            display help for command</span></span>
<span class="line"><span></span></span>
<span class="line"><span>Output: one JSON document with ok, status (converged, acceptable, iteration-limit, infeasible,</span></span>
<span class="line"><span>diverging, restoration-failed, ...), secondOrder (minimum, saddle, singular, not-checked: the</span></span>
<span class="line"><span>reduced Hessian at the answer), iterations, residualNorm (the KKT error), cost and the series.</span></span>
<span class="line"><span>Exit code 1 (with a hint) unless the answer is a converged minimum; the result is still written,</span></span>
<span class="line"><span>with &quot;ok&quot;: false (CSV: a last line &quot;# ok=false reason=...&quot;).</span></span>
<span class="line"><span></span></span>
<span class="line"><span>Examples:</span></span>
<span class="line"><span>  $ geomech solve so3-steering --param phi=2 --n 80</span></span>
<span class="line"><span>  $ geomech solve plate-ball --n 200 --end 0,0,0,0,0.3 --out loop.json</span></span>
<span class="line"><span>  $ geomech solve --model examples/unicycle-parking.json</span></span>
<span class="line"><span></span></span>
<span class="line"><span>Limits (each refused with exit 2 before any work): --steps (or --t-end/--h) 1e8;</span></span>
<span class="line"><span>Ziegler links --param n 1000; solve --n 10000; --continuation 100;</span></span>
<span class="line"><span>--max-iter 10000; order --levels 20 and 1e7 steps over all levels;</span></span>
<span class="line"><span>output 1 GiB (estimated before the run: use --every); --model files 1 MiB,</span></span>
<span class="line"><span>--guess files 64 MiB, --input files 64 MiB (regular files only).</span></span></code></pre></div><h2 id="geomech-sweep" tabindex="-1"><code>geomech sweep</code> <a class="header-anchor" href="#geomech-sweep" aria-label="Permalink to &quot;\`geomech sweep\`&quot;">​</a></h2><div class="language-text vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">text</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span>Usage: geomech sweep [options] &lt;spec.json&gt;</span></span>
<span class="line"><span></span></span>
<span class="line"><span>run a parameter sweep (grid and/or seeded samples) of simulate, solve or order</span></span>
<span class="line"><span>on all cores</span></span>
<span class="line"><span></span></span>
<span class="line"><span>Arguments:</span></span>
<span class="line"><span>  spec.json          sweep specification (schema: schema/sweep.schema.json)</span></span>
<span class="line"><span></span></span>
<span class="line"><span>Options:</span></span>
<span class="line"><span>  --workers &lt;n&gt;      worker threads (default: the number of cores; at most 256)</span></span>
<span class="line"><span>  --shard &lt;K/N&gt;      run only the points with index mod N = K (0-based) and</span></span>
<span class="line"><span>                     write a shard file</span></span>
<span class="line"><span>  --resume           skip the points already in --out (or its .partial journal)</span></span>
<span class="line"><span>                     and continue</span></span>
<span class="line"><span>  --format &lt;format&gt;  output format (default: from --out extension, else json)</span></span>
<span class="line"><span>                     (choices: &quot;json&quot;, &quot;csv&quot;)</span></span>
<span class="line"><span>  --out &lt;file&gt;       write the table (or shard file) to a file instead of stdout</span></span>
<span class="line"><span>  --plot &lt;file.svg&gt;  draw a 1-D sweep as lines, a 2-D sweep as a heat map</span></span>
<span class="line"><span>  --quiet            no progress or warnings on stderr</span></span>
<span class="line"><span>  -h, --help         display help for command</span></span>
<span class="line"><span></span></span>
<span class="line"><span>The table has a row per point, ordered by point index: index, the swept coordinates, status</span></span>
<span class="line"><span>(ok | failed | invalid), the spec&#39;s outputs, error. A failing point is recorded and the sweep goes</span></span>
<span class="line"><span>on. Limits: 1000000 points, 16 axes, 64 outputs, 256 workers.</span></span>
<span class="line"><span></span></span>
<span class="line"><span>Examples:</span></span>
<span class="line"><span>  $ geomech sweep examples/ziegler-stability.sweep.json --out ziegler.csv --plot ziegler.svg</span></span>
<span class="line"><span>  $ geomech sweep spec.json --workers 2 --out table.json --resume</span></span>
<span class="line"><span>  $ geomech sweep spec.json --shard 3/8 --out shard-3.json     # on a cluster, one task per K</span></span>
<span class="line"><span>  $ geomech merge shard-*.json --out table.csv</span></span></code></pre></div><h2 id="geomech-merge" tabindex="-1"><code>geomech merge</code> <a class="header-anchor" href="#geomech-merge" aria-label="Permalink to &quot;\`geomech merge\`&quot;">​</a></h2><div class="language-text vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">text</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span>Usage: geomech merge [options] &lt;shard...&gt;</span></span>
<span class="line"><span></span></span>
<span class="line"><span>join the shard files of \`geomech sweep --shard K/N\` into the full table</span></span>
<span class="line"><span></span></span>
<span class="line"><span>Arguments:</span></span>
<span class="line"><span>  shard              shard files (all N of them, any order)</span></span>
<span class="line"><span></span></span>
<span class="line"><span>Options:</span></span>
<span class="line"><span>  --format &lt;format&gt;  output format (default: from --out extension, else json)</span></span>
<span class="line"><span>                     (choices: &quot;json&quot;, &quot;csv&quot;)</span></span>
<span class="line"><span>  --out &lt;file&gt;       write the table to a file instead of stdout</span></span>
<span class="line"><span>  --plot &lt;file.svg&gt;  draw the merged table (as \`sweep --plot\`)</span></span>
<span class="line"><span>  -h, --help         display help for command</span></span>
<span class="line"><span></span></span>
<span class="line"><span>Examples:</span></span>
<span class="line"><span>  $ geomech merge shard-0.json shard-1.json shard-2.json --out table.csv</span></span>
<span class="line"><span>  $ geomech merge shards/*.json --plot map.svg &gt; table.json</span></span></code></pre></div></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("cli-reference.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const cliReference = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  cliReference as default
};
