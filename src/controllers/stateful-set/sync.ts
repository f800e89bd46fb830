/**
 * One sync of one StatefulSet (reference §6.4), pure: the set and the world as read in, the
 * controller's writes out, in the order the real controller makes them — revisions and adoption
 * first, then the in-range members (create, recreate failed ones, repair identity, claims),
 * claims of condemned members, scale-down, the rolling update (the maxUnavailable path, on by
 * default here as the spec says), the status, and last the pruning of old revisions.
 *
 * OrderedReady ("monotonic") stops at the first member that is not there, not available or
 * terminating, so pods are created one at a time in ascending order and deleted one at a time
 * from the highest ordinal; Parallel does everything at once, up to the pod writes left to the
 * set in this virtual second (pacing.ts): creations in ascending order, then scale-down from the
 * highest ordinal, then the update's deletions, each taking one while any is left. A settle round
 * is one sync: the next round sees the writes of this one.
 */
import type { KubeObject } from '../../api/meta.ts';
import type { Names } from '../../api/names.ts';
import { formatInstant, type Instant } from '../../core/duration.ts';
import { getObject } from '../../store/objects.ts';
import type { World } from '../../store/world.ts';
import type { JsonObject } from '../../core/json.ts';
import { assert } from '../../core/assert.ts';
import { describeIntent, type Intent, type Report } from '../types.ts';
import { claimOwnership, newClaim } from './claims.ts';
import { membersOf, podName, type Membership } from './members.ts';
import type { MemberSummary } from './memberSummary.ts';
import { lowerBound } from '../../core/lowerBound.ts';
import { factsOf, healthOf, isUnavailable, type MemberHealth } from './podLifecycle.ts';
import { claimName, identityMatches, newMemberPod, repaired, storageMatches } from './pods.ts';
import { liveRevisionNames, revisionsOf, revisionsToPrune, templateAt } from './revisions.ts';
import { completed, computeStatus, statusNeedsWrite, statusObject, type SetStatus } from './setStatus.ts';
import { readSpec, scaledMaxUnavailable, type SetSpec } from './spec.ts';

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

/** The pod creations and deletions a sync may still make, and whether it wanted one more. */
interface Budget {
  left: number;
  short: boolean;
}

interface Sync {
  readonly world: World;
  readonly set: KubeObject;
  readonly spec: SetSpec;
  readonly names: Names;
  readonly now: Instant;
  readonly key: string;
  readonly out: Intent[];
  readonly budget: Budget;
}

/** Takes one pod write from the budget; false (and the sync is short) when none is left. */
function take(s: Sync): boolean {
  if (s.budget.left > 0) {
    s.budget.left--;
    return true;
  }
  s.budget.short = true;
  return false;
}

const setKey = (spec: SetSpec): string => `${spec.namespace}/${spec.name}`;

function report(s: Sync, accepted: Report['accepted'], refused: Report['refused']): Report {
  return { key: s.key, involved: s.set, ...(accepted === undefined ? {} : { accepted }), ...(refused === undefined ? {} : { refused }) };
}

/** Adoption, release and revisions come first: a refusal ends the sync there (§6.4); so does a refused claim. */
function prerequisite(s: Sync): Report {
  return { ...report(s, undefined, undefined), prerequisite: 'sync' };
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
        // The pod is not made without its claim: a refused claim ends the sync (createPersistentVolumeClaims' error).
        report: { ...report(s, [{ reason: 'SuccessfulCreate', message: `create Claim ${name} Pod ${pod} in StatefulSet ${s.spec.name} success` }], { reason: 'FailedCreate', messagePrefix: `create Claim ${name} for Pod ${pod} in StatefulSet ${s.spec.name} failed error: ` }), prerequisite: 'members' },
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
function processReplica(s: Sync, slot: Slot, health: MemberHealth, monotonic: boolean): boolean {
  if (health === 'Failed') {
    // Recreated at the next sync once the pod is gone.
    if (slot.pod.metadata.deletionTimestamp === undefined && take(s)) deletePod(s, slot.pod);
    return true;
  }
  if (!slot.exists) {
    // The member's claims are written with its pod, under the one write it takes.
    if (!take(s)) return true;
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
  if (take(s)) deletePod(s, pod);
  return true;
}

/**
 * The rolling update through the maxUnavailable budget (§6.5b): `unavailable` in-range members
 * (missing ones included); `members` visits the in-range members from the highest ordinal down
 * (index in range, pod) while the visitor asks for more. Returns the deletions made.
 */
function rollingUpdate(s: Sync, unavailable: number, updateRevision: string, members: (visit: (index: number, pod: KubeObject) => boolean) => void): number {
  const partition = s.spec.hasRollingUpdate ? s.spec.partition : 0;
  const budget = scaledMaxUnavailable(s.spec);
  if (unavailable >= budget) return 0;
  let deleted = 0;
  members((index, pod) => {
    if (index < partition || deleted >= budget - unavailable) return false;
    if (pod.metadata.deletionTimestamp !== undefined || factsOf(pod).revision === updateRevision) return true;
    if (!take(s)) return false;
    deletePod(s, pod);
    deleted++;
    return deleted < budget - unavailable;
  });
  return deleted;
}

function once<T>(make: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: make() }).v;
}

