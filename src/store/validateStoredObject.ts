/**
 * Whether a value from a saved world can be a stored object of its kind: the shape the machinery
 * and the controllers read without checking again (they trust what the API stored). Its type meta
 * is the kind's, its name and namespace are its keys', it has a uid and a decimal resourceVersion,
 * and every field has its schema's type — as the typed decoder would have left it, plus the
 * `null`s Go writes for unset scalars (`lastProbeTime: null`). No field the schema does not know;
 * owner references complete and the few fields validation requires that controllers read blindly.
 * Consistency across the world (revisions, owners) is validateWorld's; invariants the checkers
 * prove (resourceVersion not beyond the revision) are theirs.
 *
 * Problems are strings that start with their path (`.spec.replicas: …`, `["a"]: …`), built only
 * on the way out of a failure: a valid object costs one walk and no allocation.
 */
import type { Schema, StructSchema } from '../api/schema.ts';
import { parseInstant } from '../core/duration.ts';
import { getOwn, isObject, type JsonObject } from '../core/json.ts';
import { limits } from '../core/limits.ts';
import { decodeGoBase64 } from '../registry/certificates/goBase64.ts';
import type { ResourceType } from '../registry/types.ts';

/** A value as a problem message shows it: short JSON. */
export function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  let text: string;
  try {
    text = typeof v === 'function' ? 'a function' : typeof v === 'bigint' ? `${v}n` : (JSON.stringify(v) ?? String(v));
  } catch {
    text = Array.isArray(v) ? 'an array' : 'an object';
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** `.name` for identifiers, `["some key"]` otherwise. */
export function keySegment(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/**
 * A JSON value (null, boolean, finite number, string, array, object; undefined properties
 * count as absent) nested at most `depthLeft` levels: what hashing, snapshots and JSON answers
 * can write without throwing (a bigint, a symbol) or overflowing the stack.
 */
export function jsonValueProblem(v: unknown, depthLeft: number): string | null {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return null;
  if (typeof v === 'number') return Number.isFinite(v) ? null : `: must be a finite number, not ${show(v)}`;
  if (typeof v !== 'object') return `: must be JSON, not ${show(v)}`;
  if (depthLeft <= 0) return `: nested deeper than ${limits.jsonDepthMax} levels`;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = jsonValueProblem(v[i], depthLeft - 1);
      if (p !== null) return `[${i}]${p}`;
    }
    return null;
  }
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const x = o[k];
    if (x === undefined) continue;
    const p = jsonValueProblem(x, depthLeft - 1);
    if (p !== null) return `${keySegment(k)}${p}`;
  }
  return null;
}

const quickBase64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const int32 = 2 ** 31;
const int64 = 2 ** 63;

/** The first problem of `v` under `schema`, or null. `depth`: levels above it within the object. */
function typedProblem(v: unknown, schema: Schema, depth: number): string | null {
  if (v === null) {
    // Go writes null for an unset scalar it does not omit; a struct, list or map the code reads
    // into is never null once decoded.
    return schema.type === 'struct' || schema.type === 'list' || schema.type === 'map' ? `: must be ${expected(schema)}, not null` : null;
  }
  switch (schema.type) {
    case 'any':
      return jsonValueProblem(v, limits.jsonDepthMax - depth);
    case 'string':
      if (typeof v !== 'string') return mismatch(v, schema);
      if (schema.format === 'date-time' && parseInstant(v) === null) return `: must be an RFC 3339 time, not ${show(v)}`;
      if (schema.format === 'byte' && !quickBase64.test(v) && !decodeGoBase64(v).ok) return `: must be base64, not ${show(v)}`;
      return null;
    case 'boolean':
      return typeof v === 'boolean' ? null : mismatch(v, schema);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v) ? null : mismatch(v, schema);
    case 'integer': {
      const bound = schema.format === 'int32' ? int32 : int64;
      return typeof v === 'number' && Number.isInteger(v) && v < bound && v >= -bound ? null : mismatch(v, schema);
    }
    case 'int-or-string':
    case 'quantity':
      return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) ? null : mismatch(v, schema);
    case 'map': {
      if (!isObject(v)) return mismatch(v, schema);
      if (depth >= limits.jsonDepthMax) return `: nested deeper than ${limits.jsonDepthMax} levels`;
      for (const k of Object.keys(v)) {
        const x = v[k];
        if (x === undefined) continue;
        const p = typedProblem(x, schema.values, depth + 1);
        if (p !== null) return `[${JSON.stringify(k)}]${p}`;
      }
      return null;
    }
    case 'list': {
      if (!Array.isArray(v)) return mismatch(v, schema);
      if (depth >= limits.jsonDepthMax) return `: nested deeper than ${limits.jsonDepthMax} levels`;
      for (let i = 0; i < v.length; i++) {
        const p = typedProblem(v[i], schema.items, depth + 1);
        if (p !== null) return `[${i}]${p}`;
      }
      return null;
    }
    case 'struct':
      return structProblem(v, schema, depth);
  }
}

