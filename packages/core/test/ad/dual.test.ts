import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DualOps as D,
  Dual,
  derivative,
  type GenericVectorFunction,
  gradient,
  jacobian,
  jacobianFromDual,
  NumberOps,
  residualFromGeneric,
  type ScalarOps,
} from '../../src/ad/dual.js';
import { DimensionError } from '../../src/errors.js';

const REL = 1e-13;

/** |got − want| ≤ REL·|want| (pure relative; exact zero wants exact zero). */
const nz = (v: number): number => v + 0; // −0 → +0 for exact comparisons of tangents
function expectRel(got: number, want: number, rel = REL): void {
  expect(Number.isFinite(got)).toBe(true);
  expect(Math.abs(got - want)).toBeLessThanOrEqual(rel * Math.abs(want));
}

/** Doubles in [min, max] without subnormals (where relative rounding bounds do not hold). */
const real = (min: number, max: number) =>
  fc
    .double({ min, max, noNaN: true, noDefaultInfinity: true })
    .filter((v) => v === 0 || Math.abs(v) >= 1e-300);

type Unary = keyof Pick<
  ScalarOps<number>,
  | 'sqrt'
  | 'exp'
  | 'log'
  | 'sin'
  | 'cos'
  | 'tan'
  | 'asin'
  | 'acos'
  | 'atan'
  | 'sinh'
  | 'cosh'
  | 'tanh'
  | 'abs'
  | 'neg'
>;

/** Each elementary function, its closed-form derivative, and a domain to sample. */
const unary: ReadonlyArray<[Unary, (x: number) => number, number, number]> = [
  ['sqrt', (x) => 1 / (2 * Math.sqrt(x)), 1e-3, 1e3],
  ['exp', (x) => Math.exp(x), -20, 20],
  ['log', (x) => 1 / x, 1e-3, 1e3],
  ['sin', (x) => Math.cos(x), -10, 10],
  ['cos', (x) => -Math.sin(x), -10, 10],
  ['tan', (x) => 1 / Math.cos(x) ** 2, -1.5, 1.5],
  // 1 − x² factored as (1 − x)(1 + x): exact subtraction near |x| = 1
  ['asin', (x) => 1 / Math.sqrt((1 - x) * (1 + x)), -0.9999, 0.9999],
  ['acos', (x) => -1 / Math.sqrt((1 - x) * (1 + x)), -0.9999, 0.9999],
  ['atan', (x) => 1 / (1 + x * x), -50, 50],
  ['sinh', (x) => Math.cosh(x), -10, 10],
  ['cosh', (x) => Math.sinh(x), -10, 10],
  ['tanh', (x) => 1 / Math.cosh(x) ** 2, -30, 30],
  ['abs', (x) => Math.sign(x), -10, 10],
  ['neg', () => -1, -10, 10],
];

