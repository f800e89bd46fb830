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
import { compareObjects, ownedComparison } from './compareObjects.ts';
import { difference, emptyFieldSet, isEmptySet, union, type FieldSet } from './fieldSet.ts';
import { encodeManagedFields } from './managedFieldsCodec.ts';
import { ownerId, type Owner } from './owners.ts';
import { managedFieldsOf, requestedManagedFields } from './requestedManagedFields.ts';

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
  const cmp = ownedComparison(compareObjects(input.live ?? {}, input.updated, input.schema), input.statusReset ? ['status'] : []);
  const changed = union(cmp.modified, cmp.added);
  const next = takeFields(owners, changed, cmp.removed);
  if (!isEmptySet(changed)) {
    const me = { manager: input.manager === '' ? 'unknown' : input.manager, operation: 'Update' as const, apiVersion: input.apiVersion, subresource };
    const id = ownerId(me);
    // (S − changed − removed) ∪ changed is (S − removed) ∪ changed (changed and removed are
    // disjoint), and computed this way it is S itself when the write only touches fields the
    // writer owns: its encoding is then reused instead of built again (fieldsV1.ts).
    const previous = owners.get(id)?.fields;
    next.set(id, { ...me, time: input.time, fields: union(changed, previous === undefined ? emptyFieldSet : difference(previous, cmp.removed)) });
  }
  return sameOrNew(managedFieldsOf(input.live), encodeManagedFields(capUpdateOwners(next).values()));
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
