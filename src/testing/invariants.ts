/**
 * Invariants for user tests: `checkInvariants(sim)` runs every checker of src/sim/checkers on the
 * simulation's current world, and `eventuallyStable(sim)` lives through virtual time until the
 * world stops changing. Both read the simulation only through its public surface (world, trace,
 * advance), and only virtual time passes: no wall clock, no timers.
 */
import { InvariantError } from '../core/assert.ts';
import { formatDuration, formatInstant, parseDuration, parseInstant } from '../core/duration.ts';
import { checkers } from '../sim/checkers/all.ts';
import type { Simulation } from '../edges/simulation/simulation.ts';
import { listObjects } from '../store/objects.ts';
import type { World } from '../store/world.ts';

/**
 * The world each simulation had at the previous `checkInvariants`, so the next call can also
 * check what moved in between (revisions and time only go forward, CSRs only take allowed steps).
 * A WeakMap: a simulation that is dropped is not kept alive by a test helper.
 */
const seen = new WeakMap<Simulation, World>();

/**
 * Checkers whose two-world comparison holds over any span of steps. The StatefulSet checkers
 * replay the writes of one instant (they assume every write between the two worlds happened at
 * `after.now`), so across several advances they would misjudge; they get the current world only.
 */
const spanSafe = new Set(['revisions-increase', 'time-moves-forward', 'store-keys-match', 'csr-decisions']);

export interface CheckInvariantsOptions {
  /**
   * The world to compare with: by default the one seen at this simulation's previous call
   * (none at the first). `null` checks the current world alone — use it after `replaceWorld`
   * with an older snapshot, which legitimately moves revisions and time back.
   */
  readonly since?: World | null;
}

/** Every broken invariant as `checker: problem`; empty when all hold. Records the world as seen. */
export function invariantProblems(sim: Simulation, options: CheckInvariantsOptions = {}): string[] {
  const after = sim.world;
  const before = options.since !== undefined ? options.since : (seen.get(sim) ?? null);
  seen.set(sim, after);
  const pair = before === after ? null : before;
  return checkers.flatMap((c) => c.check(pair !== null && spanSafe.has(c.name) ? pair : null, after).map((p) => `${c.name}: ${p}`));
}

/** Throws an InvariantError listing every broken invariant; returns when all hold. */
export function checkInvariants(sim: Simulation, options: CheckInvariantsOptions = {}): void {
  const problems = invariantProblems(sim, options);
  if (problems.length > 0) throw new InvariantError(`invariants broken at ${sim.now()} (seed ${sim.world.seed}):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
}

export interface StableOptions {
  /** Longest virtual time to wait (Go duration or ms). Default `10m`. */
  readonly within?: string | number;
  /** Virtual time per advance. Default `10s`. */
  readonly step?: string | number;
  /**
   * How long the world must go without a write to count as stable. Default `1m`, and at least
   * the node agent's `podReadyAfter` and every StatefulSet's `minReadySeconds` plus one step, so
   * a pod waiting to become ready or available is not mistaken for rest. (The simulation does not
   * expose its next timer, so quiet is observed; a longer timer needs a longer `quietFor`.)
   */
  readonly quietFor?: string | number;
}

export interface StableReport {
  /** Virtual time when the world was found stable. */
  readonly at: string;
  /** Virtual time waited in total. */
  readonly waited: string;
  readonly hash: string;
}

function millis(v: string | number, what: string): number {
  const ms = typeof v === 'number' ? v : parseDuration(v);
  if (ms === null || !Number.isFinite(ms) || ms < 0) throw new Error(`eventuallyStable: ${what} ${String(v)} is not a duration`);
  return ms;
}

/** The longest readiness delay the world knows of: the node agent's, or a StatefulSet's minReadySeconds. */
function longestDelay(world: World): number {
  const minReady = listObjects(world, 'apps/statefulsets', null).map((s) => Number((s as { spec?: { minReadySeconds?: unknown } }).spec?.minReadySeconds ?? 0) * 1000);
  return Math.max(world.config.podReadyAfterMs, ...minReady.filter(Number.isFinite));
}

/** Work items waiting on a backoff: the world will change again when they come due. */
function pendingRetries(world: World): string[] {
  return Object.entries(world.retries ?? {}).map(([key, r]) => `${key} (attempt ${r.attempts}, retried at ${formatInstant(r.notBefore)})`);
}

/**
 * Clears the fault rules, then advances virtual time step by step until no object has been
 * written for `quietFor` and no retry is pending, and checks the invariants. "Changed" means a
 * write (the world's revision moved), not `sim.hash()`: the hash digests the clock too, so it
 * changes with every advance. Throws naming the objects still being written (from the trace) when
 * `within` runs out first.
 */
export async function eventuallyStable(sim: Simulation, options: StableOptions = {}): Promise<StableReport> {
  const within = millis(options.within ?? '10m', 'within');
  const step = Math.max(1, millis(options.step ?? '10s', 'step'));
  sim.clearFaults();
  await sim.settle();
  const quietFor = options.quietFor !== undefined ? millis(options.quietFor, 'quietFor') : Math.max(60_000, longestDelay(sim.world) + step);
  const start = sim.world.now;
  const deadline = start + within;
  let revision = sim.world.revision;
  let lastWrite = start;
  // Bounded: one advance per step of the budget (tidy bans unbounded loops).
  const steps = Math.ceil(within / step) + 1;
  for (let i = 0; i <= steps; i++) {
    const w = sim.world;
    if (w.revision !== revision) [revision, lastWrite] = [w.revision, w.now];
    if (w.now - lastWrite >= quietFor && pendingRetries(w).length === 0) {
      checkInvariants(sim);
      return { at: sim.now(), waited: formatDuration(w.now - start), hash: sim.hash() };
    }
    if (w.now >= deadline) break;
    await sim.advance(Math.min(step, deadline - w.now));
  }
  throw new Error(stillChanging(sim, within, quietFor, Math.max(start, deadline - quietFor)));
}

/** The failure message: the objects written in the last quiet window, most written first. */
function stillChanging(sim: Simulation, within: number, quietFor: number, windowStart: number): string {
  const counts = new Map<string, { n: number; last: string }>();
  for (const e of sim.trace()) {
    if (e.type !== 'write' || (parseInstant(e.at) ?? 0) < windowStart) continue;
    const key = `${e.resource} ${e.namespace === '' ? '' : `${e.namespace}/`}${e.name}`;
    const c = counts.get(key) ?? { n: 0, last: '' };
    counts.set(key, { n: c.n + 1, last: `last ${e.change} by ${e.by} at ${e.at}${e.summary === undefined ? '' : ` (${e.summary})`}` });
  }
  const objects = [...counts.entries()].sort((a, b) => b[1].n - a[1].n || (a[0] < b[0] ? -1 : 1));
  const lines = objects.slice(0, 20).map(([k, c]) => `  - ${k}: ${c.n} write(s), ${c.last}`);
  if (objects.length > 20) lines.push(`  … and ${objects.length - 20} more`);
  for (const r of pendingRetries(sim.world)) lines.push(`  - retry pending: ${r}`);
  if (lines.length === 0) lines.push(`  (nothing written since ${formatInstant(windowStart)}: the budget ran out before ${formatDuration(quietFor)} of quiet)`);
  return `the world did not become stable within ${formatDuration(within)} of virtual time (no write for ${formatDuration(quietFor)} and no retry pending); now ${sim.now()}, still changing:\n${lines.join('\n')}`;
}
