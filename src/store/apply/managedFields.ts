/**
 * managedFields bookkeeping for writes that are not server-side apply (create, update, patch),
 * plus the encoding shared with apply. Behaviour follows apimachinery's field manager:
 *
 * - Owners are keyed by an identifier: manager, operation, subresource, and the apiVersion for
 *   Update owners only (so an applier keeps one entry whatever version it applies with).
 * - A write compares the stored object with the written one. Changed or added fields move to
 *   the writer's Update entry (taken from every other owner, like a forced apply); removed
 *   fields leave every owner. Owners left with nothing are dropped.
 * - The writer's entry gets the write's time only when it gained fields; otherwise it keeps its
 *   previous time, so a write that changes nothing it owns leaves the entries as they were.
 * - apiVersion, kind, metadata system fields and (when reset) status are never owned.
 * - More than 10 Update owners: the oldest are folded into `ancient-changes` per apiVersion.
 * - Entries are sorted: Apply before Update, then time (seconds), manager, apiVersion,
 *   subresource. An empty result means "no managedFields".
 * - The request may carry managedFields: `[]` or `[{}]` clears them all; a valid non-empty list
 *   replaces the stored one; an invalid or absent list is ignored (the stored one is used).
 *   Writes to a subresource always use the stored list.
 * - A non-empty struct reached through a named field is not owned as a node of its own (Go value
 *   structs always exist); lists, maps and list elements are.
 */
import type { ManagedFieldsEntry } from '../../api/meta.ts';
import type { ListSchema, Schema } from '../../api/schema.ts';
import { parseInstant } from '../../core/duration.ts';
import { deepEqual, getOwn, hasOwn, isObject, type JsonObject, type JsonValue } from '../../core/json.ts';
import {
  compareStrings,
  containerOf,
  difference,
  emptyFieldSet,
  fieldSchema,
  fieldSetFromPaths,
  goJson,
  isDeclaredField,
  isEmptyContainer,
  isEmptySet,
  listItemElement,
  parseFieldsV1,
  pe,
  serializePathElement,
  shapeOf,
  toFieldsV1,
  union,
  withoutUnowned,
  type FieldSet,
  type Path,
  type PathElement,
} from './fieldSet.ts';

export const maxUpdateManagers = 10;
export const ancientChangesManager = 'ancient-changes';

export type Operation = 'Apply' | 'Update';

/** One managedFields entry, decoded. */
export interface Owner {
  readonly manager: string;
  readonly operation: Operation;
  readonly apiVersion: string;
  /** '' for the main resource. */
  readonly subresource: string;
  readonly time?: string;
  readonly fields: FieldSet;
}

/** Owners by identifier. */
export type Owners = ReadonlyMap<string, Owner>;

