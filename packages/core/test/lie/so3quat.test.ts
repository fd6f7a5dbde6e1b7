import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SMALL_ANGLE } from '../../src/constants.js';
import { DomainError } from '../../src/errors.js';
import { SO3 } from '../../src/lie/so3.js';
import {
  normalizeQuat,
  quatFromRotation,
  rotationFromQuat,
  SO3Quat,
} from '../../src/lie/so3quat.js';
import { describeLieGroup } from '../../src/testing/index.js';
import { rng } from '../support/random.js';

describeLieGroup(SO3Quat);

const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
};

const q4 = () => new Float64Array(4);
const m9 = () => new Float64Array(9);
const v3 = () => new Float64Array(3);
const R = (q: Float64Array) => rotationFromQuat(m9(), q);

/** Random tangent of size up to 3 (inside the principal branch) from a seed. */
const tangent = (seed: number, scale = 1.7): Float64Array => {
  const r = rng(seed);
  return Float64Array.from({ length: 3 }, () => scale * (2 * r() - 1));
};

const unitVec = (seed: number): Float64Array => {
  const t = tangent(seed, 1);
  const n = Math.hypot(...t);
  return t.map((v) => v / n);
};

describe('SO3Quat and SO3 agree through rotationFromQuat (1e-14)', () => {
  it('random (same rng), exp, log, compose, inverse, act, adj, ⊕/⊖, between', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer(), (s1, s2) => {
        const qa = SO3Quat.random(q4(), rng(s1));
        const qb = SO3Quat.random(q4(), rng(s2));
        const Ra = SO3.random(m9(), rng(s1));
        const Rb = SO3.random(m9(), rng(s2));
        expect(maxAbsDiff(R(qa), Ra)).toBeLessThan(1e-14);
        const t = tangent(s1 ^ s2);
        const p = tangent(s2 + 1);
        expect(maxAbsDiff(R(SO3Quat.exp(q4(), t)), SO3.exp(m9(), t))).toBeLessThan(1e-14);
        expect(maxAbsDiff(SO3Quat.log(v3(), qa), SO3.log(v3(), Ra))).toBeLessThan(1e-14);
        expect(
          maxAbsDiff(R(SO3Quat.compose(q4(), qa, qb)), SO3.compose(m9(), Ra, Rb)),
        ).toBeLessThan(1e-14);
        expect(maxAbsDiff(R(SO3Quat.inverse(q4(), qa)), SO3.inverse(m9(), Ra))).toBeLessThan(1e-14);
        expect(maxAbsDiff(SO3Quat.act(v3(), qa, p), SO3.act(v3(), Ra, p))).toBeLessThan(1e-14);
        expect(maxAbsDiff(SO3Quat.adj(m9(), qa), SO3.adj(m9(), Ra))).toBeLessThan(1e-14);
        expect(maxAbsDiff(R(SO3Quat.rplus(q4(), qa, t)), SO3.rplus(m9(), Ra, t))).toBeLessThan(
          1e-14,
        );
        expect(maxAbsDiff(R(SO3Quat.lplus(q4(), t, qa)), SO3.lplus(m9(), t, Ra))).toBeLessThan(
          1e-14,
        );
        expect(maxAbsDiff(SO3Quat.rminus(v3(), qb, qa), SO3.rminus(v3(), Rb, Ra))).toBeLessThan(
          1e-13,
        );
        expect(maxAbsDiff(SO3Quat.lminus(v3(), qb, qa), SO3.lminus(v3(), Rb, Ra))).toBeLessThan(
          1e-13,
        );
        expect(
          maxAbsDiff(R(SO3Quat.between(q4(), qa, qb)), SO3.between(m9(), Ra, Rb)),
        ).toBeLessThan(1e-14);
        expect(maxAbsDiff(R(quatFromRotation(q4(), Ra)), Ra)).toBeLessThan(1e-15);
      }),
      { numRuns: 300 },
    );
  });

  it("Jacobians are SO3's (same tangent space)", () => {
    const t = tangent(5);
    expect(Array.from(SO3Quat.rjac(m9(), t))).toEqual(Array.from(SO3.rjac(m9(), t)));
    expect(Array.from(SO3Quat.ljacInv(m9(), t))).toEqual(Array.from(SO3.ljacInv(m9(), t)));
  });
});

