/**
 * Pins fast-check's seed so that CI runs are reproducible; set FC_SEED to explore other seeds.
 * A failing property prints its seed and path; replay with FC_SEED=<seed> npx vitest run <file>.
 */
import fc from 'fast-check';

const seed = process.env['FC_SEED'] === undefined ? 20261124 : Number(process.env['FC_SEED']);
fc.configureGlobal({ seed });
