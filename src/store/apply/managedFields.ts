/**
 * managedFields bookkeeping for writes that are not server-side apply (create, update, patch).
 * Behaviour follows apimachinery's field manager:
 *
 * - A write compares the stored object with the written one (compareObjects.ts). Changed or added
 *   fields move to the writer's Update entry (taken from every other owner, like a forced apply);
 *   removed fields leave every owner. Owners left with nothing are dropped.
 * - The writer's entry gets the write's time only when it gained fields; otherwise it keeps its
 *   previous time, so a write that changes nothing it owns leaves the entries as they were.
 * - apiVersion, kind, metadata system fields and (when reset) status are never owned.
 * - The owners the write starts from are the stored or requested ones (requestedManagedFields.ts);
 *   too many Update owners fold into `ancient-changes` (capUpdateOwners.ts); the result is encoded
 *   sorted (managedFieldsCodec.ts).
 * Must not know: server-side apply's merge, prune and conflicts (serverSideApply.ts).
 */
import type { ManagedFieldsEntry } from '../../api/meta.ts';
import type { Schema } from '../../api/schema.ts';
import { getOwn, isObject, type JsonObject, type JsonValue } from '../../core/json.ts';
import { capUpdateOwners } from './capUpdateOwners.ts';
import { comparisonOf, ownedChanges, type OwnedChanges } from './compareObjects.ts';
import { difference, emptyFieldSet, hasPath, isEmptySet, union, type FieldSet } from './fieldSet.ts';
import { encodeManagedFields } from './managedFieldsCodec.ts';
import { ownerId, type Owner } from './owners.ts';
import { managedFieldsOf, requestedManagedFields } from './requestedManagedFields.ts';
import { knownUpdate, rememberUpdate, sharedUpdateKey } from './sharedUpdates.ts';

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

/** The reset fields of a resource whose status is reset on the main resource. */
const statusOnly: readonly string[] = ['status'];

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
  const paths = ownedChanges(input.live ?? {}, input.updated, input.schema, input.statusReset ? statusOnly : []);
  const me = { manager: input.manager === '' ? 'unknown' : input.manager, operation: 'Update' as const, apiVersion: input.apiVersion, subresource };
  const id = ownerId(me);
  const stored = managedFieldsOf(input.live);
  const fromStored = startsFromStored(input, stored, subresource);
  if (fromStored && keepsStoredList(stored, id, input.time, paths)) return stored as ManagedFieldsEntry[];
  // The same write from an alike list (sharedUpdates.ts): its result, compared with this list.
  const shared = fromStored ? sharedUpdateKey(stored as JsonValue[], id, input.time, paths) : null;
  const known = shared === null ? undefined : knownUpdate(shared);
  if (known !== undefined) return sameOrNew(stored, known);
  const cmp = comparisonOf(paths);
  const changed = union(cmp.modified, cmp.added);
  const owners = requestedManagedFields(input.updated, input.live, subresource);
  const next = takeFields(owners, changed, cmp.removed);
  if (!isEmptySet(changed)) {
    // (S − changed − removed) ∪ changed is (S − removed) ∪ changed (changed and removed are
    // disjoint), and computed this way it is S itself when the write only touches fields the
    // writer owns: its encoding is then reused instead of built again (fieldsV1.ts).
    const previous = owners.get(id)?.fields;
    const fields = union(changed, previous === undefined ? emptyFieldSet : difference(previous, cmp.removed));
    // A literal, not `{ ...me, time, fields }`: a spread given new keys is built on V8's slow path.
    next.set(id, { manager: me.manager, operation: me.operation, apiVersion: me.apiVersion, subresource: me.subresource, time: input.time, fields });
  }
  const capped = capUpdateOwners(next);
  const result = sameOrNew(stored, encodeManagedFields(capped.values()));
  if (shared !== null) rememberUpdate(shared, result);
  if (fromStored && result === stored && !isEmptySet(changed) && capped === next && owners.get(id)?.time === input.time) {
    keptLists.set(stored as object, { writer: id, time: input.time, owners: [...owners] });
  }
  return result;
}

/**
 * A stored list that a write by `writer` at `time` gave back unchanged, with its owners decoded.
 * Such a write changed only fields the writer owned (so its entry kept its fields, and already had
 * this time), took none from anyone else and removed none anyone owned; every later write by the
 * same writer at the same instant that does the same leaves the same owners, whose encoding is
 * that same list. Controllers and clients rewriting their own fields at one instant (a status
 * update, a label toggled in a loop) then skip decoding, taking, capping and encoding.
 */
interface KeptList {
  readonly writer: string;
  readonly time: string;
  readonly owners: readonly (readonly [string, Owner])[];
}
const keptLists = new WeakMap<object, KeptList>();

/** Whether the write starts from the stored owners (requestedManagedFields.ts): it carries no list of its own, or the stored one. */
function startsFromStored(input: RecordUpdateInput, stored: JsonValue | undefined, subresource: string): boolean {
  if (!Array.isArray(stored)) return false;
  if (subresource !== '') return true;
  const requested = managedFieldsOf(input.updated);
  return requested === undefined || requested === stored;
}

/**
 * Whether the write leaves `stored` as it is: see KeptList. Asked of the changed paths before any
 * set is built from them: a set made of paths is a subset of an owner's set when the owner has
 * each path, and disjoint from it when the owner has none (a member does not cover deeper paths).
 */
function keepsStoredList(stored: JsonValue | undefined, writer: string, time: string, changes: OwnedChanges): boolean {
  const kept = keptLists.get(stored as object);
  if (kept === undefined || kept.writer !== writer || kept.time !== time) return false;
  for (const [id, o] of kept.owners) {
    // Nobody loses a field (takeFields keeps every set itself), and the writer gains none.
    for (const p of changes.removed) if (hasPath(o.fields, p)) return false;
    const mine = id === writer;
    for (const p of changes.modified) if (hasPath(o.fields, p) !== mine) return false;
    for (const p of changes.added) if (hasPath(o.fields, p) !== mine) return false;
  }
  return true;
}

/**
 * The stored list itself when the new one says the same (most writes change only fields their
 * writer already owns, at the instant it last wrote): the next version then shares it, so the
 * write neither keeps a second copy nor compares one. The encoder returns the stored tries
 * themselves for unchanged sets (fieldsV1.ts), so comparing tries by identity finds that case.
 */
function sameOrNew(stored: JsonValue | undefined, fresh: ManagedFieldsEntry[]): ManagedFieldsEntry[] {
  if (!Array.isArray(stored) || stored.length !== fresh.length) return fresh;
  for (let i = 0; i < fresh.length; i++) {
    const a = stored[i];
    const b = fresh[i]! as Readonly<Record<string, unknown>>;
    const keys = Object.keys(b);
    if (!isObject(a) || Object.keys(a).length !== keys.length) return fresh;
    for (const k of keys) if (getOwn(a, k) !== b[k]) return fresh;
  }
  return stored as ManagedFieldsEntry[];
}
