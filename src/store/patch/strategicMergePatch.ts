/**
 * Strategic merge patch, driven by the kind's schema facts: maps merge recursively (`null`
 * deletes), lists with `patchStrategy: merge` merge by their merge key, primitive merge lists are
 * unions, other lists are replaced. The merged list's order is apimachinery's
 * normalizeElementOrder: patched items in patch order, untouched items in live order, interleaved
 * by their live positions (a new item goes before the untouched ones). Directives: `$patch` (replace / delete / merge), `$setElementOrder/<f>`,
 * `$deleteFromPrimitiveList/<f>`, `$retainKeys`. Fields the schema does not know merge as in a
 * JSON merge patch. Errors map to the real server's answers, except that a malformed patch the real
 * server answers with a reasonless 500 (missing merge key, bad `$patch`) is a 400 BadRequest with
 * the same message here: a client's mistake never gets a 5xx (docs/divergences.md).
 */
import type { ListSchema, Schema } from '../../api/schema.ts';
import { goV } from '../../core/goFormat.ts';
import { cloneJson, deepEqual, getOwn, hasOwn, isObject, setOwn, type JsonObject, type JsonValue } from '../../core/json.ts';
import { errors, type ApiError } from '../../core/status.ts';
import type { PatchResult } from './types.ts';

class SmpError extends Error {
  constructor(readonly error: ApiError) {
    super(error.status.message);
  }
}

const setOrderPrefix = '$setElementOrder/';
const deletePrefix = '$deleteFromPrimitiveList/';

/** Go's `%s` of a decoded JSON value: strings bare, other scalars as `%!s(float64=1)`. */
function goS(v: JsonValue): string {
  if (typeof v === 'string') return v;
  if (v === null) return '%!s(<nil>)';
  if (typeof v === 'number') return `%!s(float64=${goV(v)})`;
  if (typeof v === 'boolean') return `%!s(bool=${String(v)})`;
  return goV(v);
}

function fieldSchemaOf(schema: Schema | undefined, key: string): Schema | undefined {
  if (schema === undefined) return undefined;
  if (schema.type === 'struct') return hasOwn(schema.fields, key) ? schema.fields[key] : undefined;
  if (schema.type === 'map') return schema.values;
  return undefined;
}

function stripDirectives(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.filter((x) => !(isObject(x) && hasOwn(x, '$patch') && Object.keys(x).length === 1)).map(stripDirectives);
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  for (const k of Object.keys(v)) if (!k.startsWith('$')) setOwn(out, k, stripDirectives(v[k]!));
  return out;
}

function mergeMap(doc: JsonObject, patch: JsonObject, schema: Schema | undefined): JsonObject {
  const directive = patch['$patch'];
  if (directive !== undefined) {
    if (directive === 'replace') return stripDirectives(patch) as JsonObject;
    if (directive === 'delete') return {};
    if (directive !== 'merge') throw new SmpError(errors.badRequest(`unknown patch type: ${goS(directive)} in map: ${goV(patch)}`));
  }
  const out: JsonObject = {};
  for (const k of Object.keys(doc)) setOwn(out, k, doc[k]!);
  for (const k of Object.keys(patch)) {
    if (k === '$patch' || k === '$retainKeys' || k.startsWith(setOrderPrefix) || k.startsWith(deletePrefix)) continue;
    const p = patch[k]!;
    if (p === null) {
      delete out[k];
      continue;
    }
    const fs = fieldSchemaOf(schema, k);
    const cur = hasOwn(out, k) ? out[k]! : undefined;
    if (isObject(p)) setOwn(out, k, mergeMap(isObject(cur) ? cur : {}, p, fs));
    else if (Array.isArray(p) && fs?.type === 'list') setOwn(out, k, mergeList(Array.isArray(cur) ? cur : [], p, fs));
    else setOwn(out, k, cloneJson(p));
  }
  for (const k of Object.keys(patch)) {
    if (k.startsWith(deletePrefix)) {
      const field = k.slice(deletePrefix.length);
      const drop = patch[k];
      if (!Array.isArray(drop)) throw new SmpError(errors.badRequest('invalid patch format of primitive list'));
      const list = getOwn(out, field);
      if (Array.isArray(list)) setOwn(out, field, list.filter((x) => !drop.some((d) => deepEqual(d, x))));
    }
  }
  for (const k of Object.keys(patch)) {
    if (k.startsWith(setOrderPrefix)) {
      const field = k.slice(setOrderPrefix.length);
      const order = patch[k];
      if (!Array.isArray(order)) throw new SmpError(errors.badRequest('invalid patch format of setElementOrder list'));
      const fs = fieldSchemaOf(schema, field);
      const list = getOwn(out, field);
      if (Array.isArray(list)) setOwn(out, field, reorder(list, order, fs?.type === 'list' ? fs.patchMergeKey : undefined));
    }
  }
  if (hasOwn(patch, '$retainKeys')) {
    const keep = patch['$retainKeys'];
    if (!Array.isArray(keep) || keep.some((x) => typeof x !== 'string')) throw new SmpError(errors.badRequest('invalid patch format of retainKeys'));
    for (const k of Object.keys(out)) if (!keep.includes(k)) delete out[k];
  }
  return out;
}

