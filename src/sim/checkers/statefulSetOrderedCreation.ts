/**
 * OrderedReady scale-up: when the StatefulSet controller creates the pod of ordinal `o`, every
 * lower in-range ordinal (`start ≤ i < o`) has a pod the set controls that is Running, Ready for
 * at least minReadySeconds and not terminating — in the world as it was at that write, within
 * the settle (reference/statefulset.md §6.4 step 8, §8). Checked at the creation only: a lower
 * pod may fail, be deleted or turn unready later, and that does not undo an ordered creation.
 */
import { creationChecker, healthWords, isAvailable, podName, pods } from './statefulSetWrites.ts';

export const statefulSetOrderedCreation = creationChecker('statefulset-ordered-creation', (pod, set, ordinal, state, now) => {
  const problems: string[] = [];
  if (set.parallel || ordinal === null) return problems;
  for (let i = set.start; i < ordinal; i++) {
    const lower = state.get(pods, set.namespace, podName(set, i));
    const ours = lower !== undefined && state.controllingSet(lower)?.metadata.uid === set.uid;
    if (ours && isAvailable(lower, set.minReadySeconds, now)) continue;
    problems.push(`${set.namespace}/${pod.metadata.name ?? ''} was created while ${podName(set, i)} was ${ours ? healthWords(lower) : lower === undefined ? 'missing' : "not the set's"}`);
  }
  return problems;
});
