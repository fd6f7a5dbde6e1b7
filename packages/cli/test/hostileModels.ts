// The model files of issue 18, item 1 ("model files whose symbolic work explodes"), and larger
// ones (100+ coordinates): generators of the JSON documents, shared by the in-process tests and
// the child-process tests with time and memory limits.

type Doc = Record<string, unknown>;

const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const sum = (terms: readonly string[]) => terms.join(' + ');

/** `0.5*xdot^2 - sin(x + p0 + … + p34)`: 35 parameters in one sum (722 bytes). */
export function contactSum(params = 35): Doc {
  const p = names('p', params);
  return {
    kind: 'contact',
    coordinates: ['x'],
    lagrangian: `0.5*xdot^2 - sin(x + ${sum(p)})`,
    params: Object.fromEntries(p.map((k) => [k, 0.01])),
    init: { q0: [0.1], v0: [0], z0: 0 },
    h: 0.05,
    steps: 10,
  };
}

/**
 * A chain of n unit masses and springs k with damping γz (a contact model of the mechanical form):
 * L = ½Σ q̇ᵢ² − ½k Σ (qᵢ − qᵢ₊₁)² − ½k q₀² + γz.
 */
export function coupledOscillator(n: number): Doc {
  const q = names('q', n);
  const springs = q.slice(1).map((qi, i) => `(${q[i]} - ${qi})^2`);
  return {
    kind: 'contact',
    coordinates: q,
    lagrangian: `0.5*(${sum(q.map((c) => `${c}dot^2`))}) - 0.5*k*(${q[0]}^2 + ${sum(springs)}) + gamma*z`,
    params: { k: 1, gamma: -0.01 },
    init: { q0: q.map((_, i) => (i === 0 ? 0.1 : 0)), v0: q.map(() => 0), z0: 0 },
    h: 0.05,
    steps: 10,
  };
}

/** Holonomic: n free unit masses in a quadratic well on the plane (a₀ + … + a_{n−1})² = 1. */
export function holonomicSum(n: number): Doc {
  const a = names('a', n);
  return {
    kind: 'holonomic',
    coordinates: a,
    lagrangian: `0.5*(${sum(a.map((c) => `${c}dot^2`))}) - 0.5*(${sum(a.map((c) => `${c}^2`))})`,
    constraints: [`(${sum(a)})^2 - 1`],
    init: {
      q0: a.map(() => 1 / n),
      v0: a.map((_, i) => (i === 0 ? 1 : i === 1 ? -1 : 0)),
    },
    method: 'dirac-2c',
    h: 0.01,
    steps: 10,
  };
}

/**
 * A general (non-mechanical) contact model in n coordinates with sin nested 9 deep:
 * L = ½Σ ȧᵢ² − sin⁹(a₀ + … + a_{n−1}) + γz(1 + ȧ₀/10), about 1.4 KB for n = 64.
 */
export function nestedSin(n: number, depth = 9): Doc {
  const a = names('a', n);
  const inner = `(${sum(a)})`;
  const nested = `${'sin('.repeat(depth)}${inner}${')'.repeat(depth)}`;
  return {
    kind: 'contact',
    coordinates: a,
    lagrangian: `0.5*(${sum(a.map((c) => `${c}dot^2`))}) - ${nested} + gamma*z*(1 + 0.1*a0dot)`,
    params: { gamma: -0.05 },
    init: { q0: a.map(() => 0.01), v0: a.map(() => 0), z0: 0 },
    h: 0.05,
    steps: 10,
  };
}

/** Holonomic: n unit masses on the sphere Σ aᵢ² = 1 under gravity along a₀. */
export function holonomicSphere(n: number): Doc {
  const a = names('a', n);
  return {
    kind: 'holonomic',
    coordinates: a,
    lagrangian: `0.5*(${sum(a.map((c) => `${c}dot^2`))}) - g*a0`,
    constraints: [`${sum(a.map((c) => `${c}^2`))} - 1`],
    params: { g: 9.81 },
    init: { q0: a.map((_, i) => (i === 1 ? 1 : 0)), v0: a.map((_, i) => (i === 2 ? 0.5 : 0)) },
    method: 'dirac-2c',
    h: 0.01,
    steps: 10,
  };
}

/** A Lagrangian with `count` unary minus signs in a row: ½ẋ² − (−1)^count·½x². */
export function manyMinus(count = 3000): Doc {
  return {
    kind: 'contact',
    coordinates: ['x'],
    lagrangian: `0.5*xdot^2 - ${'-'.repeat(count)}0.5*x^2`,
    init: { q0: [1], v0: [0], z0: 0 },
    h: 0.1,
    steps: 10,
  };
}

/** A Lagrange–Dirac chain: n coordinates, one one-form Σ qᵢ dqᵢ-like coefficient row. */
export function lagrangeDiracChain(n: number): Doc {
  const q = names('q', n);
  const springs = q.slice(1).map((qi, i) => `(${q[i]} - ${qi})^2`);
  return {
    kind: 'lagrange-dirac',
    coordinates: q,
    lagrangian: `0.5*(${sum(q.map((c) => `${c}dot^2`))}) - 0.5*(${sum(springs)})`,
    constraints: [q.map((c, i) => (i === 0 ? 1 : `-sin(${c})/${n}`))],
    init: { q0: q.map(() => 0), v0: q.map((_, i) => (i === 1 ? 1 : 0)) },
    h: 0.01,
    steps: 10,
  };
}

/**
 * A file within every limit whose Hessian is not: 256 coordinates, a sum of all variables times a
 * chain of about 2000 factors, so every node depends on every variable and each of the 513
 * Hessian columns of (q, q̇, z) builds thousands of new nodes (≈ 3·10⁶ in all).
 */
export function budgetBuster(n = 256): Doc {
  const a = names('a', n);
  const all = [...a, ...a.map((c) => `${c}dot`)];
  let chain = `(${sum(all)})`;
  for (let i = 0; chain.length < 15_000; i++) chain += `*${all[i % all.length]}`;
  return {
    kind: 'contact',
    coordinates: a,
    lagrangian: `${chain} + z`,
    init: { q0: a.map(() => 0), v0: a.map(() => 0), z0: 0 },
  };
}
