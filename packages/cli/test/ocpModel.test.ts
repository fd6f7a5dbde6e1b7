import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unicycleParkingOcp } from '@geomech/groupoid';
import { describe, expect, it } from 'vitest';
import { readOcpModel } from '../src/model/optimalControl.js';
import { ERROR_LINE, inProcess } from './helpers.js';

const example = join(__dirname, '..', 'examples', 'unicycle-parking.json');

describe('scratch', () => {
  it('solves', async () => {
    const m = readOcpModel(readFileSync(example, 'utf8'), example);
    const a = m.ocp.solve();
    const b = unicycleParkingOcp({ n: 60 }).solve();
    console.log(a.status, a.secondOrder, a.cost, b.cost, a.cost - b.cost);
    const r = await inProcess('solve', '--model', example);
    console.log(r.code, r.stderr, r.stdout.slice(0, 400));
  });
});