describe('Hamilton convention, wxyz', () => {
  const i = Float64Array.of(0, 1, 0, 0);
  const j = Float64Array.of(0, 0, 1, 0);
  const k = Float64Array.of(0, 0, 0, 1);
  it('i⊗j = k, j⊗k = i, k⊗i = i… and i⊗i = −1', () => {
    expect(Array.from(SO3Quat.compose(q4(), i, j))).toEqual([0, 0, 0, 1]);
    expect(Array.from(SO3Quat.compose(q4(), j, k))).toEqual([0, 1, 0, 0]);
    expect(Array.from(SO3Quat.compose(q4(), k, i))).toEqual([0, 0, 1, 0]);
    expect(Array.from(SO3Quat.compose(q4(), i, i))).toEqual([-1, 0, 0, 0]);
  });
  it('(cos 45°, 0, 0, sin 45°) rotates e₁ to e₂ (active, v ↦ q v q*; 1e-16)', () => {
    const q = Float64Array.of(Math.SQRT1_2, 0, 0, Math.SQRT1_2);
    expect(maxAbsDiff(SO3Quat.act(v3(), q, Float64Array.of(1, 0, 0)), [0, 1, 0])).toBeLessThan(
      3e-16,
    );
    expect(maxAbsDiff(R(q), [0, -1, 0, 1, 0, 0, 0, 0, 1])).toBeLessThan(3e-16);
  });
  it('compose and act may alias their output', () => {
    const a = SO3Quat.random(q4(), rng(1));
    const b = SO3Quat.random(q4(), rng(2));
    const ab = SO3Quat.compose(q4(), a, b);
    expect(Array.from(SO3Quat.compose(a.slice(), a, b))).toEqual(Array.from(ab));
    const a2 = a.slice();
    expect(Array.from(SO3Quat.compose(a2, a2, b))).toEqual(Array.from(ab));
    const b2 = b.slice();
    expect(Array.from(SO3Quat.compose(b2, a, b2))).toEqual(Array.from(ab));
    const p = Float64Array.of(0.3, -0.2, 0.9);
    const ap = SO3Quat.act(v3(), a, p);
    expect(Array.from(SO3Quat.act(p, a, p))).toEqual(Array.from(ap));
  });
});

describe('quatFromRotation (Shepperd) and rotationFromQuat', () => {
  /** Rotations that exercise each of Shepperd's four branches, including θ = π exactly. */
  const hard: [string, Float64Array][] = [
    ['identity', Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1)],
    ['π about x', Float64Array.of(1, 0, 0, 0, -1, 0, 0, 0, -1)],
    ['π about y', Float64Array.of(-1, 0, 0, 0, 1, 0, 0, 0, -1)],
    ['π about z', Float64Array.of(-1, 0, 0, 0, -1, 0, 0, 0, 1)],
  ];
  for (const seed of [1, 2, 3]) {
    const n = unitVec(seed);
    for (const k of [1, 4, 8, 12, 16]) {
      hard.push([
        `π − 1e-${k} about n${seed}`,
        SO3.exp(
          m9(),
          n.map((v) => v * (Math.PI - 10 ** -k)),
        ),
      ]);
    }
    const P = m9();
    for (let a = 0; a < 3; a++)
      for (let b = 0; b < 3; b++) P[3 * a + b] = 2 * n[a]! * n[b]! - (a === b ? 1 : 0);
    hard.push([`π about n${seed}`, P]);
  }

  it.each(hard)('%s: R → q → R to 2e-15, |q| = 1 to 3e-16, w ≥ 0', (_, Rm) => {
    const q = quatFromRotation(q4(), Rm);
    expect(maxAbsDiff(R(q), Rm)).toBeLessThan(2e-15);
    expect(Math.abs(Math.hypot(...q) - 1)).toBeLessThan(3e-16);
    expect(q[0]!).toBeGreaterThanOrEqual(0);
    // and the group log agrees with SO3's (up to the antipode at θ = π)
    const l1 = SO3Quat.log(v3(), q);
    const l2 = SO3.log(v3(), Rm);
    const near = Math.min(
      maxAbsDiff(l1, l2),
      maxAbsDiff(
        l1,
        l2.map((v) => -v),
      ),
    );
    expect(near).toBeLessThan(5e-15);
    expect(maxAbsDiff(SO3.exp(m9(), l1), Rm)).toBeLessThan(5e-15);
  });

  it('q → R → q gives ±q (1e-15) for random unit q', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const q = SO3Quat.random(q4(), rng(seed));
        const back = quatFromRotation(q4(), R(q));
        expect(
          Math.min(
            maxAbsDiff(back, q),
            maxAbsDiff(
              back,
              q.map((v) => -v),
            ),
          ),
        ).toBeLessThan(1e-15);
      }),
      { numRuns: 500 },
    );
  });

  it('normalizeQuat rescales to |q| = 1 (aliasing allowed) and rejects 0 and NaN', () => {
    const q = Float64Array.of(2, -4, 4, 1);
    normalizeQuat(q, q);
    expect(
      maxAbsDiff(q, [
        2 / 6.0827625302982193,
        -4 / 6.0827625302982193,
        4 / 6.0827625302982193,
        1 / 6.0827625302982193,
      ]),
    ).toBeLessThan(1e-15);
    expect(Math.abs(Math.hypot(...q) - 1)).toBeLessThan(3e-16);
    expect(() => normalizeQuat(q4(), q4())).toThrow(DomainError);
    expect(() => normalizeQuat(q4(), Float64Array.of(Number.NaN, 0, 0, 0))).toThrow(DomainError);
  });
});