/** The upstream identifier: the entry's JSON without time, fields, and (for Apply) apiVersion. */
export function ownerId(o: Pick<Owner, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string {
  const parts: string[] = [];
  if (o.manager !== '') parts.push(`"manager":${goJson(o.manager)}`);
  parts.push(`"operation":${goJson(o.operation)}`);
  if (o.operation === 'Update' && o.apiVersion !== '') parts.push(`"apiVersion":${goJson(o.apiVersion)}`);
  if (o.subresource !== '') parts.push(`"subresource":${goJson(o.subresource)}`);
  return `{${parts.join(',')}}`;
}

// ---------------------------------------------------------------------------------------------
// Decoding and encoding

export type DecodedOwners = { ok: true; owners: Map<string, Owner> } | { ok: false; error: string };

function stringField(entry: JsonObject, key: string): string | null {
  const v = getOwn(entry, key);
  if (v === undefined || v === null) return '';
  return typeof v === 'string' ? v : null;
}

function decodeEntry(entry: JsonValue, i: number): { ok: true; owner: Owner } | { ok: false; error: string } {
  if (!isObject(entry)) return { ok: false, error: `managed fields entry ${i} is not an object` };
  const manager = stringField(entry, 'manager');
  const operation = stringField(entry, 'operation');
  const apiVersion = stringField(entry, 'apiVersion');
  const fieldsType = stringField(entry, 'fieldsType');
  const subresource = stringField(entry, 'subresource');
  const time = stringField(entry, 'time');
  if (manager === null || apiVersion === null || subresource === null || time === null) return { ok: false, error: `managed fields entry ${i} has a non-string field` };
  if (operation !== 'Apply' && operation !== 'Update') return { ok: false, error: 'operation must be `Apply` or `Update`' };
  if (apiVersion === '') return { ok: false, error: 'apiVersion must not be empty' };
  if (fieldsType === '') return { ok: false, error: `missing fieldsType in managed fields entry ${i}` };
  if (fieldsType !== 'FieldsV1') return { ok: false, error: `invalid fieldsType "${fieldsType ?? ''}" in managed fields entry ${i}` };
  const raw = getOwn(entry, 'fieldsV1');
  const parsed = raw === undefined || raw === null ? ({ ok: true, set: emptyFieldSet } as const) : parseFieldsV1(raw);
  if (!parsed.ok) return { ok: false, error: `error decoding versioned set: ${parsed.error}` };
  const owner: Owner = { manager, operation, apiVersion, subresource, fields: parsed.set, ...(time === '' ? {} : { time }) };
  return { ok: true, owner };
}

/** Decodes a managedFields list; a later entry with the same identifier replaces an earlier one. */
export function decodeManagedFields(list: JsonValue | undefined): DecodedOwners {
  const owners = new Map<string, Owner>();
  if (list === undefined || list === null) return { ok: true, owners };
  if (!Array.isArray(list)) return { ok: false, error: 'managedFields must be a list' };
  for (let i = 0; i < list.length; i++) {
    const r = decodeEntry(list[i]!, i);
    if (!r.ok) return r;
    owners.set(ownerId(r.owner), r.owner);
  }
  return { ok: true, owners };
}

function timeSeconds(t: string | undefined): number {
  const ms = t === undefined ? null : parseInstant(t);
  return ms === null ? 0 : Math.floor(ms / 1000);
}

function compareEntries(p: Owner, q: Owner): number {
  if (p.operation !== q.operation) return p.operation < q.operation ? -1 : 1;
  const tp = timeSeconds(p.time);
  const tq = timeSeconds(q.time);
  if (tp !== tq) return tp < tq ? -1 : 1;
  return compareStrings(p.manager, q.manager) || compareStrings(p.apiVersion, q.apiVersion) || compareStrings(p.subresource, q.subresource);
}

function encodeOwner(o: Owner): ManagedFieldsEntry {
  const e: ManagedFieldsEntry = {};
  if (o.manager !== '') e.manager = o.manager;
  e.operation = o.operation;
  e.apiVersion = o.apiVersion;
  if (o.time !== undefined) e.time = o.time;
  e.fieldsType = 'FieldsV1';
  e.fieldsV1 = toFieldsV1(o.fields);
  if (o.subresource !== '') e.subresource = o.subresource;
  return e;
}

/** The managedFields list of a set of owners: empty owners dropped, sorted as upstream. */
export function encodeManagedFields(owners: Iterable<Owner>): ManagedFieldsEntry[] {
  return [...owners]
    .filter((o) => !isEmptySet(o.fields))
    .sort(compareEntries)
    .map(encodeOwner);
}

// ---------------------------------------------------------------------------------------------
// The managedFields a request starts from

function metadataOf(obj: JsonObject | null): JsonObject | undefined {
  const m = obj === null ? undefined : getOwn(obj, 'metadata');
  return isObject(m) ? m : undefined;
}

/** `[]` or `[{}]` (an entry with every field empty): the client asks to clear managedFields. */
export function isResetRequest(list: JsonValue | undefined): boolean {
  if (!Array.isArray(list)) return false;
  if (list.length === 0) return true;
  const only = list[0];
  return list.length === 1 && isObject(only) && Object.keys(only).every((k) => isEmptyContainer(only[k]) || only[k] === '');
}

/**
 * The owners a non-apply write starts from:
 * - subresource writes: the stored list (the request's is ignored);
 * - `managedFields: []` or `[{}]` in the request: none (cleared);
 * - a valid, non-empty list in the request: that list (clients may edit managedFields);
 * - otherwise (absent, empty after decoding, or invalid): the stored list, or none if that is
 *   invalid too.
 */
export function requestedManagedFields(updated: JsonObject, live: JsonObject | null, subresource = ''): Map<string, Owner> {
  const stored = (): Map<string, Owner> => {
    const r = decodeManagedFields(getOwn(metadataOf(live) ?? {}, 'managedFields'));
    return r.ok ? r.owners : new Map();
  };
  if (subresource !== '') return stored();
  const requested = getOwn(metadataOf(updated) ?? {}, 'managedFields');
  if (isResetRequest(requested)) return new Map();
  const r = decodeManagedFields(requested);
  return r.ok && r.owners.size > 0 ? r.owners : stored();
}

// ---------------------------------------------------------------------------------------------
// Comparing two versions of an object

export interface Comparison {
  readonly added: FieldSet;
  readonly modified: FieldSet;
  readonly removed: FieldSet;
}

interface Collector {
  readonly added: Path[];
  readonly modified: Path[];
  readonly removed: Path[];
}

/**
 * The fields that differ between `before` and `after` (either may be absent). Leaves (scalars,
 * atomic values, containers empty on both sides) are added, removed or modified; a list, map or
 * list element appearing or disappearing is added or removed as a node too.
 */
export function compareObjects(before: JsonValue | undefined, after: JsonValue | undefined, schema: Schema): Comparison {
  const c: Collector = { added: [], modified: [], removed: [] };
  walk(before, after, schema, [], c, true);
  return { added: fieldSetFromPaths(c.added), modified: fieldSetFromPaths(c.modified), removed: fieldSetFromPaths(c.removed) };
}

function recordLeaf(l: JsonValue | undefined, r: JsonValue | undefined, path: Path, c: Collector): void {
  if (path.length === 0) return;
  if (l === undefined) c.added.push(path);
  else if (r === undefined) c.removed.push(path);
  else if (!deepEqual(l, r)) c.modified.push(path);
}

function walk(l: JsonValue | undefined, r: JsonValue | undefined, schema: Schema | undefined, path: Path, c: Collector, valueStruct: boolean): void {
  const shape = shapeOf(schema);
  const lc = containerOf(l, shape);
  const rc = containerOf(r, shape);
  const leaf = shape === 'leaf' || lc === 'mismatch' || rc === 'mismatch' || (isEmptyContainer(lc) && isEmptyContainer(rc));
  if (leaf) return recordLeaf(l, r, path, c);
  if (shape === 'list') walkList(lc as JsonValue[] | undefined, rc as JsonValue[] | undefined, schema as ListSchema, path, c);
  else walkEntries(lc as JsonObject | undefined, rc as JsonObject | undefined, schema, path, c);
  if (valueStruct || path.length === 0) return;
  if (l === undefined) c.added.push(path);
  else if (r === undefined) c.removed.push(path);
}

/** Items by element, first occurrence wins, in order. Unindexable items are skipped. */
function indexItems(items: readonly JsonValue[] | undefined, list: ListSchema): Map<string, { e: PathElement; v: JsonValue }> {
  const out = new Map<string, { e: PathElement; v: JsonValue }>();
  for (const v of items ?? []) {
    const e = listItemElement(list, v);
    if (typeof e === 'string') continue;
    const k = serializePathElement(e);
    if (!out.has(k)) out.set(k, { e, v });
  }
  return out;
}

function walkList(l: JsonValue[] | undefined, r: JsonValue[] | undefined, list: ListSchema, path: Path, c: Collector): void {
  const li = indexItems(l, list);
  const ri = indexItems(r, list);
  const keys = [...li.keys(), ...[...ri.keys()].filter((k) => !li.has(k))];
  for (const k of keys) {
    const x = li.get(k);
    const y = ri.get(k);
    walk(x?.v, y?.v, list.items, [...path, (x ?? y)!.e], c, false);
  }
}

function walkEntries(l: JsonObject | undefined, r: JsonObject | undefined, schema: Schema | undefined, path: Path, c: Collector): void {
  const lk = l === undefined ? [] : Object.keys(l);
  const keys = [...lk, ...(r === undefined ? [] : Object.keys(r).filter((k) => l === undefined || !hasOwn(l, k)))];
  for (const k of keys) {
    const child = fieldSchema(schema, k);
    const valueStruct = isDeclaredField(schema, k) && shapeOf(child) === 'struct';
    walk(l === undefined ? undefined : getOwn(l, k), r === undefined ? undefined : getOwn(r, k), child, [...path, pe.field(k)], c, valueStruct);
  }
}

/** Drops `metadata.managedFields`, which is bookkeeping and never compared. */
export function withoutManagedFields(obj: JsonObject): JsonObject {
  const meta = getOwn(obj, 'metadata');
  if (!isObject(meta) || !hasOwn(meta, 'managedFields')) return obj;
  const { managedFields: _drop, ...rest } = meta;
  const out: JsonObject = { ...obj };
  Object.defineProperty(out, 'metadata', { value: rest, writable: true, enumerable: true, configurable: true });
  return out;
}

/** A comparison without the never-owned fields and the reset top-level fields. */
export function ownedComparison(c: Comparison, resetFields: readonly string[]): Comparison {
  return { added: withoutUnowned(c.added, resetFields), modified: withoutUnowned(c.modified, resetFields), removed: withoutUnowned(c.removed, resetFields) };
}

// ---------------------------------------------------------------------------------------------
// Capping Update owners

/**
 * Keeps at most `max` Update owners. Oldest first (time, then identifier), the first owner seen
 * for an apiVersion stays; each later one of that version is folded into the version's
 * `ancient-changes` bucket (the first one moving in with it when the bucket is new), until the
 * count fits. The bucket takes the time of the owner folded in last. Owners of distinct
 * apiVersions are never folded together, so the cap may not be reached (as upstream).
 */
export function capUpdateOwners(owners: Map<string, Owner>, max = maxUpdateManagers): Map<string, Owner> {
  const updaters = [...owners.entries()].filter(([, o]) => o.operation === 'Update');
  if (updaters.length <= max) return owners;
  updaters.sort(([ia, a], [ib, b]) => timeSeconds(a.time) - timeSeconds(b.time) || (ia < ib ? -1 : ia > ib ? 1 : 0));
  const out = new Map(owners);
  const firstOfVersion = new Map<string, string>();
  let count = updaters.length;
  for (const [id, o] of updaters) {
    if (count <= max) break;
    const first = firstOfVersion.get(o.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(o.apiVersion, id);
      continue;
    }
    const bucketId = ownerId({ manager: ancientChangesManager, operation: 'Update', apiVersion: o.apiVersion, subresource: '' });
    // Upstream would fold the bucket into itself and lose it; it is already where folds go.
    if (id === bucketId) continue;
    let bucket = out.get(bucketId);
    if (bucket === undefined) {
      bucket = { ...out.get(first)!, manager: ancientChangesManager, subresource: '' };
      out.delete(first);
    }
    const { time: _previousTime, ...rest } = bucket;
    const merged: Owner = { ...rest, fields: union(o.fields, bucket.fields), ...(o.time === undefined ? {} : { time: o.time }) };
    out.delete(id);
    out.set(bucketId, merged);
    count--;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Update bookkeeping

export interface RecordUpdateInput {
  readonly live: JsonObject | null;
  readonly updated: JsonObject;
  readonly manager: string;
  readonly apiVersion: string;
  readonly subresource?: string;
  readonly time: string;
  readonly schema: Schema;
  readonly statusReset: boolean;
}

/** Takes `taken` and `removed` from every owner but `except` (the applier); drops owners left empty. */
export function takeFields(owners: Map<string, Owner>, taken: FieldSet, removed: FieldSet, except?: string): Map<string, Owner> {
  const out = new Map<string, Owner>();
  for (const [id, o] of owners) {
    const fields = id === except ? o.fields : difference(difference(o.fields, taken), removed);
    if (!isEmptySet(fields)) out.set(id, fields === o.fields ? o : { ...o, fields });
  }
  return out;
}

/** The managedFields after a create, update or non-apply patch (see the file header). */
export function recordUpdate(input: RecordUpdateInput): ManagedFieldsEntry[] {
  const subresource = input.subresource ?? '';
  const owners = requestedManagedFields(input.updated, input.live, subresource);
  const before = input.live === null ? {} : withoutManagedFields(input.live);
  const after = withoutManagedFields(input.updated);
  const cmp = ownedComparison(compareObjects(before, after, input.schema), input.statusReset ? ['status'] : []);
  const changed = union(cmp.modified, cmp.added);
  const next = takeFields(owners, changed, cmp.removed);
  if (!isEmptySet(changed)) {
    const me = { manager: input.manager === '' ? 'unknown' : input.manager, operation: 'Update' as const, apiVersion: input.apiVersion, subresource };
    const id = ownerId(me);
    const previous = next.get(id)?.fields ?? emptyFieldSet;
    next.set(id, { ...me, time: input.time, fields: union(changed, previous) });
  }
  return encodeManagedFields(capUpdateOwners(next).values());
}
