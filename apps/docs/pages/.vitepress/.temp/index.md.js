import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"","description":"","frontmatter":{"layout":"home","hero":{"name":"geomech","text":"Structure-preserving mechanics in TypeScript","tagline":"Lie groups and groupoids, Dirac structures, contact integrators and discrete optimal control, on flat typed arrays, in Node and in the browser.","actions":[{"theme":"brand","text":"Get started","link":"/getting-started"},{"theme":"alt","text":"Run the examples","link":"/examples/"},{"theme":"alt","text":"Concepts","link":"/concepts/"}]},"features":[{"title":"@geomech/core","details":"Dense and block-banded linear algebra, Newton and Gauss–Newton solvers, dual numbers, ODE steppers, the Lie groups SO(2), SO(3), SE(2), SE(3), SE(n), Rⁿ with exp, Cayley and sine retractions.","link":"/core"},{"title":"@geomech/groupoid","details":"Lie groupoids and discrete constrained Lagrangian mechanics, rigid bodies on SO(3), optimal control on Lie groups and the plate-ball system (seed 003).","link":"/groupoid"},{"title":"@geomech/contact","details":"Contact (Herglotz) mechanics and its discrete variational integrators, exact discrete Lagrangians, conformal factors and dissipated quantities (seed 004).","link":"/contact"},{"title":"@geomech/dirac","details":"Dirac structures, implicit Lagrangian systems, (±)-discrete Lagrange–Dirac integrators, Dirac integrators and their classical comparators (seeds 000–002).","link":"/dirac"},{"title":"@geomech/cli","details":"The geomech command — simulations, optimal-control solves and convergence studies as JSON or CSV.","link":"/cli"},{"title":"Papers and errata","details":"The five papers with their full references, and every printed formula the toolkit corrects, with the test that shows the printed form fails.","link":"/papers"}]},"headers":[],"relativePath":"index.md","filePath":"index.md"}');
const _sfc_main = { name: "index.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("index.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const index = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  index as default
};
