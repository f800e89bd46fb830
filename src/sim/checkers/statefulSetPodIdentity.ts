/**
 * A StatefulSet's pods are one per ordinal and say so: a pod the controller creates is named
 * `<set>-<ordinal>` for an ordinal in `[start, start + replicas)` of the set at that write, with
 * the pod-name label equal to its name and the pod-index label equal to its ordinal; and every
 * pod a set controls that a step wrote has identity labels that, where present, agree with its
 * name — so no two pods of a set claim one ordinal (names are unique). A label can be missing
 * (a client removed it; the controller restores it once the pod is available), never wrong
 * unless a client wrote it so.
 */
import type { KubeObject } from '../../api/meta.ts';
import type { Names } from '../../api/names.ts';
import type { Checker } from './types.ts';
import { forEachCreatedMember, inRange, namesOf, ordinalOf, pods, Replay, replayStep, stepTouches } from './statefulSetWrites.ts';

function labelProblems(names: Names, pod: KubeObject, ordinal: number, required: boolean): string[] {
  const labels = pod.metadata.labels ?? {};
  const name = pod.metadata.name ?? '';
  const out: string[] = [];
  for (const [label, want] of [[names.podNameLabel, name], [names.podIndexLabel, String(ordinal)]] as const) {
    const got = labels[label];
    if (got === undefined ? required : got !== want) out.push(`${pod.metadata.namespace ?? ''}/${name} has ${label}=${got ?? '(none)'}, not ${want}`);
  }
  return out;
}

export const statefulSetPodIdentity: Checker = {
  name: 'statefulset-pod-identity',
  check(before, after) {
    const problems: string[] = [];
    if (before === null || !stepTouches(before, after, pods)) return problems;
    const names = namesOf(after);
    forEachCreatedMember(before, after, (pod, set, ordinal) => {
      if (ordinal === null || !inRange(set, ordinal)) problems.push(`${set.namespace}/${pod.metadata.name ?? ''} was created for ${set.name}, whose ordinals are [${set.start}, ${set.start + set.replicas})`);
      else problems.push(...labelProblems(names, pod, ordinal, true));
    });
    // Every member written in the step, as it stands at the end of the instant.
    const written = new Set<string>();
    replayStep(before, after, (entry) => {
      if (entry.resource === pods && entry.type !== 'DELETED') written.add(`${entry.namespace}/${entry.name}`);
    });
    const end = new Replay(after);
    for (const key of written) {
      const [namespace = '', name = ''] = key.split('/');
      const pod = end.get(pods, namespace, name);
      if (pod === undefined) continue;
      const set = end.controllingSet(pod);
      if (set === undefined) continue;
      const ordinal = ordinalOf(set.metadata.name ?? '', name);
      // A set releases pods whose names are not its own at its next sync.
      if (ordinal !== null) problems.push(...labelProblems(names, pod, ordinal, false));
    }
    return [...new Set(problems)];
  },
};
