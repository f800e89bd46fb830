/**
 * A StatefulSet member's `controller-revision-hash` names a ControllerRevision that exists: a pod
 * the controller creates carries the name of a revision stored at that write; and no revision
 * is deleted, while the set controlling it exists and is not being deleted, as long as a pod
 * that set controls still carries its name (pruning keeps every live revision, §5). Once the set
 * goes, the garbage collector takes revisions and pods in any order.
 */
import type { Checker } from './types.ts';
import { pods, replayStep, revisionLabel, revisions, stepTouches } from './statefulSetWrites.ts';

export const statefulSetPodRevisions: Checker = {
  name: 'statefulset-pod-revisions',
  check(before, after) {
    const problems: string[] = [];
    if (before === null || !(stepTouches(before, after, pods) || stepTouches(before, after, revisions))) return problems;
    replayStep(before, after, (entry, _i, _all, state) => {
      const namespace = entry.namespace;
      if (entry.resource === pods && entry.type === 'ADDED') {
        if (state.controllingSet(entry.object) === undefined) return;
        const revision = entry.object.metadata.labels?.[revisionLabel];
        if (revision === undefined || state.get(revisions, namespace, revision) === undefined) problems.push(`${namespace}/${entry.name} was created with revision ${revision ?? '(none)'}, which is not stored`);
        return;
      }
      if (entry.resource !== revisions || entry.type !== 'DELETED') return;
      const old = state.get(revisions, namespace, entry.name);
      const set = old === undefined ? undefined : state.controllingSet(old);
      if (set === undefined || set.metadata.deletionTimestamp !== undefined) return;
      const carriers = state.list(pods, namespace).filter((p) => p.metadata.labels?.[revisionLabel] === entry.name && state.controllingSet(p) === set);
      if (carriers.length > 0) problems.push(`revision ${namespace}/${entry.name} of ${set.metadata.name ?? ''} was deleted while ${carriers.map((p) => p.metadata.name ?? '').join(', ')} carried it`);
    });
    return problems;
  },
};
