// The two LGVI steppers (SO(3) and the quadrotor on SO(3) × R³) reproduce, bit for bit, the
// trajectories, Newton counts, step derivatives and series recorded from 753adc6, before they
// shared one SO(3) core (support/lgviCases.ts).
import { writeFileSync } from 'node:fs';
import { expectBitIdentical } from '@geomech/core/testing';
import { describe, it } from 'vitest';
import fixtures from './lgvi-fixtures.json' with { type: 'json' };
import { LGVI_CASES, type LgviRecord, runLgviCase } from './support/lgviCases.js';

const RECORD = process.env.GEOMECH_RECORD_LGVI === '1';

describe('LGVI steppers against the fixtures recorded from 753adc6', () => {
  if (RECORD) {
    it('records the fixtures', () => {
      const all: Record<string, LgviRecord> = {};
      for (const c of LGVI_CASES) all[c.name] = runLgviCase(c);
      // JSON.stringify writes −0 as 0; JSON.parse reads -0 back as −0
      const num = (x: number) => (Object.is(x, -0) ? '-0' : JSON.stringify(x));
      const body = Object.entries(all).map(
        ([name, r]) =>
          `${JSON.stringify(name)}:{${Object.entries(r)
            .map(([k, v]) => `${JSON.stringify(k)}:[${(v as number[]).map(num).join(',')}]`)
            .join(',')}}`,
      );
      writeFileSync(new URL('./lgvi-fixtures.json', import.meta.url), `{${body.join(',\n')}}\n`);
    });
    return;
  }
  const want = fixtures as Record<string, Record<keyof LgviRecord, (number | null)[]>>;
  for (const c of LGVI_CASES) {
    it(`${c.name}: states, iterations, residuals, derivatives and series bit for bit`, () => {
      const got = runLgviCase(c);
      const w = want[c.name]!;
      for (const key of ['states', 'iterations', 'residuals', 'derivatives', 'series'] as const) {
        expectBitIdentical(got[key], w[key]);
      }
    });
  }
});
