/**
 * The managedFields a non-apply write leaves, shared across objects. When a write starts from the
 * stored list (it carries none of its own), its result is a function of that list's entries, the
 * writer, the write's time and the fields it changed (managedFields.ts). Objects made alike have
 * lists alike — the same managers, times and fieldsV1 objects, which are shared by structure
 * (fieldsV1.ts) — so the first write of each of them (a label added to a thousand objects, a
 * field set on every account) computes one result for all of them: the owners decoded, compared,
 * taken, capped and encoded once.
 *
 * Keys name every input by value but the fieldsV1 objects, which they name by identity (a number
 * per object), so that a hit gives the very entries the full computation would. A list with
 * anything decoding would refuse is not keyed. Bounded: past the bound the table starts over,
 * which costs only the computations.
 */
import type { ManagedFieldsEntry } from '../../api/meta.ts';
import { isObject, type JsonValue } from '../../core/json.ts';
import type { OwnedChanges } from './compareObjects.ts';
import type { Path } from './pathElement.ts';
import { serializePathElement } from './pathString.ts';

const results = new Map<string, ManagedFieldsEntry[]>();
const resultsMax = 4096;
const fieldsV1Ids = new WeakMap<object, number>();
let nextFieldsV1Id = 0;

/** The entry fields decoding reads as strings (managedFieldsCodec.ts), in a fixed order. */
const stringFields = ['manager', 'operation', 'apiVersion', 'fieldsType', 'subresource', 'time'] as const;

function fieldsV1Id(v: object): number {
  let id = fieldsV1Ids.get(v);
  if (id === undefined) {
    id = nextFieldsV1Id++;
    fieldsV1Ids.set(v, id);
  }
  return id;
}

/** The key of a write by `writer` at `time` changing `paths`, from the stored list `stored`; null when not keyed. */
export function sharedUpdateKey(stored: readonly JsonValue[], writer: string, time: string, paths: OwnedChanges): string | null {
  let key = `${writer.length}:${writer}${time.length}:${time}`;
  for (const entry of stored) {
    if (!isObject(entry)) return null;
    for (const f of stringFields) {
      const v = Object.hasOwn(entry, f) ? entry[f] : undefined;
      if (v !== undefined && typeof v !== 'string') return null;
      // Absent and empty read the same (stringField); a NUL cannot be told apart in the key.
      const text = v ?? '';
      if (text.includes('\u0000')) return null;
      key += `\u0000${text}`;
    }
    const fieldsV1 = Object.hasOwn(entry, 'fieldsV1') ? entry['fieldsV1'] : undefined;
    if (fieldsV1 === undefined || fieldsV1 === null) key += '\u0000-';
    else if (isObject(fieldsV1)) key += `\u0000#${fieldsV1Id(fieldsV1)}`;
    else return null;
  }
  for (const list of [paths.added, paths.modified, paths.removed]) {
    key += '\u0001';
    for (const p of list) key += pathKey(p);
  }
  return key;
}

/** A path, unambiguously: each element's serialized form with its length. */
function pathKey(p: Path): string {
  let out = `/${p.length}`;
  for (const e of p) {
    const s = serializePathElement(e);
    out += `${s.length}:${s}`;
  }
  return out;
}

export function knownUpdate(key: string): ManagedFieldsEntry[] | undefined {
  return results.get(key);
}

export function rememberUpdate(key: string, list: ManagedFieldsEntry[]): void {
  if (results.size >= resultsMax) results.clear();
  results.set(key, list);
}