/** What every sync starts from: the set's members and revisions resolved, and the writes so far. */
interface Prepared {
  readonly s: Sync;
  readonly members: Membership;
  readonly listedRevisions: readonly KubeObject[];
  readonly collisionCount: number;
  readonly currentName: string;
  readonly updateName: string;
  readonly currentTemplate: () => JsonObject;
  readonly updateTemplate: () => JsonObject;
}

/** Adoption and release, then the revisions (§6.4 first steps); the writes so far when the sync ends there. */
function prepare(world: World, set: KubeObject, spec: SetSpec, names: Names, members: Membership, budget: number): Prepared | Intent[] {
  const s: Sync = { world, set, spec, names, now: world.now, key: setKey(spec), out: [], budget: { left: budget, short: false } };
  for (const pod of [...members.adopt, ...members.release]) s.out.push({ type: 'update', resource: pods, subresource: '', object: pod, report: prerequisite(s) });

  const { listed: listedRevisions, resolution } = revisionsOf(world, set, names);
  // A set being deleted gets no new revisions (the garbage collector is taking them away); with
  // no revision of its template left there is nothing to report either.
  if (spec.deleting && resolution.writes.length > 0) return s.out;
  for (const w of resolution.writes) {
    if (w.type === 'create') s.out.push({ type: 'create', resource: revisionsResource, object: w.revision, report: prerequisite(s) });
    else s.out.push({ type: 'update', resource: revisionsResource, subresource: '', object: w.revision, report: prerequisite(s) });
  }
  return {
    s,
    members,
    listedRevisions,
    collisionCount: resolution.collisionCount,
    currentName: resolution.current.metadata.name ?? '',
    updateName: resolution.update.metadata.name ?? '',
    currentTemplate: once(() => templateAt(set, resolution.current)),
    updateTemplate: once(() => templateAt(set, resolution.update)),
  };
}

/** The slot of a missing in-range member: the pod to create, at the revision §6.6 gives it. */
function missingMember(p: Prepared, index: number, currentReplicas: number): Slot {
  const { set, spec, names } = p.s;
  const ordinal = spec.start + index;
  // The versioned-pod rule (§6.6): below the partition the current revision, else the update one.
  const atCurrent = spec.updateStrategy === 'RollingUpdate' && (spec.hasRollingUpdate ? index < spec.partition : ordinal < spec.start + currentReplicas);
  return missingSlot(ordinal, () => (atCurrent ? newMemberPod(set, spec, names, p.currentTemplate(), p.currentName, ordinal) : newMemberPod(set, spec, names, p.updateTemplate(), p.updateName, ordinal)));
}

/** The status write, if any, and the pruning of old revisions: the end of every sync. */
function finishSync(p: Prepared, before: SetStatus, deletions: number, live: ReadonlySet<string>): Intent[] {
  const { s } = p;
  const status = completed(s.spec, { ...before, currentReplicas: before.currentReplicas - deletions });
  if (statusNeedsWrite(s.set, status)) {
    s.out.push({ type: 'update', resource: 'apps/statefulsets', subresource: 'status', object: { ...s.set, status: statusObject(status) }, report: report(s, undefined, undefined) });
  }
  for (const r of revisionsToPrune(s.set, p.listedRevisions, live)) {
    s.out.push({ type: 'delete', resource: revisionsResource, namespace: s.spec.namespace, name: r.metadata.name ?? '', uid: r.metadata.uid ?? '', report: report(s, undefined, undefined) });
  }
  return s.out;
}

/** The lowest unavailable condemned member, given (highest ordinal first) with their healths. */
function lowestUnavailable(condemned: readonly (readonly [number, KubeObject])[], healths: readonly MemberHealth[]): KubeObject | null {
  for (let j = condemned.length - 1; j >= 0; j--) if (isUnavailable(healths[j]!)) return condemned[j]![1];
  return null;
}

/** Scale-down, then the rolling update; the deletions the update made, or null when the sync stops before it. */
function condemnAndUpdate(p: Prepared, condemned: readonly (readonly [number, KubeObject])[], condemnedHealths: readonly MemberHealth[], firstUnavailable: KubeObject | null, update: () => number): number | null {
  const { s } = p;
  const monotonic = !s.spec.parallel;
  for (const [ordinal, pod] of condemned) fixClaimOwners(s, pod, ordinal, true);
  for (let j = 0; j < condemned.length; j++) {
    if (processCondemned(s, condemned[j]![1], condemnedHealths[j]!, firstUnavailable, monotonic) && monotonic) return null;
  }
  if (s.spec.updateStrategy === 'OnDelete') return null;
  return update();
}

