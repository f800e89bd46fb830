/**
 * One sync of one StatefulSet (reference §6.4), pure: the set and the world as read in, the
 * controller's writes out, in the order the real controller makes them — revisions and adoption
 * first, then the in-range members (create, recreate failed ones, repair identity, claims),
 * claims of condemned members, scale-down, the rolling update (the maxUnavailable path, on by
 * default here as the spec says), the status, and last the pruning of old revisions.
 *
 * OrderedReady ("monotonic") stops at the first member that is not there, not available or
 * terminating, so pods are created one at a time in ascending order and deleted one at a time
 * from the highest ordinal; Parallel does everything at once. A settle round is one sync: the
 * next round sees the writes of this one.
 */
import type { KubeObject } from '../../api/meta.ts';
import type { Names } from '../../api/names.ts';
import type { Instant } from '../../core/duration.ts';
import { getObject } from '../../store/objects.ts';
import type { World } from '../../store/world.ts';
import type { Intent, Report } from '../types.ts';
import { claimOwnership, newClaim } from './claims.ts';
import { membersOf, podName } from './members.ts';
import { healthOf, isUnavailable, revisionLabel, type MemberHealth } from './podLifecycle.ts';
import { claimName, identityMatches, newMemberPod, repaired, storageMatches } from './pods.ts';
import { liveRevisionNames, ownedRevisions, resolveRevisions, revisionsToPrune, setAtRevision } from './revisions.ts';
import { completed, computeStatus, statusNeedsWrite, statusObject } from './setStatus.ts';
import { readSpec, scaledMaxUnavailable, templateOf, type SetSpec } from './spec.ts';

const pods = 'core/pods';
const claims = 'core/persistentvolumeclaims';
const revisionsResource = 'apps/controllerrevisions';

/**
 * One in-range slot: the member's pod, or the pod to create (not yet stored; built only when a
 * sync gets as far as creating it — most syncs of a large set never look at most missing slots).
 */
interface Slot {
  readonly ordinal: number;
  readonly pod: KubeObject;
  readonly exists: boolean;
}

function missingSlot(ordinal: number, build: () => KubeObject): Slot {
  let pod: KubeObject | undefined;
  return {
    ordinal,
    exists: false,
    get pod(): KubeObject {
      pod ??= build();
      return pod;
    },
  };
}

interface Sync {
  readonly world: World;
  readonly set: KubeObject;
  readonly spec: SetSpec;
  readonly names: Names;
  readonly now: Instant;
  readonly key: string;
  readonly out: Intent[];
}

const setKey = (spec: SetSpec): string => `${spec.namespace}/${spec.name}`;

function report(s: Sync, accepted: Report['accepted'], refused: Report['refused']): Report {
  return { key: s.key, involved: s.set, ...(accepted === undefined ? {} : { accepted }), ...(refused === undefined ? {} : { refused }) };
}

/**
 * Deletes a member, reporting SuccessfulDelete / FailedDelete. A failed or succeeded pod is
 * deleted the same way (v1.31 dropped the RecreatingFailedPod event, kubernetes#123809).
 */
function deletePod(s: Sync, pod: KubeObject): void {
  const name = pod.metadata.name ?? '';
  s.out.push({
    type: 'delete',
    resource: pods,
    namespace: s.spec.namespace,
    name,
    uid: pod.metadata.uid ?? '',
    report: report(s, [{ reason: 'SuccessfulDelete', message: `delete Pod ${name} in StatefulSet ${s.spec.name} successful` }], { reason: 'FailedDelete', messagePrefix: `delete Pod ${name} in StatefulSet ${s.spec.name} failed error: ` }),
  });
}

/**
 * The member's missing claims, created (§6.9); false when one is being deleted or names a pod
 * that is gone (the pod must wait: the garbage collector removes the stale claim first).
 */
function ensureClaims(s: Sync, slot: Slot): boolean {
  let ready = true;
  for (const template of s.spec.claimTemplates) {
    const name = claimName(template, s.spec.name, slot.ordinal);
    const existing = getObject(s.world, claims, s.spec.namespace, name);
    if (existing === undefined) {
      const pod = podName(s.spec.name, slot.ordinal);
      s.out.push({
        type: 'create',
        resource: claims,
        object: newClaim(s.set, s.spec, template, slot.ordinal),
        report: report(s, [{ reason: 'SuccessfulCreate', message: `create Claim ${name} Pod ${pod} in StatefulSet ${s.spec.name} success` }], { reason: 'FailedCreate', messagePrefix: `create Claim ${name} for Pod ${pod} in StatefulSet ${s.spec.name} failed error: ` }),
      });
      continue;
    }
    if (existing.metadata.deletionTimestamp !== undefined) ready = false;
    else if (!slot.exists && claimOwnership(s.set, s.spec, existing, undefined, slot.ordinal, false).type === 'stale') ready = false;
  }
  return ready;
}

