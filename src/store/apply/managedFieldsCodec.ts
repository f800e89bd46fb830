/**
 * The managedFields list, decoded into owners and encoded back.
 *
 * Rules this file keeps:
 * - Decoding is strict: a non-list, an entry that is not an object, a non-string field, an
 *   operation other than Apply/Update, an empty apiVersion, a fieldsType other than FieldsV1 or a
 *   malformed fieldsV1 is an error. A later entry with the same identifier replaces an earlier one.
 * - Encoding drops owners with no fields and sorts as upstream: Apply before Update, then time
 *   (seconds), manager, apiVersion, subresource. An empty result means "no managedFields".
 * Must not know: objects, requests, how owners gain or lose fields.
 */
import type { ManagedFieldsEntry } from '../../api/meta.ts';
import { compareStrings } from '../../core/compareStrings.ts';
import { getOwn, isObject, type JsonObject, type JsonValue } from '../../core/json.ts';
import { emptyFieldSet, isEmptySet } from './fieldSet.ts';
import { parseFieldsV1, toFieldsV1 } from './fieldsV1.ts';
import { ownerId, ownerTimeSeconds, type Owner } from './owners.ts';

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

function compareEntries(p: Owner, q: Owner): number {
  if (p.operation !== q.operation) return p.operation < q.operation ? -1 : 1;
  const tp = ownerTimeSeconds(p.time);
  const tq = ownerTimeSeconds(q.time);
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
