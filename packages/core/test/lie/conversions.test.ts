import { describe, expect, it } from 'vitest';
import { DimensionError, DomainError } from '../../src/errors.js';
import {
  axisAngleFromRotation,
  quatWxyzFromXyzw,
  quatXyzwFromRotation,
  quatXyzwFromWxyz,
  rotationFromAxisAngle,
  rotationFromQuatXyzw,
  rotationFromRpy,
  rpyFromRotation,
} from '../../src/lie/conversions.js';
import { SO3 } from '../../src/lie/so3.js';
import { rotationFromQuat, SO3Quat } from '../../src/lie/so3quat.js';
import { maxAbsDiff, rng } from '../../src/testing/index.js';

const m9 = () => new Float64Array(9);
const v3 = () => new Float64Array(3);
const v4 = () => new Float64Array(4);
const axisRotation = (axis: 0 | 1 | 2, angle: number) => {
  const t = v3();
  t[axis] = angle;
  return SO3.exp(m9(), t);
};
const mul = (a: Float64Array, b: Float64Array) => SO3.compose(m9(), a, b);
/** θ wrapped to (−π, π]. */
const wrap = (t: number) => {
  const w = t - 2 * Math.PI * Math.round(t / (2 * Math.PI));
  return w <= -Math.PI ? w + 2 * Math.PI : w;
};

describe('quaternion component orders: wxyz ↔ xyzw', () => {
  it('reorders both ways (aliasing allowed) and round-trips exactly', () => {
    const q = Float64Array.of(0.5, -0.5, 0.5, 0.5);
    expect(Array.from(quatXyzwFromWxyz(v4(), q))).toEqual([-0.5, 0.5, 0.5, 0.5]);
    const p = q.slice();
    quatWxyzFromXyzw(p, quatXyzwFromWxyz(p, p));
    expect(Array.from(p)).toEqual(Array.from(q));
  });

  it('rotationFromQuatXyzw/quatXyzwFromRotation agree with the wxyz functions; R → q → R to 1e-15, w ≥ 0', () => {
    const r = rng(1);
    for (let k = 0; k < 500; k++) {
      const qw = SO3Quat.random(v4(), r);
      const qx = quatXyzwFromWxyz(v4(), qw);
      expect(maxAbsDiff(rotationFromQuatXyzw(m9(), qx), rotationFromQuat(m9(), qw))).toBe(0);
      const R = SO3.random(m9(), r);
      const q = quatXyzwFromRotation(v4(), R);
      expect(q[3]).toBeGreaterThanOrEqual(0);
      expect(maxAbsDiff(rotationFromQuatXyzw(m9(), q), R)).toBeLessThan(1e-15);
    }
    // 90° about z: (0, 0, sin 45°, cos 45°)
    const q = quatXyzwFromRotation(v4(), axisRotation(2, Math.PI / 2));
    expect(maxAbsDiff(q, Float64Array.of(0, 0, Math.SQRT1_2, Math.SQRT1_2))).toBeLessThan(2e-16);
  });
});

describe('roll-pitch-yaw: R = Rz(yaw)·Ry(pitch)·Rx(roll)', () => {
  it('equals the product of the elementary rotations (1e-15) and the documented sense of each angle', () => {
    const r = rng(2);
    for (let k = 0; k < 500; k++) {
      const [roll, pitch, yaw] = [
        Math.PI * (2 * r() - 1),
        Math.PI * (2 * r() - 1),
        Math.PI * (2 * r() - 1),
      ];
      const R = rotationFromRpy(m9(), Float64Array.of(roll, pitch, yaw));
      const P = mul(mul(axisRotation(2, yaw), axisRotation(1, pitch)), axisRotation(0, roll));
      expect(maxAbsDiff(R, P)).toBeLessThan(1e-15);
    }
    // yaw π/2 turns x into y; roll π/2 turns y into z; pitch π/2 turns z into x
    const act = (rpy: number[], p: number[]) =>
      SO3.act(v3(), rotationFromRpy(m9(), Float64Array.from(rpy)), Float64Array.from(p));
    expect(maxAbsDiff(act([0, 0, Math.PI / 2], [1, 0, 0]), Float64Array.of(0, 1, 0))).toBeLessThan(
      1e-16,
    );
    expect(maxAbsDiff(act([Math.PI / 2, 0, 0], [0, 1, 0]), Float64Array.of(0, 0, 1))).toBeLessThan(
      1e-16,
    );
    expect(maxAbsDiff(act([0, Math.PI / 2, 0], [0, 0, 1]), Float64Array.of(1, 0, 0))).toBeLessThan(
      1e-16,
    );
  });

  it('rpy → R → rpy recovers the angles for |pitch| ≤ π/2 − 0.01 (1e-13), roll, yaw ∈ (−π, π]', () => {
    const r = rng(3);
    for (let k = 0; k < 2000; k++) {
      const rpy = Float64Array.of(
        Math.PI * (2 * r() - 1),
        (Math.PI / 2 - 0.01) * (2 * r() - 1),
        Math.PI * (2 * r() - 1),
      );
      const back = rpyFromRotation(v3(), rotationFromRpy(m9(), rpy));
      expect(maxAbsDiff(back, rpy)).toBeLessThan(1e-13);
    }
    const back = rpyFromRotation(
      v3(),
      rotationFromRpy(m9(), Float64Array.of(-Math.PI, 0, -Math.PI)),
    );
    expect(Array.from(back)).toEqual([Math.PI, 0, Math.PI]); // −π is returned as π
  });

  it('R → rpy → R reproduces random rotations to 2e-15', () => {
    const r = rng(4);
    for (let k = 0; k < 2000; k++) {
      const R = SO3.random(m9(), r);
      const rpy = rpyFromRotation(v3(), R);
      expect(Math.abs(rpy[1]!)).toBeLessThanOrEqual(Math.PI / 2);
      expect(maxAbsDiff(rotationFromRpy(m9(), rpy), R)).toBeLessThan(2e-15);
    }
  });

  it('gimbal lock, pitch = ±π/2: roll = 0 and yaw = yaw ∓ roll; near it (π/2 − 10⁻ᵏ) R still round-trips to 2e-15', () => {
    const r = rng(5);
    for (let k = 0; k < 200; k++) {
      const roll = Math.PI * (2 * r() - 1);
      const yaw = Math.PI * (2 * r() - 1);
      for (const s of [1, -1]) {
        const R = rotationFromRpy(m9(), Float64Array.of(roll, (s * Math.PI) / 2, yaw));
        const rpy = rpyFromRotation(v3(), R);
        expect(rpy[0]).toBe(0);
        expect(Math.abs(rpy[1]! - (s * Math.PI) / 2)).toBeLessThan(2e-8); // atan2(1, ~1e-16·…)
        expect(Math.abs(wrap(rpy[2]! - (yaw - s * roll)))).toBeLessThan(1e-15);
        expect(maxAbsDiff(rotationFromRpy(m9(), rpy), R)).toBeLessThan(2e-15);
        for (let e = 2; e <= 16; e++) {
          const Rn = rotationFromRpy(
            m9(),
            Float64Array.of(roll, s * (Math.PI / 2 - 10 ** -e), yaw),
          );
          expect(maxAbsDiff(rotationFromRpy(m9(), rpyFromRotation(v3(), Rn)), Rn)).toBeLessThan(
            2e-15,
          );
        }
      }
    }
  });
});

