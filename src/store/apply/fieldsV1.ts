/**
 * The FieldsV1 codec: a field set as the `fieldsV1` JSON trie of a managedFields entry, both ways.
 *
 * Rules this file keeps:
 * - Each key is a serialized path element (`f:name`, `k:{...}`, `v:...`, `i:0`); a node with no
 *   children is a member; a node that is both a member and has children carries `".": {}`,
 *   written first. Keys are written in set order, so output is deterministic.
 * - `parseFieldsV1` is strict (malformed keys or non-object nodes are errors); `fromFieldsV1` is
 *   lenient (an invalid trie is the empty set). Unknown element types are skipped, as upstream.
 * Must not know: managedFields entries around the trie, schemas, objects.
 */
import { hasOwn, isObject, setOwn, type JsonObject, type JsonValue } from '../../core/json.ts';
import { emptyFieldSet, type FieldSet } from './fieldSet.ts';
import { builderFinish, newBuilder, type FieldSetBuilder } from './fieldSetBuilder.ts';
import { zipByElement } from './pathElement.ts';
import { parsePathElement, serializePathElement } from './pathString.ts';

// Memoised by identity (sets are immutable, and so are the tries made here once stored): an
// owner a write does not touch keeps its set (fieldSet.ts `difference`), so its trie is encoded
// once, and the next write reads that trie back from here instead of parsing it again.
const encoded = new WeakMap<FieldSet, JsonObject>();
const decoded = new WeakMap<JsonObject, ParsedFieldSet>();

// And by structure: sets built afresh with the same paths (every pod a StatefulSet creates, every
// event a controller records) share one trie, encoded once. A structure is named by a number: its
// elements with its children's numbers, so naming a new set costs its own level, not its depth
// (the string of a whole pod status was built again for every status write). Bounded: past the
// bound it starts over; numbers are never reused, so a set named before still names nothing else.
const byStructure = new Map<number, JsonObject>();
const structureIdsByKey = new Map<string, number>();
const byStructureMax = 4096;
let nextStructureId = 0;
const structureIds = new WeakMap<FieldSet, number>();

/** A number naming the set's paths, equal for equal sets (while the table is not started over). */
function structureId(s: FieldSet): number {
  let id = structureIds.get(s);
  if (id !== undefined) return id;
  let key = '';
  zipByElement(s.members, s.children, (e) => e, (c) => c.element, (m, c) => {
    const el = serializePathElement(m ?? c!.element);
    key += `${el.length}:${el}${m === undefined ? '' : '.'}${c === undefined ? ';' : `{${structureId(c.set)}}`}`;
  });
  id = structureIdsByKey.get(key);
  if (id === undefined) {
    if (structureIdsByKey.size >= byStructureMax) {
      structureIdsByKey.clear();
      byStructure.clear();
    }
    structureIdsByKey.set(key, (id = nextStructureId++));
  }
  structureIds.set(s, id);
  return id;
}

/** The fieldsV1 trie of a set, keys in set order (`"."` first where a node is also owned). Shared: do not mutate. */
export function toFieldsV1(s: FieldSet): JsonObject {
  let out = encoded.get(s);
  if (out === undefined) {
    const id = structureId(s);
    out = byStructure.get(id);
    if (out === undefined) {
      out = encodeLevel(s);
      if (byStructure.size >= byStructureMax) byStructure.clear();
      byStructure.set(id, out);
    }
    encoded.set(s, out);
    if (!decoded.has(out)) decoded.set(out, { ok: true, set: s });
  }
  return out;
}

function encodeLevel(s: FieldSet): JsonObject {
  const out: JsonObject = {};
  zipByElement(s.members, s.children, (e) => e, (c) => c.element, (m, c) => {
    let node: JsonObject = {};
    if (c !== undefined) {
      const inner = toFieldsV1(c.set);
      if (m === undefined) node = inner;
      else {
        setOwn(node, '.', {});
        for (const k of Object.keys(inner)) setOwn(node, k, inner[k]!);
      }
    }
    setOwn(out, serializePathElement(m ?? c!.element), node);
  });
  return out;
}

export type ParsedFieldSet = { ok: true; set: FieldSet } | { ok: false; error: string };

/** Strict reading of a fieldsV1 trie: malformed keys or non-object nodes are errors. */
export function parseFieldsV1(json: JsonValue): ParsedFieldSet {
  const known = isObject(json) ? decoded.get(json) : undefined;
  if (known !== undefined) return known;
  const b = newBuilder();
  const r = readLevel(json, b);
  return r === null ? { ok: true, set: builderFinish(b) } : { ok: false, error: r };
}

/** Lenient reading: an invalid trie gives the empty set. */
export function fromFieldsV1(json: JsonValue): FieldSet {
  const r = parseFieldsV1(json);
  return r.ok ? r.set : emptyFieldSet;
}

/** Reads one node into `b`; returns an error text or null. A node with no children is a member. */
function readLevel(json: JsonValue, b: FieldSetBuilder): string | null {
  if (!isObject(json)) return 'fieldsV1 nodes must be JSON objects';
  for (const key of Object.keys(json)) {
    if (key === '.') continue;
    const parsed = parsePathElement(key);
    if (!parsed.ok) return parsed.error;
    if (parsed.element === null) continue;
    const child = newBuilder();
    const err = readLevel(json[key]!, child);
    if (err !== null) return err;
    const k = serializePathElement(parsed.element);
    const sub = json[key] as JsonObject;
    const hasChildren = child.members.size > 0 || child.children.size > 0;
    if (!hasChildren || hasOwn(sub, '.')) b.members.set(k, parsed.element);
    if (hasChildren) b.children.set(k, { element: parsed.element, node: child });
  }
  return null;
}
