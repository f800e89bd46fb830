/**
 * A StatefulSet's revision history (reference/statefulset.md §5): the ControllerRevisions that
 * record each pod template the set has had, how one sync resolves its current and update
 * revisions from them, and which old ones it prunes.
 *
 * Rules: pure and synchronous; the controller writes what `resolveRevisions` returns before
 * anything else and prunes with `revisionsToPrune` after. "Equal" is §5's equality (the recorded
 * bytes), not deep equality of objects. Must not know: pods' lifecycle, status counters.
 */
import type { KubeObject } from '../../api/meta.ts';
import type { Names } from '../../api/names.ts';
import { assert } from '../../core/assert.ts';
import { compareStrings } from '../../core/compareStrings.ts';
import { parseInstant } from '../../core/duration.ts';
import { cloneJson, isObject, objectField, setOwn, type JsonObject, type JsonValue } from '../../core/json.ts';
import { matchesLabels } from '../../registry/selectors/matchesLabels.ts';
import { statefulSetSchema } from '../../registry/stateful-set/schema.ts';
import { getObject, listObjects } from '../../store/objects.ts';
import { applyStrategicMergePatch } from '../../store/patch/strategicMergePatch.ts';
import type { World } from '../../store/world.ts';
import { trieGet } from '../../store/trie.ts';
import { controllerOf, setOwnerReference } from './members.ts';
import { factsOf } from './podLifecycle.ts';
import { marshalData, revisionHash } from './revisionHash.ts';
import { readSpec, templateOf } from './spec.ts';

export { revisionHash } from './revisionHash.ts';

export const controllerRevisionsResource = 'apps/controllerrevisions';

/** Set names are cut to this many characters so that `<name>-<hash>` stays a valid name. */
const revisionNamePrefixMax = 223;

/**
 * Names tried per sync when revision names collide. Each try raises the collision count, so
 * only a namespace full of look-alike names reaches it; reaching it is a bug to report.
 */
const collisionAttemptsMax = 1000;

/**
 * The recorded patch `{"spec":{"template":{"$patch":"replace",...}}}` of the stored set's template,
 * shaped as Go's encoding of it: every map's keys in sorted order and the template's
 * `metadata.creationTimestamp: null` (a zero time in ObjectMeta), because `kubectl rollout undo`
 * compares its own encoding of the live template with these bytes to skip a no-op rollback.
 */
export function revisionData(set: KubeObject): JsonObject {
  const stored = objectField(objectField(set, 'spec'), 'template');
  const known = recorded.get(stored);
  if (known !== undefined) return known;
  const data = encodeTemplate(stored);
  recorded.set(stored, data);
  return data;
}

/**
 * Recorded data by stored template: a stored object never changes, so a sync that finds the same
 * template object (every sync until the set is written) does not encode it again.
 */
const recorded = new WeakMap<JsonObject, JsonObject>();

function encodeTemplate(stored: JsonObject): JsonObject {
  const template = cloneJson(stored);
  setOwn(template, '$patch', 'replace');
  const metadata = objectField(template, 'metadata');
  setOwn(template, 'metadata', metadata['creationTimestamp'] === undefined ? { ...metadata, creationTimestamp: null } : metadata);
  return sortedKeys({ spec: { template } }) as JsonObject;
}

/** The value with every object's keys in Go's (byte) order. */
function sortedKeys(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(sortedKeys);
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  for (const k of Object.keys(v).sort(compareStrings)) setOwn(out, k, sortedKeys(v[k] as JsonValue));
  return out;
}

/** `<set name cut to 223 characters>-<hash>`. */
export function revisionName(setName: string, hash: string): string {
  return `${setName.slice(0, revisionNamePrefixMax)}-${hash}`;
}