function reorder(list: JsonValue[], order: JsonValue[], key: string | undefined): JsonValue[] {
  const id = (x: JsonValue): JsonValue => (key !== undefined && isObject(x) ? (getOwn(x, key) ?? null) : x);
  const wanted = order.map((o) => (key !== undefined && isObject(o) ? (getOwn(o, key) ?? null) : o));
  const ranked = list.map((x, i) => {
    const r = wanted.findIndex((w) => deepEqual(w, id(x)));
    return { x, rank: r < 0 ? wanted.length + i : r };
  });
  return ranked.sort((a, b) => a.rank - b.rank).map((e) => e.x);
}

/**
 * mergeSortedSlice: interleaves the patched items (left) with the untouched live ones (right),
 * keeping each side's order; a patched item comes first unless both are live and it sits later.
 */
function interleave(patched: JsonValue[], untouched: JsonValue[], liveIndex: (x: JsonValue) => number): JsonValue[] {
  const out: JsonValue[] = [];
  let i = 0;
  let j = 0;
  while (i < patched.length && j < untouched.length) {
    const li = liveIndex(patched[i]!);
    const ri = liveIndex(untouched[j]!);
    if (li < 0 || ri < 0 || li < ri) out.push(patched[i++]!);
    else out.push(untouched[j++]!);
  }
  return [...out, ...patched.slice(i), ...untouched.slice(j)];
}

function mergeList(doc: JsonValue[], patch: JsonValue[], schema: ListSchema): JsonValue[] {
  if (schema.patchStrategy !== 'merge') return stripDirectives(patch) as JsonValue[];
  const key = schema.patchMergeKey;
  if (key === undefined) {
    // Primitive merge list: a union; patched values in patch order, interleaved with the rest.
    const items = patch.filter((x) => !(isObject(x) && hasOwn(x, '$patch')));
    if (patch.some((x) => isObject(x) && x['$patch'] === 'replace')) return items;
    const untouched = doc.filter((x) => !items.some((p) => deepEqual(p, x)));
    const patched = items.filter((x, i) => items.findIndex((y) => deepEqual(x, y)) === i);
    return interleave(patched, untouched, (x) => doc.findIndex((d) => deepEqual(d, x)));
  }
  if (patch.some((x) => isObject(x) && x['$patch'] === 'replace' && Object.keys(x).length === 1)) {
    return patch.filter((x) => !(isObject(x) && hasOwn(x, '$patch'))).map(stripDirectives);
  }
  const remaining = [...doc];
  const patched: JsonValue[] = [];
  for (const p of patch) {
    if (!isObject(p) || !hasOwn(p, key)) throw new SmpError(errors.badRequest(`map: ${goV(p)} does not contain declared merge key: ${key}`));
    if (p['$patch'] === 'merge') throw new SmpError(errors.badRequest('merging lists cannot yet be specified in the patch'));
    const at = remaining.findIndex((x) => isObject(x) && deepEqual(getOwn(x, key), getOwn(p, key)));
    const existing = at >= 0 ? remaining.splice(at, 1)[0]! : undefined;
    if (p['$patch'] === 'delete') continue;
    patched.push(mergeMap(isObject(existing) ? existing : {}, p, schema.items));
  }
  const keyOf = (x: JsonValue): JsonValue => (isObject(x) ? (getOwn(x, key) ?? null) : null);
  return interleave(patched, remaining, (x) => doc.findIndex((d) => deepEqual(keyOf(d), keyOf(x))));
}

export function applyStrategicMergePatch(doc: JsonObject, patch: JsonObject, schema: Schema): PatchResult {
  try {
    return { ok: true, value: mergeMap(doc, patch, schema) };
  } catch (e) {
    if (e instanceof SmpError) return { ok: false, error: e.error };
    throw e;
  }
}

