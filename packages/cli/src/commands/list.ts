/**
 * `geomech list [--json]`: every built-in system and problem with its package, methods (default
 * first), parameters and initial data with their defaults, and a one-line description.
 *
 * @module
 */
import {
  type ProblemDescriptor,
  problems,
  type Quantity,
  type SystemDescriptor,
  systems,
} from '../registry.js';

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

function problemJson(p: ProblemDescriptor) {
  return {
    name: p.name,
    kind: p.kind,
    package: p.package,
    description: p.description,
    methods: p.methods,
    params: {
      ...Object.fromEntries(p.params.map((q) => [q.name, q.default])),
      ...Object.fromEntries(p.choices.map((c) => [c.name, c.default])),
    },
    choices: Object.fromEntries(p.choices.map((c) => [c.name, c.choices])),
    boundary: Object.fromEntries(p.boundary.map((q) => [q.name, q.default])),
    fields: p.fields,
  };
}

/** Renders the listing as text (aligned blocks) or JSON. */
export function renderList(json: boolean): string {
  if (json)
    return `${JSON.stringify({ systems: systems.map(asJson), problems: problems.map(problemJson) }, null, 2)}\n`;
  const lines: string[] = [];
  lines.push('Systems (geomech simulate <system>):');
  for (const s of systems) {
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
  lines.push('Problems (geomech solve <problem>):');
  for (const p of problems) {
    lines.push(`  ${p.name.padEnd(18)} ${p.description}`);
    lines.push(
      `  ${''.padEnd(18)} package ${p.package}; methods ${p.methods.join(', ')} (default ${p.methods[0]})`,
    );
    const params = [...p.params.map(show), ...p.choices.map((c) => `${c.name}=${c.default}`)];
    lines.push(`  ${''.padEnd(18)} params  ${params.join(' ')}`);
    for (const b of p.boundary)
      lines.push(`  ${''.padEnd(18)} --${b.name} ${show(b).slice(b.name.length + 1)}`);
    lines.push(`  ${''.padEnd(18)} fields  ${p.fields.join(', ')}`);
  }
  lines.push('');
  return `${lines.join('\n')}`;
}
