/**
 * `@geomech/cli`: the `geomech` command. The programmatic entry is {@link main}.
 *
 * @packageDocumentation
 */
export { errorLine, NumericalFailure, UsageError } from './errors.js';
export { type Io, main, version } from './main.js';
export {
  loadModel,
  MODEL_KINDS,
  ModelError,
  type ModelKind,
  type ModelSpec,
  readModel,
} from './model/index.js';
export {
  type LinePlotSpec,
  type LineSeries,
  type PlotFieldChoice,
  type PlotLabels,
  plotFromSeries,
  renderLinePlot,
} from './plot.js';
export { findSystem, type SystemDescriptor, systems } from './registry.js';
export { parseNumber, parseVector } from './values.js';
