/**
 * The built-in systems and problems of the CLI contract (`../shared/spec/CLI.md`). Descriptors are
 * plain data so that `geomech list` and `--help` load no numerical code; each system's runner is
 * imported only when a command needs it, which keeps start-up fast.
 *
 * @module
 */
import { MAX_SOLVE_STEPS, MAX_ZIEGLER_LINKS } from './limits.js';
import type { ProblemRunner, SystemRunner } from './runner.js';

/** A named parameter or initial datum with its default (a number, or a vector). */
export interface Quantity {
  readonly name: string;
  readonly default: number | readonly number[];
  readonly description: string;
  /**
   * Set for a size-like parameter (the Ziegler column's links, a problem's steps): the value must
   * be an integer in [min, max], checked before any work however it is given (`--n`, `--param`).
   */
  readonly count?: { readonly min: number; readonly max: number; readonly unit: string };
}

/** A scalar parameter of a resolved request by name (defaults applied). */
export type ParamReader = (name: string) => number;

/**
 * A quantity a correct run of the system keeps within a stated band; `geomech simulate` adds a
 * warning (stderr on a terminal, `warnings` in the JSON) when a run leaves it.
 *
 * - `residual`: max over the kept states of ‖x_k‖∞ must stay ≤ tol·scale (a constraint residual);
 * - `drift`: max over the kept states of ‖x_k − x_0‖∞ must stay ≤ tol·max(‖x_0‖∞, scale) (a
 *   conserved quantity: energy, Casimir, Noether charge); with both zero, ≤ tol.
 */
export interface AccuracyBand {
  readonly field: string;
  readonly measure: 'residual' | 'drift';
  readonly tol: number;
  /** The quantity's natural size from the parameters (default: 1 for residuals, 0 for drifts). */
  readonly scale?: (p: ParamReader) => number;
  /** The scale as a formula, for messages and the docs (e.g. `l²`). */
  readonly scaleText?: string;
  /**
   * Whether the band holds for these parameters (default: always); e.g. the energy of a damped
   * Ziegler column is not conserved by the exact flow.
   */
  readonly applies?: (p: ParamReader) => boolean;
}

/**
 * The shortest natural time of a system's dynamics (1/ω of its fastest oscillation): a step h
 * above it resolves no oscillation, so `geomech simulate` warns before the run.
 */
export interface TimeScale {
  readonly formula: string;
  readonly value: (p: ParamReader) => number;
}

/** A built-in system (`simulate`) or problem (`solve`). */
export interface SystemDescriptor {
  readonly name: string;
  readonly kind: 'system';
  /** The geomech package that implements it. */
  readonly package: string;
  readonly description: string;
  /** Methods, the default first. */
  readonly methods: readonly string[];
  readonly params: readonly Quantity[];
  readonly init: readonly Quantity[];
  /** Alternative sets of initial-data names (e.g. (q0, q1, z0) or (q0, v0, z0)). */
  readonly initAlternatives?: readonly (readonly string[])[];
  /** Series fields of the output, in order. */
  readonly fields: readonly string[];
  /** Default time step and number of steps. */
  readonly defaults: { readonly h: number; readonly steps: number };
  /** The main series drawn by `--plot` (x defaults to t). */
  readonly plot?: PlotChoice;
  /**
   * Numbers per kept state of the output (t included), from the parameters: the output size is
   * estimated from it before the run.
   */
  readonly outputWidth?: (p: ParamReader) => number;
  /** The accuracy bands of the system's conserved quantities and constraints. */
  readonly bands?: readonly AccuracyBand[];
  /** The system's shortest natural time, when it has a simple formula. */
  readonly timeScale?: TimeScale;
  readonly load: () => Promise<SystemRunner>;
}

/** Which series `--plot` draws: y fields (optionally some components) against x (default t). */
export interface PlotChoice {
  readonly x?: string;
  readonly y: readonly string[];
  readonly components?: readonly number[];
  readonly yScale?: 'linear' | 'log';
  readonly aspect?: 'auto' | 'equal';
}

/** A non-numeric parameter of a problem (e.g. the retraction map) with its choices. */
export interface Choice {
  readonly name: string;
  readonly default: string;
  readonly choices: readonly string[];
  readonly description: string;
}

