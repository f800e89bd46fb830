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
import { emptyTrie, trieChanges, trieGet, type Trie } from '../../store/trie.ts';
import { isObject, objectField } from '../../core/json.ts';
import { assert } from '../../core/assert.ts';
import type { Names } from '../../api/names.ts';
import { MemberSummary } from './memberSummary.ts';
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
  /** The members summed up, when kept (nothing to adopt or release); read it at once, never keep it. */
  readonly summary?: MemberSummary;
}

/** The members of a set found by listing every pod of its namespace: the definition. */
function listMembers(world: World, set: KubeObject, spec: SetSpec): Membership {
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

/**
 * What one pod is to a set: a member it owns (at its ordinal), nothing to it, or something that
 * makes it act (a pod to adopt or release).
 */
function roleOf(pod: KubeObject, spec: SetSpec): { readonly role: 'member'; readonly ordinal: number } | { readonly role: 'none' | 'acted on' } {
  const { owner, ordinal, member } = membership(pod, spec);
  if (owner !== undefined && owner.uid !== spec.uid) return { role: 'none' };
  if (owner !== undefined) return member ? { role: 'member', ordinal: ordinal! } : { role: 'acted on' };
  return !member || spec.deleting || pod.metadata.deletionTimestamp !== undefined ? { role: 'none' } : { role: 'acted on' };
}

/** A set's members as of one version of its namespace's pods, when none was to adopt or release. */
interface KeptMembers {
  readonly pods: Trie<KubeObject> | undefined;
  readonly name: string;
  readonly selector: string;
  readonly deleting: boolean;
  readonly summary: MemberSummary;
}

/** By set uid; a cache (dropped whole when it grows past the bound), never state. */
const kept = new Map<string, KeptMembers>();
const keptMax = 1024;

/** The selector as written, to tell a changed one; by stored selector object (read once). */
const selectorKeys = new WeakMap<object, string>();

function selectorKey(set: KubeObject): string {
  const sel = objectField(set, 'spec')['selector'];
  if (!isObject(sel)) return JSON.stringify(sel ?? null);
  let key = selectorKeys.get(sel);
  if (key === undefined) selectorKeys.set(sel, (key = JSON.stringify(sel)));
  return key;
}

/**
 * Brings the kept members over the pods that changed since; false when a change is one the
 * common case does not cover (a pod to adopt or release, two pods at one ordinal) and the members
 * must be listed again.
 */
function bringOver(k: KeptMembers, now: Trie<KubeObject> | undefined, spec: SetSpec): boolean {
  const changes: [KubeObject | undefined, KubeObject | undefined][] = [];
  trieChanges(k.pods ?? emptyTrie, now ?? emptyTrie, (_name, before, after) => changes.push([before, after]));
  for (const [before] of changes) {
    if (before === undefined) continue;
    const r = roleOf(before, spec);
    if (r.role === 'acted on') return false;
    if (r.role === 'member') {
      if (k.summary.pods.get(r.ordinal) !== before) return false;
      k.summary.remove(r.ordinal);
    }
  }
  for (const [, after] of changes) {
    if (after === undefined) continue;
    const r = roleOf(after, spec);
    if (r.role === 'acted on') return false;
    if (r.role === 'member') {
      if (k.summary.pods.has(r.ordinal)) return false;
      k.summary.add(r.ordinal, after);
    }
  }
  return true;
}

/**
 * The set's members, adopted ones included, and the pods to adopt and release. Kept from sync to
 * sync and brought over the pods that changed in between, so a sync of a large set does not list
 * its namespace; with `check` the kept answer is compared with the listed one.
 */
export function membersOf(world: World, set: KubeObject, spec: SetSpec, names: Names, check = false): Membership {
  const pods = trieGet(world.objects['core/pods'] ?? emptyTrie, spec.namespace);
  const selector = selectorKey(set);
  let k = kept.get(spec.uid);
  if (k !== undefined && (k.name !== spec.name || k.selector !== selector || k.deleting !== spec.deleting || k.summary.names !== names)) k = undefined;
  if (k !== undefined && k.pods !== pods) {
    if (bringOver(k, pods, spec)) k = { ...k, pods };
    else k = undefined;
  }
  let result: Membership;
  if (k !== undefined) result = { pods: k.summary.pods, adopt: [], release: [], summary: k.summary };
  else {
    result = listMembers(world, set, spec);
    if (result.adopt.length === 0 && result.release.length === 0) {
      if (kept.size >= keptMax) kept.clear();
      const summary = new MemberSummary(names);
      for (const [ordinal, pod] of result.pods) summary.add(ordinal, pod);
      k = { pods, name: spec.name, selector, deleting: spec.deleting, summary };
      result = { ...result, pods: summary.pods, summary };
    }
  }
  if (k !== undefined) kept.set(spec.uid, k);
  else kept.delete(spec.uid);
  if (check) {
    const listed = listMembers(world, set, spec);
    assert(
      listed.adopt.length === result.adopt.length && listed.release.length === result.release.length && listed.pods.size === result.pods.size && [...listed.pods].every(([o, p]) => result.pods.get(o) === p || (listed.adopt.length > 0 && JSON.stringify(result.pods.get(o)) === JSON.stringify(p))),
      `statefulset-controller: the kept members of ${spec.namespace}/${spec.name} differ from the listed ones`,
    );
  }
  return result;
}
