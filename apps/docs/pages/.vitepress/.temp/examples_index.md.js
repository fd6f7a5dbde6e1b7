import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Examples","description":"","frontmatter":{},"headers":[],"relativePath":"examples/index.md","filePath":"examples/index.md"}');
const _sfc_main = { name: "examples/index.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="examples" tabindex="-1">Examples <a class="header-anchor" href="#examples" aria-label="Permalink to &quot;Examples&quot;">​</a></h1><p>Each example below runs <strong>in your browser</strong> on the real packages: edit the code, press <strong>Run</strong> (or Ctrl+Enter), and read the printed output and the plots; <strong>Stop</strong> (or Esc) ends a long run. The code is plain JavaScript with ES imports from the geomech packages; <code>plot({ title, xLabel, yLabel, xLog, yLog, series: [{ label, x, y, points }] })</code> draws a chart, and <code>console.log</code> prints below the editor. It runs in a Web Worker, so the page stays responsive, and an error names its line. The same code runs in Node in the test suite, so the examples cannot rot.</p><table tabindex="0"><thead><tr><th>example</th><th>package</th><th>what it shows</th></tr></thead><tbody><tr><td><a href="./damped-oscillator">Damped oscillator</a></td><td>contact</td><td>the paper&#39;s midpoint integrator against the exact discrete Lagrangian; ln H decays like ln(1 + hγ) vs γh</td></tr><tr><td><a href="./rolling-disk">Rolling disk</a></td><td>dirac</td><td>the (±) discrete Lagrange–Dirac schemes; constraint kept to round-off, O(h) energy drift of opposite signs</td></tr><tr><td><a href="./pendulum">Pendulum: Table I</a></td><td>dirac</td><td>the constraint error of all eight methods after 100 periods</td></tr><tr><td><a href="./ziegler">Ziegler column</a></td><td>dirac</td><td>Dirac-1&#39;s length drift moves the column to a buckled equilibrium; Dirac-2c stays upright</td></tr><tr><td><a href="./rigid-body">Rigid body</a></td><td>groupoid</td><td>the discrete Lie–Poisson rigid body: Casimir and spatial momentum to round-off, bounded energy</td></tr><tr><td><a href="./heavy-top">Heavy top</a></td><td>groupoid</td><td>the Lie-group variational integrator: orthogonality and Noether charges to round-off, gyroscopic precession</td></tr><tr><td><a href="./so3-steering">SO(3) steering</a></td><td>groupoid</td><td>optimal steering to a rotation about E₃ with controls in span{E₁, E₂}</td></tr><tr><td><a href="./plate-ball">Plate-ball</a></td><td>groupoid</td><td>the optimal rolling of a ball on a rotating plate</td></tr></tbody></table></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("examples/index.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const index = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  index as default
};