/** A built-in optimal-control problem (`geomech solve`). */
export interface ProblemDescriptor {
  readonly name: string;
  readonly kind: 'problem';
  readonly package: string;
  readonly description: string;
  /** Solution methods, the default first. */
  readonly methods: readonly string[];
  /** Numeric parameters (`n` among them). */
  readonly params: readonly Quantity[];
  readonly choices: readonly Choice[];
  /** Boundary data (`--start`, `--end`) with defaults; empty when fixed by the problem. */
  readonly boundary: readonly Quantity[];
  readonly fields: readonly string[];
  readonly plot: PlotChoice;
  readonly load: () => Promise<ProblemRunner>;
}

const contactFields = ['q', 'p', 'z', 'energy', 'sigma'] as const;
const contactMethods = ['midpoint', 'left-rectangle', 'implicit-z-midpoint', 'exact'] as const;
const loadContact = async (): Promise<SystemRunner> =>
  (await import('./systems/contact.js')).contactRunner;

const q0q1z0 = (q0: number, q1: number): Quantity[] => [
  { name: 'q0', default: q0, description: 'initial position' },
  { name: 'q1', default: q1, description: 'second position (two-point start); or give v0' },
  { name: 'z0', default: 0, description: 'initial action' },
];

const holonomicFields = ['q', 'p', 'lambda', 'energy', 'constraint'] as const;
/**
 * RATTLE first: the default run must stay on its constraint. It keeps the constraint to round-off
 * (4e-16 on the default pendulum run) and the energy to 1e-4 relative, where dirac-1, the paper's
 * first-order method, ends 0.26 off the constraint with 16% of energy lost at the same h.
 */
const holonomicMethods = [
  'rattle',
  'dirac-1',
  'dirac-2',
  'dirac-2c',
  'euler',
  'trapezium',
  'ab3',
  'rk4',
] as const;

/**
 * Constraint within 1e-3·l² and energy within 1% (pendulum, Ziegler column; the energy band only
 * where `conservative` says the exact flow keeps it).
 */
const holonomicBands = (
  energyScale: (p: ParamReader) => number,
  energyScaleText: string,
  conservative?: (p: ParamReader) => boolean,
) =>
  [
    {
      field: 'constraint',
      measure: 'residual',
      tol: 1e-3,
      scale: (p: ParamReader) => p('l') ** 2,
      scaleText: 'l²',
    },
    {
      field: 'energy',
      measure: 'drift',
      tol: 1e-2,
      scale: energyScale,
      scaleText: `max(|E0|, ${energyScaleText})`,
      ...(conservative === undefined ? {} : { applies: conservative }),
    },
  ] as const satisfies readonly AccuracyBand[];

/**
 * Energy within 5% for the (±) Lagrange–Dirac systems: their methods are first order, and the
 * energy oscillates by O(h) (3.3% on the default rolling-disk run, 1% on the L-C circuit).
 */
const lagrangeDiracBands: readonly AccuracyBand[] = [
  { field: 'energy', measure: 'drift', tol: 5e-2, scaleText: '|E0|' },
];

/** Numbers per state of the contact systems: t, q, p, z, energy, sigma. */
const contactWidth = () => 6;
const loadHolonomic = async (): Promise<SystemRunner> =>
  (await import('./systems/holonomic.js')).holonomicRunner;

const loadGroupoid = async (): Promise<SystemRunner> =>
  (await import('./systems/groupoid.js')).groupoidRunner;

const loadLieGroup = async (): Promise<SystemRunner> =>
  (await import('./systems/lieGroup.js')).lieGroupRunner;

const lagrangeDiracFields = ['q', 'p', 'lambda', 'energy', 'constraint'] as const;
const lagrangeDiracMethods = ['dirac-plus', 'dirac-minus'] as const;
const loadLagrangeDirac = async (): Promise<SystemRunner> =>
  (await import('./systems/lagrangeDirac.js')).lagrangeDiracRunner;