describe('SO3Quat log and exp', () => {
  it('log picks w ≥ 0: log(−q) = log(q), |log q| ≤ π (1e-15)', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const q = SO3Quat.random(q4(), rng(seed));
        const l = SO3Quat.log(v3(), q);
        expect(
          maxAbsDiff(
            SO3Quat.log(
              v3(),
              q.map((v) => -v),
            ),
            l,
          ),
        ).toBe(0);
        expect(Math.hypot(...l)).toBeLessThanOrEqual(Math.PI + 1e-15);
      }),
    );
  });

  it('θ = π − 10⁻ᵏ (k = 1..12) and π: exp(log q) = ±q (1e-15), log = θn (2e-15)', () => {
    for (const seed of [1, 2, 3, 4]) {
      const n = unitVec(seed);
      for (let k = 1; k <= 13; k++) {
        const th = k === 13 ? Math.PI : Math.PI - 10 ** -k;
        const q = SO3Quat.exp(
          q4(),
          n.map((v) => v * th),
        );
        const l = SO3Quat.log(v3(), q);
        const expected = n.map((v) => v * th);
        // at θ = π exactly, rounding decides between ±πn (both are Log)
        const err =
          k === 13
            ? Math.min(
                maxAbsDiff(l, expected),
                maxAbsDiff(
                  l,
                  expected.map((v) => -v),
                ),
              )
            : maxAbsDiff(l, expected);
        expect(err).toBeLessThan(2e-15);
        const back = SO3Quat.exp(q4(), l);
        expect(
          Math.min(
            maxAbsDiff(back, q),
            maxAbsDiff(
              back,
              q.map((v) => -v),
            ),
          ),
        ).toBeLessThan(1e-15);
      }
    }
  });

  it('Taylor branches: exp and log continuous across SMALL_ANGLE (2e-16; log 1e-15 relative)', () => {
    for (const seed of [7, 8, 9]) {
      const n = unitVec(seed);
      const below = n.map((v) => v * SMALL_ANGLE * (1 - 1e-12));
      const above = n.map((v) => v * SMALL_ANGLE * (1 + 1e-12));
      const qb = SO3Quat.exp(q4(), below);
      const qa = SO3Quat.exp(q4(), above);
      expect(maxAbsDiff(qb, qa)).toBeLessThan(2e-16);
      // closed form sin(θ/2)/θ·τ on both sides
      for (const [q, t] of [
        [qb, below],
        [qa, above],
      ] as const) {
        const th = Math.hypot(...t);
        expect(
          maxAbsDiff(q, [Math.cos(th / 2), ...t.map((v) => (Math.sin(th / 2) / th) * v)]),
        ).toBeLessThan(2e-16);
        expect(maxAbsDiff(SO3Quat.log(v3(), q), t)).toBeLessThan(1e-15 * SMALL_ANGLE);
      }
    }
  });

  it('log(exp(τ)) = τ to 1e-15 relative for tiny |τ| = 1e-12 … 1e-3', () => {
    for (let k = 3; k <= 12; k++) {
      const t = unitVec(k).map((v) => v * 10 ** -k);
      expect(maxAbsDiff(SO3Quat.log(v3(), SO3Quat.exp(q4(), t)), t)).toBeLessThan(1e-15 * 10 ** -k);
    }
  });
});