describe('Dual elementary functions', () => {
  for (const [name, dfdx, lo, hi] of unary) {
    it(`${name}: value and derivative match the closed form`, () => {
      fc.assert(
        fc.property(real(lo, hi), (x) => {
          const y = D[name](Dual.variable(x, 0, 1));
          expect(y.value).toBe(NumberOps[name](x));
          expectRel(y.d(0), dfdx(x));
        }),
      );
    });
  }

  it('binary operations follow the sum, product and quotient rules', () => {
    fc.assert(
      fc.property(real(-10, 10), real(0.1, 10), real(-3, 3), (a, b, c) => {
        // x = a + ε₀, y = b + ε₁: the two partial derivatives at once
        const x = Dual.variable(a, 0, 2);
        const y = Dual.variable(b, 1, 2);
        const s = D.add(x, y);
        expect([s.value, s.d(0), s.d(1)].map(nz)).toEqual([a + b, 1, 1].map(nz));
        const d = D.sub(x, y);
        expect([d.value, d.d(0), d.d(1)].map(nz)).toEqual([a - b, 1, -1].map(nz));
        const p = D.mul(x, y);
        expect([p.value, p.d(0), p.d(1)].map(nz)).toEqual([a * b, b, a].map(nz));
        const q = D.div(x, y);
        expect(q.value).toBe(a / b);
        expectRel(q.d(0), 1 / b);
        expectRel(q.d(1), -a / (b * b));
        const sc = D.scale(x, c);
        expect([sc.value, sc.d(0), sc.d(1)].map(nz)).toEqual([c * a, c, 0].map(nz));
        const pw = D.pow(y, c);
        expectRel(pw.value, b ** c);
        expectRel(pw.d(1), c * b ** (c - 1));
        expect(nz(pw.d(0))).toBe(0);
      }),
    );
  });

  it('atan2 and hypot partial derivatives', () => {
    fc.assert(
      fc.property(real(-10, 10), real(-10, 10), (a, b) => {
        fc.pre(Math.hypot(a, b) > 1e-3);
        const y = Dual.variable(a, 0, 2);
        const x = Dual.variable(b, 1, 2);
        const r2 = a * a + b * b;
        const t = D.atan2(y, x);
        expect(t.value).toBe(Math.atan2(a, b));
        expectRel(t.d(0), b / r2);
        expectRel(t.d(1), -a / r2);
        const h = D.hypot(y, x);
        const r = Math.hypot(a, b);
        expect(h.value).toBe(r);
        expectRel(h.d(0), a / r);
        expectRel(h.d(1), b / r);
      }),
    );
  });

  it('pow: integer, fractional and zero exponents', () => {
    const x = Dual.variable(2, 0, 1);
    expect([D.pow(x, 3).value, D.pow(x, 3).d(0)]).toEqual([8, 12]);
    expectRel(D.pow(x, 0.5).d(0), 0.5 / Math.SQRT2);
    expectRel(D.pow(x, -2).d(0), -2 / 8);
    const z = D.pow(Dual.variable(0, 0, 1), 0);
    expect([z.value, z.d(0)]).toEqual([1, 0]);
    const one = D.pow(Dual.variable(0, 0, 1), 1);
    expect([one.value, one.d(0)]).toEqual([0, 1]);
  });

  it('conventions at non-smooth points: |0|, atan2(0,0), hypot(0,0) have zero tangents', () => {
    const o = Dual.variable(0, 0, 2);
    const o2 = Dual.variable(0, 1, 2);
    expect(Array.from(D.abs(o).tangent)).toEqual([0, 0]);
    expect(Array.from(D.atan2(o, o2).tangent)).toEqual([0, 0]);
    expect(Array.from(D.hypot(o, o2).tangent)).toEqual([0, 0]);
  });

  it('constants carry no tangent storage and mix with variables', () => {
    const c = D.const(3);
    expect(c.tangent.length).toBe(0);
    expect(c.d(5)).toBe(0);
    const x = Dual.variable(2, 1, 3);
    const y = D.mul(c, x);
    expect([y.value, ...y.tangent]).toEqual([6, 0, 3, 0]);
    expect(D.sin(c).tangent.length).toBe(0);
  });

  it('mixing tangents of different lengths is a DimensionError', () => {
    expect(() => D.add(Dual.variable(1, 0, 2), Dual.variable(1, 0, 3))).toThrow(DimensionError);
    expect(() => Dual.variable(1, 2, 2)).toThrow(DimensionError);
  });
});

describe('chain rules', () => {
  it('d/dx sin(x²)·exp(−x) = (2x cos x² − sin x²) e^{−x}', () => {
    fc.assert(
      fc.property(real(-5, 5), (x) => {
        const f = <T>(o: ScalarOps<T>, t: T) => o.mul(o.sin(o.mul(t, t)), o.exp(o.neg(t)));
        const want = (2 * x * Math.cos(x * x) - Math.sin(x * x)) * Math.exp(-x);
        const got = derivative(f, x);
        // the two expressions round differently; compare relative to the magnitude of the terms
        const scale = (2 * Math.abs(x) + 1) * Math.exp(-x);
        expect(Math.abs(got - want)).toBeLessThanOrEqual(REL * scale);
        expect(f(NumberOps, x)).toBe(Math.sin(x * x) * Math.exp(-x));
      }),
    );
  });

  it('d/dx log(cosh(x)) = tanh(x), d/dx sqrt(1 + x²) = x/sqrt(1 + x²), d/dx atan(1/x) = −1/(1+x²)', () => {
    fc.assert(
      fc.property(real(0.05, 5), (x) => {
        expectRel(
          derivative((o, t) => o.log(o.cosh(t)), x),
          Math.tanh(x),
          4 * REL,
        );
        expectRel(
          derivative((o, t) => o.sqrt(o.add(o.const(1), o.mul(t, t))), x),
          x / Math.sqrt(1 + x * x),
        );
        expectRel(
          derivative((o, t) => o.atan(o.div(o.const(1), t)), x),
          -1 / (1 + x * x),
          4 * REL,
        );
      }),
    );
  });

  it('gradient of x·y² + exp(x·z) − sin(y·z)', () => {
    fc.assert(
      fc.property(real(-2, 2), real(-2, 2), real(-2, 2), (x, y, z) => {
        const g = gradient(
          (o, [a, b, c]) =>
            o.sub(o.add(o.mul(a!, o.pow(b!, 2)), o.exp(o.mul(a!, c!))), o.sin(o.mul(b!, c!))),
          [x, y, z],
        );
        const want = [
          y * y + z * Math.exp(x * z),
          2 * x * y - z * Math.cos(y * z),
          x * Math.exp(x * z) - y * Math.cos(y * z),
        ];
        const scale = [
          y * y + Math.abs(z) * Math.exp(x * z),
          2 * Math.abs(x * y) + Math.abs(z),
          Math.abs(x) * Math.exp(x * z) + Math.abs(y),
        ];
        for (let j = 0; j < 3; j++) {
          expect(Math.abs(g[j]! - want[j]!)).toBeLessThanOrEqual(REL * scale[j]!);
        }
      }),
    );
  });
});

