/**
 * How fast one set's pods are written: at most `limits.statefulSetPodWritesPerSecondMax` pod
 * creations and deletions per set in each virtual second (whole seconds of the clock, the
 * resolution of `creationTimestamp`), however many syncs share the second, so a sync never writes
 * more; a set with more to do gets its next batch when the next second starts. Kubernetes is paced
 * by its API client instead (20 requests a second, bursts of 30) and by the slow-start batches of
 * a Parallel sync; without a bound here a set of 2^31 − 1 replicas would be created within the one
 * request that made it, and that request would never answer.
 *
 * The writes are remembered (`world.controllers["statefulset-controller"]`): by set uid, the
 * second, the pods created and deleted in it, and whether the last sync had more to write than
 * the budget. A set appears there only for a second it wrote pods or ran out of budget in, until
 * the controller runs in a later one. Besides, sync.ts counts the members created in the second
 * from their `creationTimestamp`, which holds even when a fault kept the memory from being written.
 */
import type { Instant } from '../../core/duration.ts';
import { getOwn, isObject } from '../../core/json.ts';
import { limits } from '../../core/limits.ts';
import type { World } from '../../store/world.ts';

const secondMs = 1000;

/** One set's writes in the current second. */
export interface SetPace {
  /** The second's first instant. */
  readonly second: Instant;
  /** Pods the controller created or deleted in that second. */
  readonly writes: number;
  /** The last sync had more pod writes to make than it was allowed: wake when the second ends. */
  readonly more: boolean;
}

/** By set uid. */
export type Pacing = ReadonlyMap<string, SetPace>;

export function secondOf(now: Instant): Instant {
  return Math.floor(now / secondMs) * secondMs;
}

export function pacingOf(world: World, controller: string): Pacing {
  const memory = getOwn(world.controllers, controller);
  const sets = isObject(memory) ? memory['sets'] : undefined;
  const out = new Map<string, SetPace>();
  if (!isObject(sets)) return out;
  // A memory is plain JSON a saved world may carry: anything not of this shape is ignored.
  for (const [uid, v] of Object.entries(sets)) {
    if (!isObject(v) || typeof v['second'] !== 'number' || typeof v['writes'] !== 'number') continue;
    out.set(uid, { second: v['second'], writes: v['writes'], more: v['more'] === true });
  }
  return out;
}

/** The set's pace in the second of `now`, if it wrote in it. */
export function paceNow(pacing: Pacing, uid: string, now: Instant): SetPace | undefined {
  const pace = pacing.get(uid);
  return pace !== undefined && pace.second === secondOf(now) ? pace : undefined;
}

/**
 * The pod writes left to the set in this second: the limit less what it wrote in it, or less the
 * members created in it (`created`) when they are more — pods users made, or a memory not written.
 */
export function budgetOf(pace: SetPace | undefined, created: number): number {
  return Math.max(0, limits.statefulSetPodWritesPerSecondMax - Math.max(pace?.writes ?? 0, created));
}

export function samePacing(a: Pacing, b: Pacing): boolean {
  if (a.size !== b.size) return false;
  for (const [uid, p] of a) {
    const q = b.get(uid);
    if (q === undefined || q.second !== p.second || q.writes !== p.writes || q.more !== p.more) return false;
  }
  return true;
}

export function memoryOf(pacing: Pacing): Record<string, unknown> {
  if (pacing.size === 0) return {};
  return { sets: Object.fromEntries([...pacing].map(([uid, p]) => [uid, p.more ? { second: p.second, writes: p.writes, more: true } : { second: p.second, writes: p.writes }])) };
}

/** When the next batch of a set that ran out of budget is due, or null. */
export function nextBatchAt(pacing: Pacing, now: Instant): Instant | null {
  let next: Instant | null = null;
  for (const p of pacing.values()) {
    const due = p.second + secondMs;
    if (p.more && due > now && (next === null || due < next)) next = due;
  }
  return next;
}