/** The ControllerRevision to create for the set's current template. */
export function newRevision(set: KubeObject, names: Names, collisionCount: number, number: number): KubeObject {
  const data = revisionData(set);
  const hash = revisionHash(data, collisionCount);
  const template = objectField(objectField(set, 'spec'), 'template');
  const labels: Record<string, string> = { ...(objectField(template, 'metadata')['labels'] as Record<string, string> | undefined) };
  labels[names.controllerRevisionHashLabel] = hash;
  const annotations = set.metadata.annotations;
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: revisionName(set.metadata.name ?? '', hash),
      namespace: set.metadata.namespace ?? '',
      labels,
      ...(annotations === undefined || Object.keys(annotations).length === 0 ? {} : { annotations: { ...annotations } }),
      ownerReferences: [setOwnerReference(set)],
    },
    data,
    revision: number,
  };
}

export function revisionNumber(revision: KubeObject): number {
  return typeof revision['revision'] === 'number' ? revision['revision'] : 0;
}

function createdAt(o: KubeObject): number {
  return parseInstant(o.metadata.creationTimestamp ?? '') ?? 0;
}

/** History order: revision number, then creation time, then name. */
export function compareRevisions(a: KubeObject, b: KubeObject): number {
  return revisionNumber(a) - revisionNumber(b) || createdAt(a) - createdAt(b) || compareStrings(a.metadata.name ?? '', b.metadata.name ?? '');
}

/**
 * The set's revisions, oldest first: those in its namespace its selector matches that it
 * controls, or that nothing controls (orphans, adopted by `resolveRevisions`). An invalid
 * selector matches nothing.
 */
export function ownedRevisions(world: World, set: KubeObject): KubeObject[] {
  const selector = readSpec(set).selector;
  if (selector === null) return [];
  const uid = set.metadata.uid;
  return listObjects(world, controllerRevisionsResource, set.metadata.namespace ?? '')
    .filter((r) => matchesLabels(selector, r.metadata.labels))
    .filter((r) => {
      const ref = controllerOf(r);
      return ref === undefined || ref.uid === uid;
    })
    .sort(compareRevisions);
}

/** A hash label read as Go's strconv.ParseInt(s, 10, 32) would, else undefined. */
function numericHash(revision: KubeObject, names: Names): number | undefined {
  const s = revision.metadata.labels?.[names.controllerRevisionHashLabel];
  if (s === undefined || !/^[+-]?\d+$/.test(s)) return undefined;
  const n = Number(s);
  return n >= -2147483648 && n <= 2147483647 ? n : undefined;
}

function sameData(a: KubeObject, b: KubeObject): boolean {
  return marshalData(a['data'] as JsonValue | undefined) === marshalData(b['data'] as JsonValue | undefined);
}

/**
 * §5 equality: identical recorded bytes; and when both hash labels read as int32 numbers (a
 * hash made only of the characters 4–9), those numbers must agree too.
 */
export function equalRevisions(a: KubeObject, b: KubeObject, names: Names): boolean {
  const ha = numericHash(a, names);
  const hb = numericHash(b, names);
  if (ha !== undefined && hb !== undefined && ha !== hb) return false;
  return sameData(a, b);
}

/** What the controller writes before anything else in a sync; `revision` is the object to write. */
export type RevisionWrite =
  /** An orphan gets the set's controller reference (an update with the resourceVersion read). */
  | { readonly type: 'adopt'; readonly revision: KubeObject }
  | { readonly type: 'create'; readonly revision: KubeObject }
  /** Rollback: an older revision equal to the template gets the next number; its name is kept. */
  | { readonly type: 'renumber'; readonly revision: KubeObject; readonly number: number };

export interface Resolution {
  readonly current: KubeObject;
  readonly update: KubeObject;
  /** To be written to `status.collisionCount`. */
  readonly collisionCount: number;
  readonly writes: readonly RevisionWrite[];
}

function adopted(revision: KubeObject, set: KubeObject): KubeObject {
  return { ...revision, metadata: { ...revision.metadata, ownerReferences: [...(revision.metadata.ownerReferences ?? []), setOwnerReference(set)] } };
}