describe('axis-angle', () => {
  it('rotationFromAxisAngle = Exp(θ·n/|n|); axisAngleFromRotation inverts it with θ ∈ [0, π] (angle 1e-14, R 4e-15 as exp∘log near π)', () => {
    const r = rng(6);
    for (let k = 0; k < 500; k++) {
      const axis = Float64Array.from({ length: 3 }, () => 2 * r() - 1);
      const angle = Math.PI * r();
      const R = rotationFromAxisAngle(m9(), axis, angle);
      const n = Math.hypot(axis[0]!, axis[1]!, axis[2]!);
      expect(
        maxAbsDiff(
          R,
          SO3.exp(
            m9(),
            axis.map((x) => (angle * x) / n),
          ),
        ),
      ).toBeLessThan(1e-15);
      const aa = axisAngleFromRotation(v4(), R);
      expect(Math.abs(aa[3]! - angle)).toBeLessThan(1e-14);
      expect(
        maxAbsDiff(
          aa.subarray(0, 3),
          axis.map((x) => x / n),
        ),
      ).toBeLessThan(1e-12 / Math.max(angle, 1e-3));
      expect(maxAbsDiff(rotationFromAxisAngle(m9(), aa.subarray(0, 3), aa[3]!), R)).toBeLessThan(
        4e-15,
      );
    }
  });

  it('identity ↦ axis (1, 0, 0), angle 0; angle π keeps ±n; a zero or NaN axis throws', () => {
    expect(Array.from(axisAngleFromRotation(v4(), SO3.identity(m9())))).toEqual([1, 0, 0, 0]);
    const aa = axisAngleFromRotation(
      v4(),
      rotationFromAxisAngle(m9(), Float64Array.of(0, 1, 0), Math.PI),
    );
    expect(Math.abs(aa[1]!)).toBeCloseTo(1, 15);
    expect(aa[3]).toBeCloseTo(Math.PI, 15);
    expect(() => rotationFromAxisAngle(m9(), v3(), 1)).toThrow(DomainError);
    expect(() => rotationFromAxisAngle(m9(), Float64Array.of(Number.NaN, 0, 1), 1)).toThrow(
      DomainError,
    );
    expect(() => rotationFromAxisAngle(m9(), Float64Array.of(0, 0, 1), Number.NaN)).toThrow(
      DomainError,
    );
  });
});

describe('conversions check their argument lengths', () => {
  it('DimensionError naming the function and argument', () => {
    expect(() => rotationFromRpy(m9(), v4())).toThrow('rotationFromRpy: rpy: expected 3, got 4');
    expect(() => rpyFromRotation(v4(), m9())).toThrow(DimensionError);
    expect(() => quatXyzwFromRotation(v4(), v4())).toThrow(
      'quatXyzwFromRotation: R: expected 9, got 4',
    );
    expect(() => rotationFromQuatXyzw(m9(), v3())).toThrow(DimensionError);
    expect(() => quatXyzwFromWxyz(v3(), v4())).toThrow(DimensionError);
    expect(() => quatWxyzFromXyzw(v4(), v3())).toThrow(DimensionError);
    expect(() => rotationFromAxisAngle(v4(), v3(), 1)).toThrow(DimensionError);
    expect(() => axisAngleFromRotation(v3(), m9())).toThrow(DimensionError);
  });
});
