/**
 * Which pods belong to a set (reference §6.2): a pod is a member when it matches `spec.selector`
 * and its name is `<set name>-<ordinal>`. Members owned by the set are claimed; orphan members are
 * adopted (the set becomes their controller owner) unless they or the set are being deleted;
 * pods the set owns that are no longer members are released. Pods of another controller are left
 * alone.
 */
import type { KubeObject, OwnerReference } from '../../api/meta.ts';
import { matchesLabels } from '../../registry/selectors/matchesLabels.ts';
import { listObjects } from '../../store/objects.ts';
import type { World } from '../../store/world.ts';
import type { SetSpec } from './spec.ts';

const int32Max = 2_147_483_647;

/** The ordinal in `<set name>-<ordinal>`, or null when the name is not of that shape. */
export function ordinalOf(setName: string, podName: string): number | null {
  const dash = podName.lastIndexOf('-');
  if (dash < 0 || podName.slice(0, dash) !== setName) return null;
  const tail = podName.slice(dash + 1);
  if (!/^[0-9]+$/.test(tail)) return null;
  const n = Number(tail);
  return n <= int32Max ? n : null;
}

export function podName(setName: string, ordinal: number): string {
  return `${setName}-${ordinal}`;
}

/** The controller owner reference a set puts on what it owns. */
export function setOwnerReference(set: KubeObject): OwnerReference {
  return { apiVersion: 'apps/v1', kind: 'StatefulSet', name: set.metadata.name ?? '', uid: set.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
}

export function controllerOf(obj: KubeObject): OwnerReference | undefined {
  return (obj.metadata.ownerReferences ?? []).find((r) => r.controller === true);
}

function withoutOwner(obj: KubeObject, uid: string): KubeObject {
  const meta = { ...obj.metadata };
  const rest = (meta.ownerReferences ?? []).filter((r) => r.uid !== uid);
  if (rest.length === 0) delete meta.ownerReferences;
  else meta.ownerReferences = rest;
  return { ...obj, metadata: meta };
}

interface PodMembership {
  readonly owner: OwnerReference | undefined;
  readonly ordinal: number | null;
  readonly member: boolean;
}

/** By stored pod, for the spec it was worked out against (both immutable once stored). */
const memberships = new WeakMap<KubeObject, { readonly spec: SetSpec; readonly m: PodMembership }>();

function membership(pod: KubeObject, spec: SetSpec): PodMembership {
  const known = memberships.get(pod);
  if (known !== undefined && known.spec === spec) return known.m;
  const ordinal = ordinalOf(spec.name, pod.metadata.name ?? '');
  const m = { owner: controllerOf(pod), ordinal, member: ordinal !== null && spec.selector !== null && matchesLabels(spec.selector, pod.metadata.labels) };
  memberships.set(pod, { spec, m });
  return m;
}

export interface Membership {
  /** Members by ordinal: claimed, adopted in this sync included. */
  readonly pods: ReadonlyMap<number, KubeObject>;
  /** Orphan members to adopt: the pods as they will be written. */
  readonly adopt: readonly KubeObject[];
  /** Owned pods that stopped being members: the pods as they will be written. */
  readonly release: readonly KubeObject[];
}

export function membersOf(world: World, set: KubeObject, spec: SetSpec): Membership {
  const pods = new Map<number, KubeObject>();
  const adopt: KubeObject[] = [];
  const release: KubeObject[] = [];
  for (const pod of listObjects(world, 'core/pods', spec.namespace)) {
    const { owner, ordinal, member } = membership(pod, spec);
    if (owner !== undefined && owner.uid !== spec.uid) continue;
    if (owner !== undefined) {
      if (member) pods.set(ordinal!, pod);
      else release.push(withoutOwner(pod, spec.uid));
      continue;
    }
    if (!member || spec.deleting || pod.metadata.deletionTimestamp !== undefined) continue;
    const adopted: KubeObject = { ...pod, metadata: { ...pod.metadata, ownerReferences: [...(pod.metadata.ownerReferences ?? []), setOwnerReference(set)] } };
    adopt.push(adopted);
    pods.set(ordinal!, adopted);
  }
  return { pods, adopt, release };
}
