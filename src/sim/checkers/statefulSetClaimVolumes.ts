/**
 * Claims before pods (reference/statefulset.md §6.7, §6.9): a pod the StatefulSet controller
 * creates has, for every volumeClaimTemplate `t` of its set, a volume named `t` whose claim is
 * `<t>-<set>-<ordinal>`, and that claim exists and is not being deleted at the write. A live
 * pod's volumes never change, so the pod keeps pointing at its claims for life.
 */
import { isObject, objectField } from '../../core/json.ts';
import { claims, creationChecker } from './statefulSetWrites.ts';

export const statefulSetClaimVolumes = creationChecker('statefulset-claim-volumes', (pod, set, ordinal, state) => {
  const problems: string[] = [];
  if (ordinal === null) return problems;
  const volumes = objectField(pod, 'spec')['volumes'];
  const list = Array.isArray(volumes) ? volumes.filter(isObject) : [];
  const name = `${set.namespace}/${pod.metadata.name ?? ''}`;
  for (const t of set.claimTemplates) {
    const want = `${t}-${set.name}-${ordinal}`;
    const v = list.find((x) => x['name'] === t);
    const got = v === undefined ? undefined : objectField(v, 'persistentVolumeClaim')['claimName'];
    if (got !== want) problems.push(`${name} was created with volume ${t} on claim ${String(got ?? '(none)')}, not ${want}`);
    const claim = state.get(claims, set.namespace, want);
    if (claim === undefined || claim.metadata.deletionTimestamp !== undefined) problems.push(`${name} was created while its claim ${want} was ${claim === undefined ? 'missing' : 'being deleted'}`);
  }
  return problems;
});
