/**
 * The rolling update stays within maxUnavailable (reference/statefulset.md §6.5b): the
 * StatefulSet controller deletes an in-range pod that has not failed only under RollingUpdate,
 * at an index (`ordinal - start`) at or above the partition, and only while fewer than
 * maxUnavailable (scaled: percentages of replicas rounded down, at least 1) in-range ordinals
 * are unavailable — missing, terminating, not Running and Ready, or Ready for less than
 * minReadySeconds — counting, within one sync, the deletions it already made there: a sync's
 * update deletions number at most maxUnavailable minus what was unavailable before the first.
 * Pods that become unavailable by themselves, or that users delete, spend the budget but are
 * never held against it. A sync's deletions are the controller's pod deletions of one set that
 * follow each other with only their events in between.
 */
import type { KubeObject } from '../../api/meta.ts';
import type { Instant } from '../../core/duration.ts';
import type { Checker } from './types.ts';
import { deletedByController, deletionStarts, inRange, isAvailable, isFailed, ordinalOf, podName, pods, type Replay, replayStep, setView, type SetView, stepTouches } from './statefulSetWrites.ts';

const events = 'core/events';

/** Above this many replicas the set's pods are found by listing the namespace rather than by name. */
const ordinalsWalkedMax = 1024;

function unavailableInRange(state: Replay, set: SetView, now: Instant): number {
  const counts = (pod: KubeObject | undefined): boolean => pod !== undefined && state.controllingSet(pod)?.metadata.uid === set.uid && isAvailable(pod, set.minReadySeconds, now);
  let available = 0;
  if (set.replicas <= ordinalsWalkedMax) {
    for (let o = set.start; o < set.start + set.replicas; o++) if (counts(state.get(pods, set.namespace, podName(set, o)))) available++;
  } else {
    // A set of 2^31 − 1 replicas has far fewer pods: count those, not the ordinals.
    for (const pod of state.list(pods, set.namespace)) {
      const ordinal = ordinalOf(set.name, pod.metadata.name ?? '');
      if (ordinal !== null && inRange(set, ordinal) && counts(pod)) available++;
    }
  }
  return set.replicas - available;
}

export const statefulSetUpdateBudget: Checker = {
  name: 'statefulset-update-budget',
  check(before, after) {
    const problems: string[] = [];
    if (before === null || !stepTouches(before, after, pods)) return problems;
    let run: { uid: string; unavailable: number; deleted: number } | null = null;
    replayStep(before, after, (entry, index, entries, state) => {
      if (entry.resource === events) return;
      const old: KubeObject | undefined = entry.resource === pods ? state.get(pods, entry.namespace, entry.name) : undefined;
      const setObject = old === undefined || !deletionStarts(entry, old) ? undefined : state.controllingSet(old);
      const ordinal = setObject === undefined ? null : ordinalOf(setObject.metadata.name ?? '', entry.name);
      if (setObject === undefined || ordinal === null || isFailed(old!) || !inRange(setView(setObject), ordinal) || !deletedByController(entries, index, setObject, entry.name)) {
        run = null;
        return;
      }
      const set = setView(setObject);
      const name = `${set.namespace}/${entry.name}`;
      if (set.onDelete) problems.push(`${name} was deleted by the controller under OnDelete, though it had not failed`);
      else if (ordinal - set.start < set.partition) problems.push(`${name} was deleted for update below the partition ${set.partition}`);
      if (run === null || run.uid !== set.uid) run = { uid: set.uid, unavailable: unavailableInRange(state, set, after.now), deleted: 0 };
      if (run.unavailable + run.deleted >= set.maxUnavailable) {
        problems.push(`${name} was deleted for update with ${run.unavailable} in-range pods unavailable before the sync and ${run.deleted} deleted in it; maxUnavailable is ${set.maxUnavailable}`);
      }
      run.deleted++;
    });
    return problems;
  },
};