describe('jacobian', () => {
  // polar → Cartesian in 3D (spherical): (r, θ, φ) ↦ (r sinθ cosφ, r sinθ sinφ, r cosθ)
  const spherical: GenericVectorFunction = (o, [r, th, ph]) => [
    o.mul(r!, o.mul(o.sin(th!), o.cos(ph!))),
    o.mul(r!, o.mul(o.sin(th!), o.sin(ph!))),
    o.mul(r!, o.cos(th!)),
  ];
  const exact = (r: number, t: number, p: number) => [
    [Math.sin(t) * Math.cos(p), r * Math.cos(t) * Math.cos(p), -r * Math.sin(t) * Math.sin(p)],
    [Math.sin(t) * Math.sin(p), r * Math.cos(t) * Math.sin(p), r * Math.sin(t) * Math.cos(p)],
    [Math.cos(t), -r * Math.sin(t), 0],
  ];

  it('spherical coordinates: value, Jacobian and determinant r² sin θ', () => {
    fc.assert(
      fc.property(real(0.1, 10), real(0.1, 3), real(-3, 3), (r, t, p) => {
        const { value, jacobian: J, m, n } = jacobian(spherical, [r, t, p]);
        expect([m, n]).toEqual([3, 3]);
        expect(Array.from(value)).toEqual(spherical(NumberOps, [r, t, p]));
        const E = exact(r, t, p);
        for (let i = 0; i < 3; i++) {
          for (let j = 0; j < 3; j++) {
            // entries are products of up to three factors: a few ulps
            expect(Math.abs(J[i * 3 + j]! - E[i]![j]!)).toBeLessThanOrEqual(REL * Math.max(r, 1));
          }
        }
        const det =
          J[0]! * (J[4]! * J[8]! - J[5]! * J[7]!) -
          J[1]! * (J[3]! * J[8]! - J[5]! * J[6]!) +
          J[2]! * (J[3]! * J[7]! - J[4]! * J[6]!);
        expect(Math.abs(det - r * r * Math.sin(t))).toBeLessThanOrEqual(1e-12 * r * r);
      }),
    );
  });

  it('non-square: f(x, y) = (x y, x + y, x²) gives a 3×2 Jacobian; constant outputs give zero rows', () => {
    const f: GenericVectorFunction = (o, [x, y]) => [
      o.mul(x!, y!),
      o.add(x!, y!),
      o.mul(x!, x!),
      o.const(7),
    ];
    const { value, jacobian: J, m, n } = jacobian(f, [2, 3]);
    expect([m, n]).toEqual([4, 2]);
    expect(Array.from(value)).toEqual([6, 5, 4, 7]);
    expect(Array.from(J)).toEqual([3, 2, 1, 1, 4, 0, 0, 0]);
  });

  it('jacobianFromDual and residualFromGeneric give solver callbacks', () => {
    const J = jacobianFromDual(spherical);
    const out = new Float64Array(9).fill(Number.NaN);
    J(out, Float64Array.of(2, 0.5, 0.25));
    expect(Array.from(out)).toEqual(Array.from(jacobian(spherical, [2, 0.5, 0.25]).jacobian));
    const F = residualFromGeneric(spherical);
    const fo = new Float64Array(3);
    F(fo, Float64Array.of(2, 0.5, 0.25));
    expect(Array.from(fo)).toEqual(spherical(NumberOps, [2, 0.5, 0.25]));
    expect(() => jacobianFromDual(spherical, 2)(out, Float64Array.of(1, 1, 1))).toThrow(
      DimensionError,
    );
  });
});
