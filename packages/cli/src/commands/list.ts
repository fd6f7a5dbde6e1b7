/**
 * `geomech list [--json]`: every built-in system and problem with its package, methods (default
 * first), parameters and initial data with their defaults, and a one-line description.
 *
 * @module
 */
import { type Quantity, type SystemDescriptor, systems } from '../registry.js';

const show = (q: Quantity): string =>
  `${q.name}=${Array.isArray(q.default) ? (q.default as number[]).join(',') : String(q.default)}`;

function asJson(s: SystemDescriptor) {
  return {
    name: s.name,
    kind: s.kind,
    package: s.package,
    description: s.description,
    methods: s.methods,
    params: Object.fromEntries(s.params.map((q) => [q.name, q.default])),
    init: Object.fromEntries(s.init.map((q) => [q.name, q.default])),
    ...(s.initAlternatives ? { initAlternatives: s.initAlternatives } : {}),
    fields: s.fields,
    defaults: s.defaults,
  };
}

/** Renders the listing as text (aligned blocks) or JSON. */
export function renderList(json: boolean): string {
  if (json) return `${JSON.stringify({ systems: systems.map(asJson) }, null, 2)}\n`;
  const lines: string[] = [];
  for (const kind of ['system', 'problem'] as const) {
    const group = systems.filter((s) => s.kind === kind);
    if (group.length === 0) continue;
    lines.push(
      kind === 'system'
        ? 'Systems (geomech simulate <system>):'
        : 'Problems (geomech solve <problem>):',
    );
    for (const s of group) {
      lines.push(`  ${s.name.padEnd(18)} ${s.description}`);
      lines.push(
        `  ${''.padEnd(18)} package ${s.package}; methods ${s.methods.join(', ')} (default ${s.methods[0]})`,
      );
      if (s.params.length > 0)
        lines.push(`  ${''.padEnd(18)} params  ${s.params.map(show).join(' ')}`);
      if (s.init.length > 0) lines.push(`  ${''.padEnd(18)} init    ${s.init.map(show).join(' ')}`);
      lines.push(
        `  ${''.padEnd(18)} fields  ${s.fields.join(', ')}; defaults h=${s.defaults.h} steps=${s.defaults.steps}`,
      );
    }
    lines.push('');
  }
  return `${lines.join('\n')}`;
}