/**
 * Creates the candidate, or reuses the object already holding its name with the same data; a
 * name held by other data is a collision: the count goes up and the name is hashed again.
 */
function createOrReuse(world: World, set: KubeObject, names: Names, count: number, number: number): { revision: KubeObject; count: number; created: boolean } {
  for (let attempt = 0; attempt < collisionAttemptsMax; attempt++, count++) {
    const candidate = newRevision(set, names, count, number);
    const existing = getObject(world, controllerRevisionsResource, set.metadata.namespace ?? '', candidate.metadata.name ?? '');
    if (existing === undefined) return { revision: candidate, count, created: true };
    if (sameData(existing, candidate)) return { revision: existing, count, created: false };
  }
  assert(false, `statefulset ${set.metadata.namespace}/${set.metadata.name}: ${collisionAttemptsMax} revision names collided`);
}

/**
 * One sync's revisions (§5 "Per-sync revision resolution"): orphans are adopted (not while the
 * set is being deleted, when adoption is refused); the update revision is the latest revision
 * when it records the current template, else an older equal one renumbered (rollback), else a
 * new one; the current revision is the one `status.currentRevision` names, else the update one.
 * An orphan that is renumbered is adopted by the same write. `listed`: the sync's ownedRevisions,
 * when it has them already.
 */
export function resolveRevisions(world: World, set: KubeObject, names: Names, listed: readonly KubeObject[] = ownedRevisions(world, set)): Resolution {
  const status = objectField(set, 'status');
  const deleting = set.metadata.deletionTimestamp !== undefined;
  const orphans = new Set(deleting ? [] : listed.filter((r) => controllerOf(r) === undefined).map((r) => r.metadata.name));
  const revisions = listed.map((r) => (orphans.has(r.metadata.name) ? adopted(r, set) : r));
  const latest = revisions.at(-1);
  const number = latest === undefined ? 1 : revisionNumber(latest) + 1;
  let count = typeof status['collisionCount'] === 'number' ? status['collisionCount'] : 0;
  const candidate = newRevision(set, names, count, number);
  const lastEqual = revisions.filter((r) => equalRevisions(r, candidate, names)).at(-1);
  let update: KubeObject;
  let write: RevisionWrite | undefined;
  if (latest !== undefined && lastEqual !== undefined && equalRevisions(latest, lastEqual, names)) update = latest;
  else if (lastEqual !== undefined) {
    update = { ...lastEqual, revision: number };
    write = { type: 'renumber', revision: update, number };
  } else {
    const made = createOrReuse(world, set, names, count, number);
    count = made.count;
    update = revisions.find((r) => r.metadata.name === made.revision.metadata.name) ?? made.revision;
    if (made.created) write = { type: 'create', revision: update };
  }
  const currentName = status['currentRevision'];
  const current = currentName === update.metadata.name ? update : (revisions.find((r) => r.metadata.name === currentName) ?? update);
  const adopts: RevisionWrite[] = revisions
    .filter((r) => orphans.has(r.metadata.name) && !(write?.type === 'renumber' && r.metadata.name === update.metadata.name))
    .map((revision) => ({ type: 'adopt', revision }));
  return { current, update, collisionCount: count, writes: write === undefined ? adopts : [...adopts, write] };
}

/** Revisions still in use: the current and update ones and every one a pod of the set is labelled with. */
export function liveRevisionNames(current: string, update: string, pods: Iterable<KubeObject>): Set<string> {
  const live = new Set([current, update]);
  for (const p of pods) live.add(factsOf(p).revision ?? '');
  return live;
}

/**
 * §5 truncation: of the revisions listed at the start of the sync, those not live are history,
 * oldest first; all but the newest `revisionHistoryLimit` of them go. A negative limit keeps all.
 */