/** Every built-in system and problem, in the order of the contract. */
export const systems: readonly SystemDescriptor[] = [
  {
    name: 'free-particle',
    kind: 'system',
    package: '@geomech/contact',
    description: 'Free particle with linear damping, L = v²/2 + γz (seed 004, Example 1).',
    methods: contactMethods,
    params: [{ name: 'gamma', default: -0.05, description: 'damping (γ < 0 dissipates)' }],
    init: q0q1z0(1, 2),
    initAlternatives: [
      ['q0', 'q1', 'z0'],
      ['q0', 'v0', 'z0'],
    ],
    fields: contactFields,
    defaults: { h: 0.5, steps: 50 },
    outputWidth: contactWidth,
    load: loadContact,
  },
  {
    name: 'damped-oscillator',
    kind: 'system',
    package: '@geomech/contact',
    description: 'Damped harmonic oscillator, L = v²/2 − kq²/2 + γz (seed 004, Example 2).',
    methods: contactMethods,
    params: [
      { name: 'k', default: 1, description: 'spring constant' },
      { name: 'gamma', default: -0.05, description: 'damping (γ < 0 dissipates)' },
    ],
    init: q0q1z0(1, 2),
    initAlternatives: [
      ['q0', 'q1', 'z0'],
      ['q0', 'v0', 'z0'],
    ],
    fields: contactFields,
    defaults: { h: 0.5, steps: 50 },
    outputWidth: contactWidth,
    timeScale: { formula: '1/√k', value: (p) => 1 / Math.sqrt(p('k')) },
    load: loadContact,
  },
  {
    name: 'damped-pendulum',
    kind: 'system',
    package: '@geomech/contact',
    description: 'Damped pendulum, L = v²/2 − (g/l)(1 − cos q) + γz.',
    methods: contactMethods,
    params: [
      { name: 'gamma', default: -0.1, description: 'damping (γ < 0 dissipates)' },
      { name: 'g', default: 1, description: 'gravity' },
      { name: 'l', default: 1, description: 'length' },
    ],
    init: [
      { name: 'q0', default: 1, description: 'initial angle (rad)' },
      { name: 'v0', default: 0, description: 'initial angular velocity; or give q1' },
      { name: 'z0', default: 0, description: 'initial action' },
    ],
    initAlternatives: [
      ['q0', 'v0', 'z0'],
      ['q0', 'q1', 'z0'],
    ],
    fields: contactFields,
    defaults: { h: 0.1, steps: 200 },
    outputWidth: contactWidth,
    timeScale: { formula: '√(l/g)', value: (p) => Math.sqrt(p('l') / p('g')) },
    load: loadContact,
  },
  {
    name: 'rolling-disk',
    kind: 'system',
    package: '@geomech/dirac',
    description:
      'Vertical rolling disk, q = (x, y, θ, φ), rolling without slipping, potential a(1 − cos φ) + ½bθ² + ½c(x² + y²) (spec 000 §9.1).',
    methods: lagrangeDiracMethods,
    params: [
      { name: 'm', default: 1, description: 'mass' },
      { name: 'R', default: 1, description: 'radius' },
      { name: 'I', default: 1, description: 'moment of inertia about the axle' },
      { name: 'J', default: 1, description: 'moment of inertia about the vertical' },
      { name: 'a', default: 0, description: 'potential coefficient of 1 − cos φ' },
      { name: 'b', default: 0, description: 'potential coefficient of ½θ²' },
      { name: 'c', default: 0, description: 'potential coefficient of ½(x² + y²)' },
    ],
    init: [
      { name: 'x', default: 0, description: 'contact point x' },
      { name: 'y', default: 0, description: 'contact point y' },
      { name: 'theta', default: 0, description: 'rolling angle (rad)' },
      { name: 'phi', default: 0, description: 'heading angle (rad)' },
      { name: 'thetaDot', default: 1, description: 'rolling rate (ẋ, ẏ follow from rolling)' },
      { name: 'phiDot', default: 1, description: 'turning rate' },
    ],
    fields: lagrangeDiracFields,
    defaults: { h: 0.01, steps: 1000 },
    outputWidth: () => 13,
    bands: lagrangeDiracBands,
    load: loadLagrangeDirac,
  },
  {
    name: 'heisenberg',
    kind: 'system',
    package: '@geomech/dirac',
    description: 'Heisenberg system: Q = R³, L = ½|v|², constraint ż = yẋ − xẏ (spec 000 §9.2).',
    methods: lagrangeDiracMethods,
    params: [],
    init: [
      { name: 'q0', default: [1, 0.5, -0.2], description: 'initial position (x, y, z)' },
      {
        name: 'v0',
        default: [0.3, -0.2],
        description: 'initial (ẋ, ẏ); ż follows from the constraint',
      },
    ],
    fields: lagrangeDiracFields,
    defaults: { h: 0.01, steps: 1000 },
    outputWidth: () => 10,
    bands: lagrangeDiracBands,
    load: loadLagrangeDirac,
  },
  {
    name: 'pendulum',
    kind: 'system',
    package: '@geomech/dirac',
    description:
      'Cartesian pendulum, q = (x, y), constraint x² + y² = l², gravity −g along y (spec 001 §4).',
    methods: holonomicMethods,
    params: [
      { name: 'm', default: 1, description: 'mass' },
      { name: 'g', default: 9.81, description: 'gravity (along −y)' },
      { name: 'l', default: 1, description: 'rod length' },
    ],
    init: [
      {
        name: 'theta0',
        default: Math.PI / 4,
        description: 'initial angle from the downward vertical (rad)',
      },
      { name: 'omega0', default: 0, description: 'initial angular velocity' },
    ],
    fields: holonomicFields,
    defaults: { h: 0.01, steps: 1000 },
    outputWidth: () => 8,
    bands: holonomicBands((p) => p('m') * p('g') * p('l'), 'm·g·l'),
    timeScale: { formula: '√(l/g)', value: (p) => Math.sqrt(p('l') / p('g')) },
    load: loadHolonomic,
  },
  {
    name: 'ziegler',
    kind: 'system',
    package: '@geomech/dirac',
    description:
      'Ziegler column: n rigid links with angular springs and a dead load P at each joint (spec 001 §7.2).',
    methods: holonomicMethods,
    params: [
      {
        name: 'n',
        default: 2,
        description: 'number of links',
        count: { min: 1, max: MAX_ZIEGLER_LINKS, unit: 'links' },
      },
      { name: 'm', default: 1, description: 'mass at each moving joint' },
      { name: 'k', default: 1, description: 'angular spring stiffness' },
      { name: 'P', default: 0.2, description: 'downward load at each moving joint' },
      { name: 'l', default: 1, description: 'link length' },
      {
        name: 'damping',
        default: 0,
        description: 'viscous damping c of every joint (Rayleigh R = c/2 Σ (θ̇_i − θ̇_{i−1})²)',
      },
    ],
    init: [
      {
        name: 'theta',
        default: [0.1, 0],
        description:
          'link angles from the upward vertical, one per link (default: 0.1 for the first, 0 for the rest)',
      },
      {
        name: 'omega',
        default: 0,
        description: 'angular velocities: one number for every link, or one per link',
      },
    ],
    fields: [...holonomicFields, 'angles'],
    defaults: { h: 0.01, steps: 1000 },
    // t, q and p (2n each), lambda, energy, constraint and angles (n each)
    outputWidth: (p) => 7 * p('n') + 2,
    bands: holonomicBands(
      (p) => (p('P') * p('l') * p('n') * (p('n') + 1)) / 2 + p('n') * p('k'),
      'P·l·n(n+1)/2 + n·k',
      (p) => p('damping') === 0,
    ),
    load: loadHolonomic,
  },
  {
    name: 'lc-circuit',
    kind: 'system',
    package: '@geomech/dirac',
    description:
      'Single L-C loop, q = (q_L, q_C), L = ½L f_L² − q_C²/(2C), KCL −f_L + f_C = 0 (degenerate; spec 002 §4.2).',
    methods: lagrangeDiracMethods,
    params: [
      { name: 'L', default: 2, description: 'inductance' },
      { name: 'C', default: 0.125, description: 'capacitance' },
    ],
    init: [
      { name: 'qC', default: 1, description: 'capacitor charge (q_L starts at 0)' },
      { name: 'fL', default: 0, description: 'loop current' },
    ],
    fields: lagrangeDiracFields,
    defaults: { h: 0.01, steps: 1000 },
    outputWidth: () => 8,
    bands: lagrangeDiracBands,
    timeScale: { formula: '√(L·C)', value: (p) => Math.sqrt(p('L') * p('C')) },
    load: loadLagrangeDirac,
  },
  {
    name: 'lc-circuit-4',
    kind: 'system',
    package: '@geomech/dirac',
    description:
      'The 4-port L-C circuit of spec 002 §4.2, q = (q_L, q_C1, q_C2, q_C3) (degenerate; the hidden constraint q_C1/C1 = q_C3/C3 is found by the constraint algorithm).',
    methods: lagrangeDiracMethods,
    params: [
      { name: 'L', default: 0.7, description: 'inductance' },
      { name: 'C1', default: 0.3, description: 'capacitance 1' },
      { name: 'C2', default: 0.5, description: 'capacitance 2' },
      { name: 'C3', default: 0.9, description: 'capacitance 3' },
    ],
    init: [
      {
        name: 'qC1',
        default: 0.3,
        description: 'charge of C1 (q_C3 follows from the secondary constraint)',
      },
      { name: 'qC2', default: 0, description: 'charge of C2' },
      { name: 'fL', default: 0, description: 'inductor current' },
    ],
    fields: lagrangeDiracFields,
    defaults: { h: 0.01, steps: 1000 },
    outputWidth: () => 14,
    bands: lagrangeDiracBands,
    load: loadLagrangeDirac,
  },
  {
    name: 'rigid-body',
    kind: 'system',
    package: '@geomech/groupoid',
    description:
      'Free rigid body on SO(3), l(ξ) = ½ξᵀ diag(I1, I2, I3) ξ, discrete Lie–Poisson with τ = Cayley or exp (spec 003 §8.1, S3).',
    methods: ['cayley', 'exp'],
    params: [
      { name: 'I1', default: 1, description: 'principal moment of inertia 1' },
      { name: 'I2', default: 2, description: 'principal moment of inertia 2' },
      { name: 'I3', default: 3, description: 'principal moment of inertia 3' },
    ],
    init: [
      { name: 'xi0', default: [0.8, -0.5, 0.3], description: 'initial body angular velocity' },
    ],
    fields: ['R', 'xi', 'pi', 'casimir', 'spatialMomentum', 'energy'],
    defaults: { h: 0.1, steps: 1000 },
    plot: { y: ['xi'] },
    outputWidth: () => 21,
    // measured on the default runs: energy 3.1e-4 (cayley), 1.1e-4 (exp); Casimir 4e-14
    bands: [
      { field: 'energy', measure: 'drift', tol: 1e-2, scaleText: '|E0|' },
      { field: 'casimir', measure: 'drift', tol: 1e-6, scaleText: '|π0|' },
    ],
    load: loadGroupoid,
  },
  {
    name: 'plate-ball',
    kind: 'system',
    package: '@geomech/groupoid',
    description:
      'Ball rolling on a rotating plate, Q = R² × SO(3), discrete constrained Lagrangian system with multipliers (spec 003 §8.2, S5).',
    methods: ['lagrange-multiplier'],
    params: [
      { name: 'r', default: 1, description: 'ball radius' },
      { name: 'Omega', default: 0.7, description: 'plate angular velocity' },
      { name: 'c', default: 0.3, description: 'spin constant (ω_z = c)' },
    ],
    init: [
      { name: 'x0', default: 0, description: 'first contact point x' },
      { name: 'y0', default: 0, description: 'first contact point y' },
      { name: 'x1', default: 0.02, description: 'second contact point x' },
      { name: 'y1', default: 0.01, description: 'second contact point y' },
      { name: 'lambda1', default: [0.5, -0.4, 0.3], description: 'initial multipliers λ₁' },
    ],
    fields: ['x', 'y', 'R', 'lambda', 'casimir', 'noether'],
    defaults: { h: 0.05, steps: 200 },
    plot: { x: 'x', y: ['y'], aspect: 'equal' },
    outputWidth: () => 17,
    // measured on the default run: Casimir 6e-15, Noether charge 4.5e-13 (relative)
    bands: [
      { field: 'casimir', measure: 'drift', tol: 1e-6, scaleText: '|Π0|' },
      { field: 'noether', measure: 'drift', tol: 1e-6, scaleText: '|F0|' },
    ],
    load: loadGroupoid,
  },
  {
    name: 'heavy-top',
    kind: 'system',
    package: '@geomech/groupoid',
    description:
      'Heavy top / 3-D pendulum on SO(3), U = m g l e₃·Re₃ (z up, pivot at the origin), Lie-group variational integrator of Lee–Leok–McClamroch (trapezoidal potential).',
    methods: ['lgvi'],
    params: [
      { name: 'I1', default: 1, description: 'principal moment of inertia 1 about the pivot' },
      { name: 'I2', default: 1, description: 'principal moment of inertia 2 about the pivot' },
      { name: 'I3', default: 2, description: 'principal moment of inertia 3 (symmetry axis)' },
      { name: 'm', default: 1, description: 'mass' },
      { name: 'g', default: 9.81, description: 'gravity (along −e₃)' },
      { name: 'l', default: 0.5, description: 'pivot to centre of mass along the body axis e₃' },
    ],
    init: [
      {
        name: 'rotation',
        default: [0.3, 0, 0],
        description: 'initial attitude R₀ = Exp(rotation)',
      },
      { name: 'omega', default: [0, 0, 20], description: 'initial body angular velocity' },
    ],
    fields: ['R', 'pi', 'omega', 'energy', 'spatialMomentum', 'orthogonality'],
    defaults: { h: 0.01, steps: 1000 },
    plot: { y: ['spatialMomentum'] },
    outputWidth: () => 21,
    // measured on the default run: energy 1.3e-7 (relative), orthogonality 2e-13
    bands: [
      { field: 'energy', measure: 'drift', tol: 1e-3, scaleText: '|E0|' },
      { field: 'orthogonality', measure: 'residual', tol: 1e-9 },
    ],
    load: loadLieGroup,
  },
  {
    name: 'quadrotor',
    kind: 'system',
    package: '@geomech/groupoid',
    description:
      'Rigid body in gravity with thrust along its body axis and a body torque (a quadrotor), Lie-group variational integrator on SO(3) × R³; throttle 1 hovers exactly.',
    methods: ['lgvi'],
    params: [
      { name: 'm', default: 1.5, description: 'mass' },
      { name: 'I1', default: 0.02, description: 'principal moment of inertia 1' },
      { name: 'I2', default: 0.02, description: 'principal moment of inertia 2' },
      { name: 'I3', default: 0.04, description: 'principal moment of inertia 3' },
      { name: 'g', default: 9.81, description: 'gravity (along −e₃)' },
      { name: 'throttle', default: 1, description: 'thrust / (m g), constant' },
      { name: 'torque', default: [0, 0, 0], description: 'body torque, constant' },
    ],
    init: [
      { name: 'rotation', default: [0, 0, 0], description: 'initial attitude R₀ = Exp(rotation)' },
      { name: 'position', default: [0, 0, 1], description: 'initial position' },
      { name: 'omega', default: [0, 0, 0], description: 'initial body angular velocity' },
      { name: 'velocity', default: [0, 0, 0], description: 'initial velocity' },
    ],
    fields: [
      'R',
      'x',
      'v',
      'pi',
      'omega',
      'energy',
      'spatialMomentum',
      'linearMomentum',
      'orthogonality',
    ],
    defaults: { h: 0.01, steps: 1000 },
    plot: { y: ['x'] },
    outputWidth: () => 30,
    bands: [{ field: 'orthogonality', measure: 'residual', tol: 1e-9 }],
    load: loadLieGroup,
  },
  {
    name: 'unicycle',
    kind: 'system',
    package: '@geomech/groupoid',
    description:
      'Unicycle on SE(2) (no sideways slip) with a constant forward force and steering torque: the constraint-reduced dynamics m v̇ = F, I ω̇ = τ, Ẋ = X[v, 0, ω]^, explicit midpoint-twist step (not a variational integrator).',
    methods: ['se2-midpoint'],
    params: [
      { name: 'm', default: 1, description: 'mass' },
      { name: 'I', default: 0.1, description: 'moment of inertia about the vertical' },
      { name: 'force', default: 0, description: 'forward force F, constant' },
      { name: 'torque', default: 0.02, description: 'steering torque τ, constant' },
    ],
    init: [
      { name: 'position', default: [0, 0], description: 'initial position (x, y)' },
      { name: 'heading', default: 0, description: 'initial heading θ' },
      { name: 'v', default: 1, description: 'initial forward speed' },
      { name: 'omega', default: 0, description: 'initial turning rate' },
    ],
    fields: ['X', 'position', 'heading', 'v', 'omega', 'energy'],
    defaults: { h: 0.01, steps: 1000 },
    plot: { y: ['heading'] },
    outputWidth: () => 16,
    load: loadLieGroup,
  },
];