/** A struct's fields as a Map: a lookup that no key (`constructor`, `__proto__`) can mistake for inherited. */
const fieldMaps = new WeakMap<StructSchema, ReadonlyMap<string, Schema>>();

function fieldsOf(schema: StructSchema): ReadonlyMap<string, Schema> {
  let m = fieldMaps.get(schema);
  if (m === undefined) fieldMaps.set(schema, (m = new Map(Object.entries(schema.fields))));
  return m;
}

function structProblem(v: unknown, schema: StructSchema, depth: number): string | null {
  if (!isObject(v)) return mismatch(v, schema);
  if (depth >= limits.jsonDepthMax) return `: nested deeper than ${limits.jsonDepthMax} levels`;
  const known = fieldsOf(schema);
  for (const k of Object.keys(v)) {
    const x = v[k];
    if (x === undefined) continue;
    const field = known.get(k);
    if (field === undefined) return `${keySegment(k)}: unknown field (${schema.goName} has no such field)`;
    const p = typedProblem(x, field, depth + 1);
    if (p !== null) return `${keySegment(k)}${p}`;
  }
  return null;
}

function expected(schema: Schema): string {
  switch (schema.type) {
    case 'integer':
      return `an integer (${schema.format})`;
    case 'number':
      return 'a finite number';
    case 'int-or-string':
    case 'quantity':
      return 'a number or a string';
    case 'struct':
      return `an object (${schema.goName})`;
    case 'map':
      return 'an object';
    case 'list':
      return 'a list';
    default:
      return `a ${schema.type}`;
  }
}

function mismatch(v: unknown, schema: Schema): string {
  return `: must be ${expected(schema)}, not ${show(v)}`;
}

/** Where a stored object sits, and what its type meta must say. */
export interface ObjectPlace {
  readonly rt: ResourceType;
  readonly apiVersion: string;
  readonly namespace: string;
  readonly name: string;
}

const decimal = /^[1-9]\d*$/;

/**
 * The first problem of a stored object at its place (its path is the caller's), or null.
 * Type meta and keys are checked before the fields, so a misplaced object says so first.
 */
export function storedObjectProblem(o: unknown, place: ObjectPlace): string | null {
  if (!isObject(o)) return `: must be a stored ${place.rt.kind}, not ${show(o)}`;
  if (o['apiVersion'] !== place.apiVersion) return `.apiVersion: must be "${place.apiVersion}", not ${show(o['apiVersion'])}`;
  if (o['kind'] !== place.rt.kind) return `.kind: must be "${place.rt.kind}", not ${show(o['kind'])}`;
  const meta = o['metadata'];
  if (!isObject(meta)) return `.metadata: must be an object, not ${show(meta)}`;
  if (meta['name'] !== place.name) return `.metadata.name: must be its key "${place.name}", not ${show(meta['name'])}`;
  const ns = meta['namespace'];
  if (place.rt.namespaced ? ns !== place.namespace : ns !== undefined && ns !== '') {
    return `.metadata.namespace: must be ${place.rt.namespaced ? `its key "${place.namespace}"` : 'absent (cluster-scoped)'}, not ${show(ns)}`;
  }
  if (typeof meta['uid'] !== 'string' || meta['uid'] === '') return `.metadata.uid: must be a non-empty string, not ${show(meta['uid'])}`;
  const rv = meta['resourceVersion'];
  if (typeof rv !== 'string' || !decimal.test(rv) || !Number.isSafeInteger(Number(rv))) return `.metadata.resourceVersion: must be a positive decimal integer, not ${show(rv)}`;
  return structProblem(o, place.rt.schema, 0) ?? ownerReferencesProblem(meta['ownerReferences']) ?? requiredProblem(o, place.rt);
}

const ownerReferenceFields = ['apiVersion', 'kind', 'name', 'uid'] as const;

/** ObjectMeta validation's rule, which the garbage collector relies on: every reference is complete. */
function ownerReferencesProblem(refs: unknown): string | null {
  if (!Array.isArray(refs)) return null;
  for (let i = 0; i < refs.length; i++) {
    const ref = refs[i] as Record<string, unknown>;
    for (const f of ownerReferenceFields) if (typeof ref[f] !== 'string' || ref[f] === '') return `.metadata.ownerReferences[${i}].${f}: must not be empty`;
  }
  return null;
}

/**
 * Fields a kind's validation requires that its controller reads without looking (a type check
 * cannot tell absent from optional): ControllerRevision `data` ("data is mandatory").
 */
const requiredFields: ReadonlyMap<string, readonly string[]> = new Map([['apps/controllerrevisions', ['data']]]);

function requiredProblem(o: JsonObject, rt: ResourceType): string | null {
  for (const f of requiredFields.get(rt.id) ?? []) {
    const v = getOwn(o, f);
    if (v === undefined || v === null) return `.${f}: is required`;
  }
  return null;
}