/**
 * The in-range ordinals a sync visits, ascending: the members of `present` (ascending, all in
 * range) that `visited` picks, and the missing ordinals around them while `wantMissing` says so.
 * A Parallel sync whose budget is spent skips the rest of a gap at once (and is short): a set of
 * 2^31 − 1 replicas has that many missing ordinals, and a sync must cost its members and its
 * budget, not its replicas.
 */
function* slotOrdinals(s: Sync, present: readonly number[], from: number, to: number, visited: (ordinal: number) => boolean, wantMissing: () => boolean): Generator<number> {
  const hi = s.spec.start + s.spec.replicas;
  let next = s.spec.start;
  for (let j = from; j <= to; j++) {
    const o = j < to ? present[j]! : hi;
    for (; next < o; next++) {
      if (!wantMissing()) {
        s.budget.short = true;
        break;
      }
      yield next;
    }
    next = o + 1;
    if (j < to && visited(o)) yield o;
  }
}

/** The in-range slots, visited in order until a monotonic sync stops; true when it stopped. */
function processReplicas(p: Prepared, ordinals: Iterable<number>, health: (ordinal: number, pod: KubeObject | undefined) => MemberHealth, pods: ReadonlyMap<number, KubeObject>, currentReplicas: number): boolean {
  const { s } = p;
  const monotonic = !s.spec.parallel;
  for (const o of ordinals) {
    const pod = pods.get(o);
    const slot: Slot = pod !== undefined ? { ordinal: o, pod, exists: true } : missingMember(p, o - s.spec.start, currentReplicas);
    if (processReplica(s, slot, health(o, pod), monotonic) && monotonic) return true;
  }
  return false;
}

/** Missing ordinals are visited by a monotonic sync (it stops at the first) and by a Parallel one with budget left. */
const wantsMissing = (s: Sync) => (): boolean => !s.spec.parallel || s.budget.left > 0;

/**
 * The sync by its definition: every in-range member visited in order with the missing ordinals
 * it has the budget for, every member counted. Used whenever the sparse path does not apply, and
 * under `checkInvariants` to check it.
 */
function syncListed(p: Prepared): Intent[] {
  const { s, members } = p;
  const { spec } = s;
  const before = computeStatus(s.set, spec, members.pods.values(), p.currentName, p.updateName, p.collisionCount, s.now);
  const live = (): Set<string> => liveRevisionNames(p.currentName, p.updateName, members.pods.values());
  const lo = spec.start;
  const hi = spec.start + spec.replicas;
  const inRange = [...members.pods.keys()].filter((o) => o >= lo && o < hi).sort((a, b) => a - b);
  const healths = new Map(inRange.map((o) => [o, healthOf(members.pods.get(o), spec.minReadySeconds, s.now)]));
  // Missing members are unavailable.
  let unavailable = spec.replicas - inRange.length;
  for (const h of healths.values()) if (isUnavailable(h)) unavailable++;
  const condemned = [...members.pods.entries()].filter(([o]) => o < lo || o >= hi).sort((a, b) => b[0] - a[0]);
  const condemnedHealths = condemned.map(([, pod]) => healthOf(pod, spec.minReadySeconds, s.now));
  // The lowest unavailable member: in range, or else the lowest condemned one (only the latter
  // is ever compared with a condemned pod).
  const firstUnavailable = unavailable > 0 ? null : lowestUnavailable(condemned, condemnedHealths);

  // A set being deleted only reports status: the garbage collector takes its pods.
  if (spec.deleting) return finishSync(p, before, 0, live());
  const ordinals = slotOrdinals(s, inRange, 0, inRange.length, () => true, wantsMissing(s));
  if (processReplicas(p, ordinals, (o) => healths.get(o) ?? 'Missing', members.pods, before.currentReplicas)) return finishSync(p, before, 0, live());
  const deletions = condemnAndUpdate(p, condemned, condemnedHealths, firstUnavailable, () =>
    rollingUpdate(s, unavailable, p.updateName, (visit) => {
      for (let j = inRange.length - 1; j >= 0; j--) if (!visit(inRange[j]! - lo, members.pods.get(inRange[j]!)!)) return;
    }),
  );
  return finishSync(p, before, deletions ?? 0, live());
}

/**
 * The same sync from the kept summary (memberSummary.ts), visiting only what can need a write:
 * missing and not-plain members in range, condemned members, and in a rolling update the members
 * from the top down to the first to replace. It applies while the summary is exact without the
 * clock or the claims: no claim templates and minReadySeconds 0 (availability is then readiness).
 */
