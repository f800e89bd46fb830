/**
 * A StatefulSet's pods are one per ordinal and say so: a pod the controller creates is named
 * `<set>-<ordinal>` for an ordinal in `[start, start + replicas)` of the set at that write, with
 * the pod-name label equal to its name and the pod-index label equal to its ordinal — so no two
 * pods of a set claim one ordinal (names are unique). Labels clients write later are theirs to
 * get wrong: the controller repairs them once the pod is available, which is not an invariant of
 * every instant.
 */
import type { KubeObject } from '../../api/meta.ts';
import type { Names } from '../../api/names.ts';
import type { Checker } from './types.ts';
import { forEachCreatedMember, inRange, namesOf, pods, stepTouches } from './statefulSetWrites.ts';
import { getOwn } from '../../core/json.ts';

function labelProblems(names: Names, pod: KubeObject, ordinal: number): string[] {
  const labels = pod.metadata.labels ?? {};
  const name = pod.metadata.name ?? '';
  const out: string[] = [];
  for (const [label, want] of [[names.podNameLabel, name], [names.podIndexLabel, String(ordinal)]] as const) {
    const got = getOwn(labels, label);
    if (got !== want) out.push(`${pod.metadata.namespace ?? ''}/${name} has ${label}=${got ?? '(none)'}, not ${want}`);
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
      else problems.push(...labelProblems(names, pod, ordinal));
    });
    return [...new Set(problems)];
  },
};