/** Looks a system or problem up by name. */
export function findSystem(
  name: string,
  kind?: SystemDescriptor['kind'],
): SystemDescriptor | undefined {
  return systems.find((s) => s.name === name && (kind === undefined || s.kind === kind));
}

const loadSolve = async (): Promise<ProblemRunner> =>
  (await import('./systems/optimalControl.js')).optimalControlRunner;

/** The steps n of a problem (h = 1/n on a unit horizon, else h = T/n), 2 … MAX_SOLVE_STEPS. */
const stepsParam = (n: number, h: 'h = 1/n' | 'h = T/n'): Quantity => ({
  name: 'n',
  default: n,
  description: `number of steps (${h})`,
  count: { min: 2, max: MAX_SOLVE_STEPS, unit: 'steps' },
});

/** The horizon T of a problem. */
const horizonParam = (T: number, description = 'horizon'): Quantity => ({
  name: 'T',
  default: T,
  description,
});

/** Principal moments of inertia `<prefix>1 … <prefix>3`. */
const inertiaParams = (prefix: string, J: readonly [number, number, number]): Quantity[] =>
  J.map((v, i) => ({
    name: `${prefix}${i + 1}`,
    default: v,
    description: `principal moment of inertia ${i + 1}`,
  }));

/** `--start` and `--end` poses in the coordinates `coords` (the end at t = T). */
const poseBoundary = (
  coords: string,
  start: readonly number[],
  end: readonly number[],
  nouns: readonly [string, string],
): Quantity[] => [
  { name: 'start', default: start, description: `${coords}: ${nouns[0]}` },
  { name: 'end', default: end, description: `${coords}: ${nouns[1]} at t = T` },
];

