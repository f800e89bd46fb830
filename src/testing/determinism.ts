/**
 * Replay checks: the contract promises that the same options and the same inputs in the same
 * order give byte-identical worlds and traces. `checkReplay` runs a scenario function twice, each
 * time on a fresh simulation, and fails on any difference of `sim.hash()` or of the trace, naming
 * the first differing trace event. `checkDeterminism` does that for every input a fast-check
 * arbitrary draws (the caller's `fc`, never imported here, as in arbitraries.ts), so fast-check
 * shrinks a nondeterministic run to a small input. Typical causes it finds: concurrent requests
 * whose order depends on promise timing (`Promise.all` over requests that need signatures),
 * wall-clock reads or `Math.random` in a custom controller, state kept between runs.
 */
import type * as FastCheck from 'fast-check';
import { createSimulation } from '../edges/simulation/create.ts';
import type { Simulation } from '../edges/simulation/simulation.ts';
import type { TraceEvent } from '../edges/simulation/trace.ts';
import type { SimulationOptions } from '../sim/options.ts';

/** The part of fast-check `checkDeterminism` uses. */
export type DeterminismFc = Pick<typeof FastCheck, 'assert' | 'asyncProperty'>;

export interface ReplayOptions {
  /** Options of both simulations (default: seed 1, `checkInvariants: true`). */
  readonly simulation?: SimulationOptions;
}

export interface DeterminismOptions<T> extends ReplayOptions {
  /**
   * fast-check parameters (`numRuns`, `seed`, `examples`, …). Defaults: `numRuns` 10, and
   * `includeErrorInReport` so the differing trace event shows in the failure's message itself.
   */
  readonly parameters?: FastCheck.Parameters<[T]>;
}

/** What one run left behind. */
export interface ReplayRun {
  readonly hash: string;
  readonly trace: readonly TraceEvent[];
}

async function runOnce<T>(options: SimulationOptions, property: (sim: Simulation, input: T) => unknown, input: T): Promise<ReplayRun> {
  const sim = await createSimulation(options);
  try {
    await property(sim, input);
    return { hash: sim.hash(), trace: sim.trace() };
  } finally {
    sim.close();
  }
}

/** The first difference of two runs as a sentence, or null when they are the same. */
export function firstDifference(a: ReplayRun, b: ReplayRun): string | null {
  const n = Math.max(a.trace.length, b.trace.length);
  for (let i = 0; i < n; i++) {
    const [x, y] = [JSON.stringify(a.trace[i] ?? null), JSON.stringify(b.trace[i] ?? null)];
    if (x !== y) return `trace event ${i + 1} of ${a.trace.length}/${b.trace.length} differs:\n  first run:  ${x}\n  second run: ${y}`;
  }
  // Same trace, different world: something outside the trace (controller state, rng streams).
  return a.hash === b.hash ? null : `the traces are equal but the world hashes differ: ${a.hash} vs ${b.hash}`;
}

/**
 * Runs `property` twice on fresh simulations with the same options and the same input; throws
 * when the two runs end in different worlds or traces. The input is handed to both runs, so the
 * property must not mutate it.
 */
export async function checkReplay<T = undefined>(property: (sim: Simulation, input: T) => unknown, input?: T, options: ReplayOptions = {}): Promise<void> {
  const simOptions: SimulationOptions = { seed: 1, checkInvariants: true, ...options.simulation };
  const first = await runOnce(simOptions, property, input as T);
  const second = await runOnce(simOptions, property, input as T);
  const diff = firstDifference(first, second);
  if (diff !== null) throw new Error(`not deterministic (seed ${String(simOptions.seed)}): ${diff}`);
}

/** For every input `arbitrary` draws, `checkReplay` the property: fails with the shrunk input. */
export async function checkDeterminism<T>(fc: DeterminismFc, arbitrary: FastCheck.Arbitrary<T>, property: (sim: Simulation, input: T) => unknown, options: DeterminismOptions<T> = {}): Promise<void> {
  await fc.assert(
    fc.asyncProperty(arbitrary, (input) => checkReplay(property, input, options)),
    { numRuns: 10, includeErrorInReport: true, ...options.parameters },
  );
}
