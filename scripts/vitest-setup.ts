import fc from 'fast-check';

// Property tests run with a fixed seed so that CI is deterministic (same input, same output);
// set FC_SEED to another integer, or FC_SEED=random, to explore other samples locally.
const seed = process.env.FC_SEED;
if (seed !== 'random') fc.configureGlobal({ seed: seed === undefined ? 20261122 : Number(seed) });