/** Every built-in optimal-control problem, in the order of the contract. */
export const problems: readonly ProblemDescriptor[] = [
  {
    name: 'so3-steering',
    kind: 'problem',
    package: '@geomech/groupoid',
    description:
      'Sub-Riemannian steering on SO(3): l(ξ) = ½|ξ|², controls in span{E1, E2}, from I to exp(φE3) (spec 003 §8.1, S4).',
    methods: ['interior-point'],
    params: [
      { name: 'phi', default: 1, description: 'target rotation angle about E3' },
      stepsParam(40, 'h = 1/n'),
    ],
    choices: [
      { name: 'map', default: 'cayley', choices: ['cayley', 'exp'], description: 'retraction τ' },
    ],
    boundary: [],
    fields: ['xi', 'lambda', 'R'],
    plot: { y: ['xi'], components: [0, 1] },
    load: loadSolve,
  },
  {
    name: 'plate-ball',
    kind: 'problem',
    package: '@geomech/groupoid',
    description:
      'Plate-ball steering: roll the ball from (x, y, R) to (x, y, R) minimizing ∫ ½(ẋ² + ẏ²) (spec 003 §8.2, S6, S7).',
    methods: ['interior-point'],
    params: [
      { name: 'r', default: 1, description: 'ball radius' },
      { name: 'Omega', default: 0, description: 'plate angular velocity' },
      { name: 'c', default: 0, description: 'spin constant' },
      stepsParam(30, 'h = 1/n'),
      {
        name: 'loop',
        default: 0,
        description: 'orientation of the loop guess: 1 ccw, −1 cw, 0 from the sign of the turn',
      },
      { name: 'vmax', default: 0, description: 'speed bound |(ẋ, ẏ)| ≤ vmax; 0: no bound' },
    ],
    choices: [],
    boundary: [
      {
        name: 'start',
        default: [0, 0, 0, 0, 0],
        description: 'x,y,ax,ay,az: contact point and rotation vector (axis × angle)',
      },
      { name: 'end', default: [0, 0, 0, 0, 0.3], description: 'x,y,ax,ay,az at t = 1' },
    ],
    fields: ['x', 'y', 'R', 'lambda'],
    plot: { x: 'x', y: ['y'], aspect: 'equal' },
    load: loadSolve,
  },
  {
    name: 'unicycle-parking',
    kind: 'problem',
    package: '@geomech/groupoid',
    description:
      'Unicycle parking on SE(2): body velocity (v, w, ω) as control, no lateral slip w = 0, |v| ≤ vmax, minimizing ∫ ½(v² + ω²) (issue 19).',
    methods: ['interior-point'],
    params: [
      stepsParam(60, 'h = T/n'),
      horizonParam(1),
      { name: 'vmax', default: 1.6, description: 'speed bound |v| ≤ vmax' },
    ],
    choices: [
      {
        name: 'heading',
        default: 'fixed',
        choices: ['fixed', 'free'],
        description: 'end heading imposed, or free (end position only)',
      },
    ],
    boundary: poseBoundary('x,y,theta', [0, 0, 0], [1, 1, Math.PI / 2], ['start pose', 'end pose']),
    fields: ['x', 'y', 'theta', 'xi', 'slipMultiplier', 'multipliers'],
    plot: { x: 'x', y: ['y'], aspect: 'equal' },
    load: loadSolve,
  },
  {
    name: 'satellite',
    kind: 'problem',
    package: '@geomech/groupoid',
    description:
      'Satellite rest-to-rest attitude maneuver on SO(3) × R³ (attitude, body momentum), torques |u_i| ≤ umax, minimizing ∫ ½|u|² (forced rigid-body step; issue 19).',
    methods: ['interior-point'],
    params: [
      stepsParam(60, 'h = T/n'),
      horizonParam(4.4, 'horizon (the default end needs T ≥ 4.243)'),
      { name: 'umax', default: 1, description: 'torque bound per axis' },
      ...inertiaParams('J', [1, 2, 3]),
    ],
    choices: [],
    boundary: [
      {
        name: 'end',
        default: [0, 0, 1.5],
        description: 'ax,ay,az: target attitude as a rotation vector (start: identity, at rest)',
      },
    ],
    fields: ['R', 'Pi', 'u', 'multipliers'],
    plot: { y: ['u'] },
    load: loadSolve,
  },
  {
    name: 'quadrotor-flight',
    kind: 'problem',
    package: '@geomech/groupoid',
    description:
      'Quadrotor from hover at a pose to hover at a target pose in time T on SO(3) × R³ (the forced LGVI step as constraints), thrust 0 ≤ f ≤ fmax, torques |τ_i| ≤ taumax, minimizing ∫ |u − u_hover|² (issue 19).',
    methods: ['interior-point'],
    params: [
      stepsParam(40, 'h = T/n'),
      horizonParam(2),
      { name: 'm', default: 1.5, description: 'mass' },
      ...inertiaParams('I', [0.02, 0.02, 0.04]),
      { name: 'g', default: 9.81, description: 'gravity (along −e₃)' },
      { name: 'fmax', default: 29.43, description: 'thrust bound 0 ≤ f ≤ fmax (> m g)' },
      { name: 'taumax', default: 1.5, description: 'torque bound per axis' },
    ],
    choices: [],
    boundary: poseBoundary(
      'x,y,z,yaw',
      [0, 0, 1, 0],
      [2, 0, 2, Math.PI / 2],
      ['start hover pose', 'target hover pose'],
    ),
    fields: ['R', 'x', 'Pi', 'v', 'u', 'multipliers'],
    plot: { y: ['x'] },
    load: loadSolve,
  },
];

/** Looks a problem up by name. */
export function findProblem(name: string): ProblemDescriptor | undefined {
  return problems.find((p) => p.name === name);
}