/** Claims whose owner references do not say what the retention policy says, corrected (§6.10). */
function fixClaimOwners(s: Sync, pod: KubeObject, ordinal: number, condemned: boolean): void {
  for (const template of s.spec.claimTemplates) {
    const claim = getObject(s.world, claims, s.spec.namespace, claimName(template, s.spec.name, ordinal));
    if (claim === undefined || claim.metadata.deletionTimestamp !== undefined) continue;
    const o = claimOwnership(s.set, s.spec, claim, pod, ordinal, condemned);
    if (o.type === 'update') s.out.push({ type: 'update', resource: claims, subresource: '', object: o.claim, report: report(s, undefined, undefined) });
    if (o.type === 'conflict') {
      s.out.push({
        type: 'update',
        resource: claims,
        subresource: '',
        object: o.claim,
        report: report(s, [{ type: 'Warning', reason: 'ConflictingController', message: `Claim ${claim.metadata.name ?? ''} has a conflicting controller` }], undefined),
      });
    }
  }
}

function createPod(s: Sync, slot: Slot): void {
  const name = slot.pod.metadata.name ?? '';
  s.out.push({
    type: 'create',
    resource: pods,
    object: slot.pod,
    report: report(s, [{ reason: 'SuccessfulCreate', message: `create Pod ${name} in StatefulSet ${s.spec.name} successful` }], { reason: 'FailedCreate', messagePrefix: `create Pod ${name} in StatefulSet ${s.spec.name} failed error: ` }),
  });
}

/**
 * processReplica: what one in-range member needs; true when a monotonic sync must stop here.
 */
function processReplica(s: Sync, slot: Slot, monotonic: boolean): boolean {
  const health = healthOf(slot.exists ? slot.pod : undefined, s.spec.minReadySeconds, s.now);
  if (health === 'Failed') {
    // Recreated at the next sync once the pod is gone.
    if (slot.pod.metadata.deletionTimestamp === undefined) deletePod(s, slot.pod);
    return true;
  }
  if (!slot.exists) {
    if (!ensureClaims(s, slot)) return true;
    createPod(s, slot);
    if (monotonic) return true;
    return false;
  }
  if (health === 'Pending') ensureClaims(s, slot);
  if (monotonic && health !== 'Available') return true;
  if (!identityMatches(s.names, slot.pod) || !storageMatches(s.spec, slot.pod, slot.ordinal)) {
    // Identity and storage restored in one update, as the real controller does; a live pod's
    // volumes cannot change, so a pod whose storage drifted gets the API's refusal (FailedUpdate).
    const name = slot.pod.metadata.name ?? '';
    s.out.push({
      type: 'update',
      resource: pods,
      subresource: '',
      object: repaired(s.names, s.spec, slot.pod, slot.ordinal),
      report: report(s, [{ reason: 'SuccessfulUpdate', message: `update Pod ${name} in StatefulSet ${s.spec.name} successful` }], { reason: 'FailedUpdate', messagePrefix: `update Pod ${name} in StatefulSet ${s.spec.name} failed error: ` }),
    });
  }
  fixClaimOwners(s, slot.pod, slot.ordinal, false);
  return false;
}

/** processCondemned: scale-down of one member; true when a monotonic sync must stop here. */
function processCondemned(s: Sync, pod: KubeObject, health: MemberHealth, firstUnavailable: KubeObject | null, monotonic: boolean): boolean {
  if (health === 'Terminating') return monotonic;
  if (monotonic && health !== 'Available' && pod !== firstUnavailable) return true;
  deletePod(s, pod);
  return true;
}

/** The rolling update through the maxUnavailable budget (§6.5b); returns the deletions made. */
function rollingUpdate(s: Sync, slots: readonly Slot[], healths: readonly MemberHealth[], updateRevision: string): number {
  const partition = s.spec.hasRollingUpdate ? s.spec.partition : 0;
  const budget = scaledMaxUnavailable(s.spec);
  const unavailable = healths.filter(isUnavailable).length;
  if (unavailable >= budget) return 0;
  let deleted = 0;
  for (let i = slots.length - 1; i >= partition && deleted < budget - unavailable; i--) {
    const slot = slots[i]!;
    if (!slot.exists || slot.pod.metadata.deletionTimestamp !== undefined) continue;
    if (slot.pod.metadata.labels?.[revisionLabel] === updateRevision) continue;
    deletePod(s, slot.pod);
    deleted++;
  }
  return deleted;
}

function once<T>(make: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: make() }).v;
}

