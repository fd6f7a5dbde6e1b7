import type { Lagrangian } from '../../src/types.js';

/** ω²(t) = 1 + 0.4 cos 2t, the stiffness of {@link clockedOscillator}. */
export const omega2 = (t: number): number => 1 + 0.4 * Math.cos(2 * t);

/**
 * The unit-mass 1-D time-dependent Lagrangian L = ½v² − ½ω²(t)q² (ω² = {@link omega2}), with its
 * derivatives; when `seen` is given, every t its L_q receives is pushed onto it.
 */
export function clockedOscillator(seen?: (number | undefined)[]): Lagrangian {
  return {
    n: 1,
    L: (q, v, t = 0) => 0.5 * v[0]! ** 2 - 0.5 * omega2(t) * q[0]! ** 2,
    Lq: (out, q, _v, t) => {
      seen?.push(t);
      out[0] = -omega2(t ?? 0) * q[0]!;
      return out;
    },
    Lv: (out, _q, v) => {
      out[0] = v[0]!;
      return out;
    },
    Lvv: (out) => {
      out[0] = 1;
      return out;
    },
    Lvq: (out) => {
      out[0] = 0;
      return out;
    },
  };
}
