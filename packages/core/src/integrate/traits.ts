/**
 * Method traits: the one description of an integration method used by every package (STYLE.md,
 * "Problems, methods, integrators, solutions", after GeometricIntegrators.jl). A method is a small
 * frozen value; an unknown trait is `undefined`, never a guess. Its `name` is the name the CLI
 * uses (`'dirac-2c'`, `'midpoint'`, `'rk4'`), so API and command line agree.
 *
 * @module
 */
import { DomainError } from '../errors.js';

/** Traits of an integration method. */
export interface MethodTraits {
  /** The method's name, as the CLI spells it: lower case, words joined by `-` (`'dirac-2c'`). */
  readonly name: string;
  /** A one-line description for listings. */
  readonly description?: string;
  /** Classical order of the propagated solution; `undefined` when not known. */
  readonly order: number | undefined;
  /** Order of the embedded error estimator, for embedded pairs (DOPRI5: 4). */
  readonly embeddedOrder?: number;
  /** True when a step needs no nonlinear solve. */
  readonly isExplicit: boolean | undefined;
  /** True when the discrete flow preserves the (pre)symplectic / Poisson / contact structure. */
  readonly isSymplectic: boolean | undefined;
  /** True when the method is time-reversible (symmetric, adjoint to itself). */
  readonly isSymmetric: boolean | undefined;
  /** True when the method derives from a discrete variational principle. */
  readonly isVariational: boolean | undefined;
  /** Number of previous states a step reads (1 for one-step methods, 2 for Dirac-2, ...). */
  readonly stepsUsed: number;
}

/** Method names: lower-case words and digits joined by single hyphens. */
const METHOD_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * Builds a frozen {@link MethodTraits}; traits not given are `undefined` (unknown), `stepsUsed`
 * defaults to 1.
 *
 * @throws {@link DomainError} for a name that is not lower-case words joined by `-`, or a
 *   non-positive order.
 * @example
 * ```ts
 * const m = methodTraits({ name: 'dirac-2c', order: 2, isExplicit: false, stepsUsed: 2 });
 * m.isSymplectic; // undefined (not claimed)
 * Object.isFrozen(m); // true
 * ```
 */
export function methodTraits(
  traits: Partial<Omit<MethodTraits, 'name'>> & { readonly name: string },
): MethodTraits {
  if (!METHOD_NAME.test(traits.name)) {
    throw new DomainError(
      'methodTraits: name',
      traits.name,
      'must be lower-case words joined by "-" (the CLI spelling)',
    );
  }
  if (traits.order !== undefined && !(Number.isInteger(traits.order) && traits.order >= 1)) {
    throw new DomainError('methodTraits: order', traits.order, 'must be a positive integer');
  }
  const stepsUsed = traits.stepsUsed ?? 1;
  if (!Number.isInteger(stepsUsed) || stepsUsed < 1) {
    throw new DomainError('methodTraits: stepsUsed', stepsUsed, 'must be a positive integer');
  }
  const out: MethodTraits = {
    name: traits.name,
    order: traits.order,
    isExplicit: traits.isExplicit,
    isSymplectic: traits.isSymplectic,
    isSymmetric: traits.isSymmetric,
    isVariational: traits.isVariational,
    stepsUsed,
    ...(traits.description === undefined ? {} : { description: traits.description }),
    ...(traits.embeddedOrder === undefined ? {} : { embeddedOrder: traits.embeddedOrder }),
  };
  return Object.freeze(out);
}
