import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Concepts","description":"","frontmatter":{},"headers":[],"relativePath":"concepts/index.md","filePath":"concepts/index.md"}');
const _sfc_main = { name: "concepts/index.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="concepts" tabindex="-1">Concepts <a class="header-anchor" href="#concepts" aria-label="Permalink to &quot;Concepts&quot;">​</a></h1><p>geomech implements five papers on structure-preserving mechanics, numbered 000–004 (full references on the <a href="./../papers">Papers</a> page). These pages summarise the ideas and the key equations; the equation labels ((39), (6.1-e), (PB-y)) are those of the papers.</p><table tabindex="0"><thead><tr><th>page</th><th>papers</th><th>package</th></tr></thead><tbody><tr><td><a href="./conventions">Conventions</a></td><td>all</td><td><code>@geomech/core</code> fixes them once</td></tr><tr><td><a href="./lie-groups">Lie groups</a></td><td>003 §6.1</td><td><code>@geomech/core</code></td></tr><tr><td><a href="./groupoids">Lie groupoids</a></td><td>003</td><td><code>@geomech/groupoid</code></td></tr><tr><td><a href="./dirac-structures">Dirac structures</a></td><td>000, 001, 002</td><td><code>@geomech/dirac</code></td></tr><tr><td><a href="./contact-integrators">Contact integrators</a></td><td>004</td><td><code>@geomech/contact</code></td></tr></tbody></table><table tabindex="0"><thead><tr><th>paper</th><th></th><th>package</th></tr></thead><tbody><tr><td><a href="./../papers#seed-000">000</a></td><td>Peng &amp; Yoshimura: discrete Dirac structures and discrete Lagrange–Dirac systems</td><td><code>@geomech/dirac</code></td></tr><tr><td><a href="./../papers#seed-001">001</a></td><td>Salnikov &amp; Hamdouni: Dirac integrators — a simple pendulum and the Ziegler column</td><td><code>@geomech/dirac</code></td></tr><tr><td><a href="./../papers#seed-002">002</a></td><td>Yoshimura &amp; Marsden: Dirac structures in Lagrangian mechanics, Part I</td><td><code>@geomech/dirac</code></td></tr><tr><td><a href="./../papers#seed-003">003</a></td><td>Marrero, Martín de Diego &amp; Stern: symplectic groupoids and discrete constrained Lagrangian mechanics</td><td><code>@geomech/groupoid</code></td></tr><tr><td><a href="./../papers#seed-004">004</a></td><td>Anahory Simoes, Martín de Diego, Lainz Valcázar &amp; de León: the geometry of discrete contact mechanics</td><td><code>@geomech/contact</code></td></tr></tbody></table><p>Where a paper prints a formula wrong, the toolkit implements the corrected one and a test shows that the printed form fails: see <a href="./../errata">Errata</a>.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("concepts/index.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const index = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  index as default
};