function syncSparse(p: Prepared, m: MemberSummary): Intent[] {
  const { s } = p;
  const { spec } = s;
  const before: SetStatus = {
    observedGeneration: s.set.metadata.generation ?? 0,
    replicas: m.created,
    readyReplicas: m.ready,
    currentReplicas: m.byRevision.get(p.currentName) ?? 0,
    updatedReplicas: m.byRevision.get(p.updateName) ?? 0,
    availableReplicas: m.ready,
    currentRevision: p.currentName,
    updateRevision: p.updateName,
    collisionCount: p.collisionCount,
  };
  const live = (): Set<string> => new Set([p.currentName, p.updateName, ...m.live.keys()]);
  const lo = spec.start;
  const hi = spec.start + spec.replicas;
  const first = lowerBound(m.ordinals, lo);
  const end = lowerBound(m.ordinals, hi);
  // In range, the members that are not plain (every other one is available and needs nothing)
  // and the missing ordinals: with every ordinal present only the former, a few whatever the
  // size of the set.
  const odd = [...m.odd].filter((o) => o >= lo && o < hi).sort((a, b) => a - b);
  const health = (_o: number, pod: KubeObject | undefined): MemberHealth => healthOf(pod, 0, s.now);
  let unavailable = spec.replicas - (end - first);
  for (const o of odd) if (isUnavailable(health(o, m.pods.get(o)))) unavailable++;
  const condemned: (readonly [number, KubeObject])[] = [];
  for (let j = m.ordinals.length - 1; j >= end; j--) condemned.push([m.ordinals[j]!, m.pods.get(m.ordinals[j]!)!]);
  for (let j = first - 1; j >= 0; j--) condemned.push([m.ordinals[j]!, m.pods.get(m.ordinals[j]!)!]);
  const condemnedHealths = condemned.map(([, pod]) => healthOf(pod, 0, s.now));
  const firstUnavailable = unavailable > 0 ? null : lowestUnavailable(condemned, condemnedHealths);

  if (spec.deleting) return finishSync(p, before, 0, live());
  const ordinals = end - first === spec.replicas ? odd : slotOrdinals(s, m.ordinals, first, end, (o) => m.odd.has(o), wantsMissing(s));
  if (processReplicas(p, ordinals, health, m.pods, before.currentReplicas)) return finishSync(p, before, 0, live());
  const deletions = condemnAndUpdate(p, condemned, condemnedHealths, firstUnavailable, () =>
    rollingUpdate(s, unavailable, p.updateName, (visitMember) =>
      m.staleFromTop(p.updateName, lo, hi, (ordinal) => visitMember(ordinal - lo, m.pods.get(ordinal)!)),
    ),
  );
  return finishSync(p, before, deletions ?? 0, live());
}

/**
 * A sync's writes, the pod creations and deletions among them (a member's claims with its pod),
 * and whether it had more of those to make than its budget allowed.
 */
export interface SyncResult {
  readonly intents: Intent[];
  readonly writes: number;
  readonly short: boolean;
}

/**
 * `budget`: the pod creations and deletions the set may still make in this second, given the
 * members created in it (pacing.ts). `check`: compare what is kept from sync to sync with what
 * listing gives (`checkInvariants`).
 */
export function syncStatefulSet(world: World, set: KubeObject, names: Names, budget: (created: number) => number, check = false): SyncResult {
  const spec = readSpec(set);
  const members = membersOf(world, set, spec, names, check);
  const sparse = members.summary !== undefined && spec.claimTemplates.length === 0 && spec.minReadySeconds <= 0;
  // The members made in this second (creationTimestamp has whole seconds).
  const stamp = formatInstant(world.now);
  const left = budget(members.summary?.createdAt(stamp) ?? [...members.pods.values()].filter((pod) => pod.metadata.creationTimestamp === stamp).length);
  const run = (how: (p: Prepared) => Intent[]): SyncResult => {
    const p = prepare(world, set, spec, names, members, left);
    if (Array.isArray(p)) return { intents: p, writes: 0, short: false };
    const intents = how(p);
    return { intents, writes: left - p.s.budget.left, short: p.s.budget.short };
  };
  if (!sparse) return run(syncListed);
  const out = run((p) => syncSparse(p, members.summary!));
  if (check) {
    const listed = run(syncListed);
    assert(
      JSON.stringify(listed) === JSON.stringify(out),
      `statefulset-controller: the sparse sync of ${spec.namespace}/${spec.name} differs from the listed one:\n${JSON.stringify(out.intents.map(describeIntent))} (short: ${out.short})\n${JSON.stringify(listed.intents.map(describeIntent))} (short: ${listed.short})`,
    );
  }
  return out;
}
