/**
 * The managedFields a write starts from: the stored list, or the one the request carries.
 *
 * Rules this file keeps:
 * - The request may carry managedFields: `[]` or `[{}]` clears them all; a valid non-empty list
 *   replaces the stored one; an invalid or absent list is ignored (the stored one is used).
 * - Writes to a subresource always use the stored list.
 * Must not know: how the write changes fields, schemas.
 */
import { getOwn, isObject, objectField, type JsonObject, type JsonValue } from '../../core/json.ts';
import { decodeManagedFields } from './managedFieldsCodec.ts';
import type { Owner } from './owners.ts';
import { isEmptyContainer } from './schemaShape.ts';

/** `metadata.managedFields` of an object, undefined when absent (or when there is no object). */
export function managedFieldsOf(obj: JsonObject | null): JsonValue | undefined {
  return obj === null ? undefined : getOwn(objectField(obj, 'metadata'), 'managedFields');
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
    const r = decodeManagedFields(managedFieldsOf(live));
    return r.ok ? r.owners : new Map();
  };
  if (subresource !== '') return stored();
  const requested = managedFieldsOf(updated);
  if (isResetRequest(requested)) return new Map();
  const r = decodeManagedFields(requested);
  return r.ok && r.owners.size > 0 ? r.owners : stored();
}
