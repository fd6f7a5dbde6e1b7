import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"core/progress","description":"","frontmatter":{},"headers":[],"relativePath":"api/core/progress.md","filePath":"api/core/progress.md"}');
const _sfc_main = { name: "api/core/progress.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="core-progress" tabindex="-1">core/progress <a class="header-anchor" href="#core-progress" aria-label="Permalink to &quot;core/progress&quot;">​</a></h1><p>Import from <code>@geomech/core</code> (module <code>progress.ts</code>).</p><p>Progress reporting of long integrations: trajectory functions accept an optional <code>onProgress(done, total)</code> and call it every <a href="#progress-interval-steps">PROGRESS_INTERVAL_STEPS</a> steps (a modulo test per step; no allocation). The CLI draws its progress bar from it.</p><h2 id="type-aliases" tabindex="-1">Type Aliases <a class="header-anchor" href="#type-aliases" aria-label="Permalink to &quot;Type Aliases&quot;">​</a></h2><h3 id="progresscallback" tabindex="-1">ProgressCallback <a class="header-anchor" href="#progresscallback" aria-label="Permalink to &quot;ProgressCallback&quot;">​</a></h3><blockquote><p><strong>ProgressCallback</strong> = (<code>done</code>, <code>total</code>) =&gt; <code>void</code></p></blockquote><p>Defined in: <a href="/source/core/src/progress.ts.html#L10">packages/core/src/progress.ts:10</a></p><p>Called with the number of steps done and the total.</p><h4 id="parameters" tabindex="-1">Parameters <a class="header-anchor" href="#parameters" aria-label="Permalink to &quot;Parameters&quot;">​</a></h4><h5 id="done" tabindex="-1">done <a class="header-anchor" href="#done" aria-label="Permalink to &quot;done&quot;">​</a></h5><p><code>number</code></p><h5 id="total" tabindex="-1">total <a class="header-anchor" href="#total" aria-label="Permalink to &quot;total&quot;">​</a></h5><p><code>number</code></p><h4 id="returns" tabindex="-1">Returns <a class="header-anchor" href="#returns" aria-label="Permalink to &quot;Returns&quot;">​</a></h4><p><code>void</code></p><h2 id="variables" tabindex="-1">Variables <a class="header-anchor" href="#variables" aria-label="Permalink to &quot;Variables&quot;">​</a></h2><h3 id="progress-interval-steps" tabindex="-1">PROGRESS_INTERVAL_STEPS <a class="header-anchor" href="#progress-interval-steps" aria-label="Permalink to &quot;PROGRESS\\_INTERVAL\\_STEPS&quot;">​</a></h3><blockquote><p><code>const</code> <strong>PROGRESS_INTERVAL_STEPS</strong>: <code>4096</code> = <code>4096</code></p></blockquote><p>Defined in: <a href="/source/core/src/progress.ts.html#L13">packages/core/src/progress.ts:13</a></p><p>Steps between two progress calls.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/core/progress.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const progress = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  progress as default
};
