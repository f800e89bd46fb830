/**
 * A fresh simulation per test, or per run of a property, closed after it (open watches ended).
 * `withSimulation(options)` gives three shapes of the same thing, none importing vitest:
 *
 * - `fixture`, for `test.extend({ sim: s.fixture })`: the test gets `{ sim }`;
 * - `prop(fn)`, for `@fast-check/vitest`'s `test.prop([...])(name, s.prop((sim, ...values) => …))`:
 *   `test.prop` hands a property only the drawn values (no test context, and an extended test's
 *   fixtures are made once per test, not per run), so the wrapper makes the simulation per run;
 * - `use(fn)`, a plain `await s.use(async (sim) => …)`.
 *
 * Simulations start with `checkInvariants: true` (the checkers run after every step, as the
 * project's own tests do) unless the options say otherwise.
 */
import { createSimulation } from '../edges/simulation/create.ts';
import type { Simulation } from '../edges/simulation/simulation.ts';
import type { SimulationOptions } from '../sim/options.ts';

export interface SimulationFixture {
  /** The options every simulation is made with. */
  readonly options: SimulationOptions;
  /** Runs `fn` with a fresh simulation (`overrides` merged into the options), closing it after. */
  use<R>(fn: (sim: Simulation) => R | PromiseLike<R>, overrides?: SimulationOptions): Promise<Awaited<R>>;
  /** A property for `test.prop` / `fc.asyncProperty`: a fresh simulation per run, then the drawn values. */
  prop<A extends unknown[], R>(fn: (sim: Simulation, ...values: A) => R | PromiseLike<R>): (...values: A) => Promise<Awaited<R>>;
  /**
   * A vitest fixture function: `test.extend<{ sim: Simulation }>({ sim: s.fixture })`. vitest reads
   * the fixture's source to find the fixtures it depends on, so its first parameter is an empty
   * object pattern, as vitest requires.
   */
  readonly fixture: (context: object, use: (sim: Simulation) => Promise<void>) => Promise<void>;
}

export function withSimulation(options: SimulationOptions = {}): SimulationFixture {
  const base: SimulationOptions = { checkInvariants: true, ...options };
  const use = async <R>(fn: (sim: Simulation) => R | PromiseLike<R>, overrides: SimulationOptions = {}): Promise<Awaited<R>> => {
    const sim = await createSimulation({ ...base, ...overrides });
    try {
      return await fn(sim);
    } finally {
      sim.close();
    }
  };
  return {
    options: base,
    use,
    prop:
      <A extends unknown[], R>(fn: (sim: Simulation, ...values: A) => R | PromiseLike<R>) =>
      (...values: A) =>
        use((sim) => fn(sim, ...values)),
    // `{}`: vitest reads this parameter's source for the fixtures it needs (see above).
    fixture: async ({}: object, provide: (sim: Simulation) => Promise<void>): Promise<void> => {
      await use((sim) => provide(sim));
    },
  };
}