export function syncStatefulSet(world: World, set: KubeObject, names: Names): Intent[] {
  const spec = readSpec(set);
  const s: Sync = { world, set, spec, names, now: world.now, key: setKey(spec), out: [] };
  const members = membersOf(world, set, spec);
  for (const pod of [...members.adopt, ...members.release]) s.out.push({ type: 'update', resource: pods, subresource: '', object: pod, report: report(s, undefined, undefined) });

  const listedRevisions = ownedRevisions(world, set);
  const resolution = resolveRevisions(world, set, names, listedRevisions);
  // A set being deleted gets no new revisions (the garbage collector is taking them away); with
  // no revision of its template left there is nothing to report either.
  if (spec.deleting && resolution.writes.length > 0) return s.out;
  for (const w of resolution.writes) {
    if (w.type === 'create') s.out.push({ type: 'create', resource: revisionsResource, object: w.revision, report: report(s, undefined, undefined) });
    else s.out.push({ type: 'update', resource: revisionsResource, subresource: '', object: w.revision, report: report(s, undefined, undefined) });
  }
  const currentName = resolution.current.metadata.name ?? '';
  const updateName = resolution.update.metadata.name ?? '';
  const currentTemplate = once(() => templateOf(setAtRevision(set, resolution.current)));
  const updateTemplate = once(() => templateOf(setAtRevision(set, resolution.update)));

  // Members in range by index, the rest condemned (highest ordinal first).
  const before = computeStatus(set, spec, members.pods.values(), currentName, updateName, resolution.collisionCount, s.now);
  const slots: Slot[] = [];
  for (let i = 0; i < spec.replicas; i++) {
    const ordinal = spec.start + i;
    const pod = members.pods.get(ordinal);
    if (pod !== undefined) {
      slots.push({ ordinal, pod, exists: true });
      continue;
    }
    // The versioned-pod rule (§6.6): below the partition the current revision, else the update one.
    const atCurrent =
      spec.updateStrategy === 'RollingUpdate' && (spec.hasRollingUpdate ? i < spec.partition : ordinal < spec.start + before.currentReplicas);
    slots.push(missingSlot(ordinal, () => (atCurrent ? newMemberPod(set, spec, names, currentTemplate(), currentName, ordinal) : newMemberPod(set, spec, names, updateTemplate(), updateName, ordinal))));
  }
  const condemned = [...members.pods.entries()].filter(([o]) => o < spec.start || o >= spec.start + spec.replicas).sort((a, b) => b[0] - a[0]);
  const healths = slots.map((slot) => healthOf(slot.exists ? slot.pod : undefined, spec.minReadySeconds, s.now));
  const condemnedHealths = condemned.map(([, pod]) => healthOf(pod, spec.minReadySeconds, s.now));
  // The lowest unavailable member: in range, or else the lowest condemned one (only the latter
  // is ever compared with a condemned pod).
  let firstUnavailable: KubeObject | null = null;
  const firstIndex = healths.findIndex(isUnavailable);
  if (firstIndex < 0) {
    for (let j = condemned.length - 1; j >= 0; j--) {
      if (isUnavailable(condemnedHealths[j]!)) {
        firstUnavailable = condemned[j]![1];
        break;
      }
    }
  }

  let deletions = 0;
  const finish = (): Intent[] => {
    const status = completed(spec, { ...before, currentReplicas: before.currentReplicas - deletions });
    if (statusNeedsWrite(set, status)) {
      s.out.push({ type: 'update', resource: 'apps/statefulsets', subresource: 'status', object: { ...set, status: statusObject(status) }, report: report(s, undefined, undefined) });
    }
    const live = liveRevisionNames(resolution.current, resolution.update, [...members.pods.values()]);
    for (const r of revisionsToPrune(set, listedRevisions, live)) {
      s.out.push({ type: 'delete', resource: revisionsResource, namespace: spec.namespace, name: r.metadata.name ?? '', uid: r.metadata.uid ?? '', report: report(s, undefined, undefined) });
    }
    return s.out;
  };

  // A set being deleted only reports status: the garbage collector takes its pods.
  if (spec.deleting) return finish();
  const monotonic = !spec.parallel;
  for (const slot of slots) if (processReplica(s, slot, monotonic) && monotonic) return finish();
  for (const [ordinal, pod] of condemned) fixClaimOwners(s, pod, ordinal, true);
  for (let j = 0; j < condemned.length; j++) {
    if (processCondemned(s, condemned[j]![1], condemnedHealths[j]!, firstUnavailable, monotonic) && monotonic) return finish();
  }
  if (spec.updateStrategy === 'OnDelete') return finish();
  deletions = rollingUpdate(s, slots, healths, updateName);
  return finish();
}