export function revisionsToPrune(set: KubeObject, revisions: readonly KubeObject[], live: ReadonlySet<string>): KubeObject[] {
  const limit = objectField(set, 'spec')['revisionHistoryLimit'];
  const keep = typeof limit === 'number' ? limit : 10;
  if (keep < 0) return [];
  const history = revisions.filter((r) => !live.has(r.metadata.name ?? '')).sort(compareRevisions);
  return history.slice(0, Math.max(0, history.length - keep));
}

/**
 * The live set with the revision applied (§6.4 currentSet / updateSet): its recorded patch
 * merged into the set, which replaces the template. Data that is not a valid patch (a foreign
 * revision adopted) leaves the set as it is.
 */
export function setAtRevision(set: KubeObject, revision: KubeObject): KubeObject {
  const data = revision['data'];
  if (!isObject(data)) return set;
  const r = applyStrategicMergePatch(set as unknown as JsonObject, data, statefulSetSchema);
  return r.ok && isObject(r.value) && isObject(r.value['metadata']) ? (r.value as unknown as KubeObject) : set;
}

/** Pod templates at a revision, by recorded data and stored set spec (both never change once stored). */
const templatesAt = new WeakMap<object, WeakMap<object, JsonObject>>();

/** The pod template of the set at the revision: what pods created at that revision are made from. */
export function templateAt(set: KubeObject, revision: KubeObject): JsonObject {
  const data = revision['data'];
  const spec = set['spec'];
  if (!isObject(data) || !isObject(spec)) return templateOf(setAtRevision(set, revision));
  let bySpec = templatesAt.get(data);
  if (bySpec === undefined) templatesAt.set(data, (bySpec = new WeakMap()));
  let template = bySpec.get(spec);
  if (template === undefined) bySpec.set(spec, (template = templateOf(setAtRevision(set, revision))));
  return template;
}

/** A cache key for an object that never changes once stored (numbers local to this cache). */
const ids = new WeakMap<object, number>();
let nextId = 0;
function idOf(o: object): number {
  let id = ids.get(o);
  if (id === undefined) ids.set(o, (id = nextId++));
  return id;
}

/**
 * A sync's revisions, listed and resolved, by what they depend on: the namespace's revisions, the
 * set's spec, identity, annotations, deletion and the two status fields read. A status write
 * makes a new set object and changes none of these, so syncs in between reuse the answer.
 */
const resolutions = new WeakMap<object, WeakMap<object, Map<string, { readonly listed: readonly KubeObject[]; readonly resolution: Resolution }>>>();
const noRevisions = {};

export function revisionsOf(world: World, set: KubeObject, names: Names): { readonly listed: readonly KubeObject[]; readonly resolution: Resolution } {
  const store = world.objects[controllerRevisionsResource];
  const inNamespace = (store === undefined ? undefined : trieGet(store, set.metadata.namespace ?? '')) ?? noRevisions;
  const status = objectField(set, 'status');
  const spec = set['spec'];
  const key = JSON.stringify([
    isObject(spec) ? idOf(spec) : null,
    set.metadata.uid ?? '',
    set.metadata.name ?? '',
    set.metadata.namespace ?? '',
    set.metadata.deletionTimestamp ?? null,
    set.metadata.annotations ?? null,
    status['collisionCount'] ?? null,
    status['currentRevision'] ?? null,
  ]);
  let byStore = resolutions.get(names);
  if (byStore === undefined) resolutions.set(names, (byStore = new WeakMap()));
  let byKey = byStore.get(inNamespace);
  if (byKey === undefined) byStore.set(inNamespace, (byKey = new Map()));
  let known = byKey.get(key);
  if (known === undefined) {
    const listed = ownedRevisions(world, set);
    known = { listed, resolution: resolveRevisions(world, set, names, listed) };
    if (byKey.size >= 64) byKey.clear();
    byKey.set(key, known);
  }
  return known;
}
