/**
 * A member's claims (reference §6.9, §6.10): `<template>-<set>-<ordinal>`, created from the claim
 * template before the pod (labels: the template's overlaid with the selector's matchLabels), never
 * resized or reconciled once they exist, never deleted by the controller itself. Their owner
 * references carry `persistentVolumeClaimRetentionPolicy`, so the garbage collector removes what
 * the policy says and nothing else:
 *
 * | whenScaled | whenDeleted | claims of an in-range pod | claims of a condemned pod |
 * |---|---|---|---|
 * | Retain | Retain | no reference | no reference |
 * | Retain | Delete | the set | the set |
 * | Delete | Retain | no reference | the pod |
 * | Delete | Delete | the set | the pod only |
 */
import type { KubeObject, OwnerReference } from '../../api/meta.ts';
import { objectField } from '../../core/json.ts';
import { controllerOf, podName, setOwnerReference } from './members.ts';
import { claimName } from './pods.ts';
import type { SetSpec } from './spec.ts';

export function podOwnerReference(pod: KubeObject): OwnerReference {
  return { apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
}

/** The references the policy wants on a claim of this member (the pod may not exist yet). */
function wantedReferences(set: KubeObject, spec: SetSpec, pod: KubeObject | undefined, condemned: boolean): OwnerReference[] {
  if (condemned && spec.whenScaled === 'Delete') return pod === undefined ? [] : [podOwnerReference(pod)];
  return spec.whenDeleted === 'Delete' ? [setOwnerReference(set)] : [];
}

/** A new claim for `ordinal` from its template, owned as the policy says. */
export function newClaim(set: KubeObject, spec: SetSpec, template: KubeObject, ordinal: number): KubeObject {
  const labels = { ...(template.metadata?.labels ?? {}), ...spec.matchLabels };
  const refs = wantedReferences(set, spec, undefined, false);
  const { status: _status, ...rest } = template;
  return {
    ...rest,
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      ...(template.metadata?.annotations === undefined ? {} : { annotations: { ...template.metadata.annotations } }),
      name: claimName(template, spec.name, ordinal),
      namespace: spec.namespace,
      labels,
      ...(refs.length === 0 ? {} : { ownerReferences: refs }),
    },
    spec: objectField(template, 'spec'),
  };
}

export type ClaimOwnership =
  | { readonly type: 'current' }
  /** Another controller owns it: our references go, none are added. */
  | { readonly type: 'conflict'; readonly claim: KubeObject }
  /** It names this set or this pod with a stale uid: left alone (the garbage collector will act). */
  | { readonly type: 'stale' }
  | { readonly type: 'update'; readonly claim: KubeObject };

/** What to do about an existing claim's owner references for this member. */
export function claimOwnership(set: KubeObject, spec: SetSpec, claim: KubeObject, pod: KubeObject | undefined, ordinal: number, condemned: boolean): ClaimOwnership {
  const refs = claim.metadata.ownerReferences ?? [];
  const member = podName(spec.name, ordinal);
  const ours = (r: OwnerReference): boolean => (r.kind === 'StatefulSet' && r.name === spec.name) || (r.kind === 'Pod' && r.name === member);
  // A reference to the member pod when there is none (it is gone), or to another one of its name.
  const stale = refs.some((r) => ours(r) && (r.kind === 'Pod' ? pod === undefined || r.uid !== pod.metadata.uid : r.uid !== spec.uid));
  if (stale) return { type: 'stale' };
  const others = refs.filter((r) => !ours(r));
  const controller = controllerOf(claim);
  const foreign = controller !== undefined && !ours(controller);
  const retainAll = spec.whenDeleted === 'Retain' && spec.whenScaled === 'Retain';
  const wanted = foreign && !retainAll ? [] : wantedReferences(set, spec, pod, condemned);
  const next = [...others, ...wanted];
  if (JSON.stringify(next) === JSON.stringify(refs)) return { type: 'current' };
  const meta = { ...claim.metadata };
  if (next.length === 0) delete meta.ownerReferences;
  else meta.ownerReferences = next;
  const updated = { ...claim, metadata: meta };
  return foreign && !retainAll ? { type: 'conflict', claim: updated } : { type: 'update', claim: updated };
}
