/**
 * Step 3 of server-side apply: the configuration merged into the live object.
 *
 * Rules this file keeps:
 * - Structs and granular maps merge key by key, list-maps by key and sets by value; atomic
 *   values and scalars are replaced. A value that is not the container its schema expects is
 *   replaced whole.
 * - List order as upstream: live items the configuration does not mention keep their place,
 *   applied items follow the applied order.
 * - Explicit nulls of the configuration are owned but not stored (`stripNulls`), as Go decodes
 *   them to nothing.
 * Must not know: owners, field sets, conflicts; what was applied last time (prune's business).
 */
import type { ListSchema, Schema } from '../../api/schema.ts';
import { cloneJson, hasOwn, isObject, setOwn, type JsonObject, type JsonValue } from '../../core/json.ts';
import { serializePathElement } from './pathString.ts';
import { containerOf, fieldSchema, isEmptyContainer, listItemElement, shapeOf } from './schemaShape.ts';

/** The live object (without managedFields) with the configuration merged in. */
export function mergeConfiguration(live: JsonObject, config: JsonObject, schema: Schema): JsonObject {
  return (mergeValue(live, config, schema) ?? {}) as JsonObject;
}

/** `r` merged into `l`; undefined only when both are. */
function mergeValue(l: JsonValue | undefined, r: JsonValue | undefined, schema: Schema | undefined): JsonValue | undefined {
  if (r === undefined) return l;
  if (l === undefined) return cloneJson(r);
  const shape = shapeOf(schema);
  const lc = containerOf(l, shape);
  const rc = containerOf(r, shape);
  if (shape === 'leaf' || lc === 'mismatch' || rc === 'mismatch' || (isEmptyContainer(lc) && isEmptyContainer(rc))) return cloneJson(r);
  if (shape === 'list') return mergeList((lc ?? []) as JsonValue[], (rc ?? []) as JsonValue[], schema as ListSchema);
  return mergeEntries((lc ?? {}) as JsonObject, (rc ?? {}) as JsonObject, schema);
}

function mergeEntries(l: JsonObject, r: JsonObject, schema: Schema | undefined): JsonObject {
  const out: JsonObject = {};
  const put = (k: string, v: JsonValue | undefined): void => {
    if (v !== undefined) setOwn(out, k, v);
  };
  for (const k of Object.keys(l)) put(k, hasOwn(r, k) ? mergeValue(l[k], r[k], fieldSchema(schema, k)) : l[k]);
  for (const k of Object.keys(r)) if (!hasOwn(l, k)) put(k, cloneJson(r[k]!));
  return out;
}

interface ListItem {
  readonly key: string;
  readonly value: JsonValue;
}

/** Items with their element keys; unkeyable live items get a key of their own so they stay. */
function keyItems(items: readonly JsonValue[], list: ListSchema, tag: string): ListItem[] {
  return items.map((value, i) => {
    const e = listItemElement(list, value);
    return { key: typeof e === 'string' ? `${tag}${i}` : serializePathElement(e), value };
  });
}

/**
 * Merges a granular list. Walking both lists at once: a live item the configuration does not
 * mention is kept where it is; a live item it does mention is emitted when the configuration
 * reaches it (so shared items follow the applied order); configuration items are emitted in order,
 * each merged with its live counterpart. A live element listed twice merges as null.
 */
function mergeList(l: readonly JsonValue[], r: readonly JsonValue[], list: ListSchema): JsonValue[] | undefined {
  const lhs = keyItems(l, list, '\u0000live:');
  const rhs = keyItems(r, list, '\u0000applied:');
  const liveByKey = new Map<string, JsonValue>();
  for (const it of lhs) liveByKey.set(it.key, liveByKey.has(it.key) ? null : it.value);
  const appliedKeys = new Set(rhs.map((it) => it.key));
  const shared = rhs.filter((it) => liveByKey.has(it.key)).map((it) => it.key);
  const emitted = new Set<string>();
  const out: JsonValue[] = [];
  let nextShared = 0;
  const emitApplied = (it: ListItem): void => {
    emitted.add(it.key);
    const v = mergeValue(liveByKey.get(it.key), it.value, list.items);
    if (v !== undefined) out.push(v);
    if (shared[nextShared] === it.key) nextShared++;
  };
  let li = 0;
  let ri = 0;
  // Every round consumes a live or an applied item, so lhs + rhs rounds are enough.
  for (let round = 0; round <= lhs.length + rhs.length && (li < lhs.length || ri < rhs.length); round++) {
    const lk = lhs[li]?.key;
    if (lk !== undefined && ri < rhs.length) {
      if (lk === rhs[ri]!.key) {
        emitApplied(rhs[ri]!);
        li++;
        ri++;
        continue;
      }
      // A shared live item that is not the next one the configuration reaches: it comes later.
      if (appliedKeys.has(lk) && nextShared < shared.length && shared[nextShared] !== lk) {
        li++;
        continue;
      }
    }
    if (lk !== undefined) {
      if (!appliedKeys.has(lk)) {
        out.push(lhs[li]!.value);
        li++;
        continue;
      }
      if (emitted.has(lk)) li++;
    }
    if (ri < rhs.length) {
      emitApplied(rhs[ri]!);
      ri++;
    }
  }
  return out.length > 0 ? out : undefined;
}

/** Explicit nulls of the configuration are owned but not stored (Go decodes them to nothing). */
export function stripNulls(v: JsonValue, schema: Schema | undefined): JsonValue {
  const shape = shapeOf(schema);
  if (Array.isArray(v)) return shape === 'list' ? v.map((x) => stripNulls(x, (schema as ListSchema).items)) : v;
  if (!isObject(v) || schema === undefined || schema.type === 'any') return v;
  if (schema.type !== 'struct' && schema.type !== 'map') return v;
  const out: JsonObject = {};
  for (const k of Object.keys(v)) {
    const x = v[k]!;
    if (x !== null) setOwn(out, k, stripNulls(x, fieldSchema(schema, k)));
  }
  return out;
}
