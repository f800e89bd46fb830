/**
 * Decoding a JSON value into a kind's schema as Go's encoding/json would into the typed struct:
 * unknown struct fields are dropped and reported by path; type mismatches are Go's
 * `json: cannot unmarshal <json type> into Go struct field <Struct>.<path> of type <go type>`.
 * `null` leaves a field unset — Go leaves the field's zero value, which the stored object shows by
 * the field's absence — and is the element's zero value in a list or map (nullElement.ts).
 */
import { goTypeOf, type Schema, type StructSchema } from '../../api/schema.ts';
import { isObject, setOwn, type JsonObject, type JsonValue } from '../../core/json.ts';
import { canonicalTimestamp, parseInstant } from '../../core/duration.ts';
import { limits } from '../../core/limits.ts';
import { decodeGoBase64Text } from '../../registry/certificates/goBase64.ts';
import { nullElement } from './nullElement.ts';

export type Decoded = { ok: true; value: JsonValue; unknownFields: string[] } | { ok: false; message: string };

class TypeError_ {
  constructor(readonly message: string) {}
}

function jsonType(v: JsonValue): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'number') return `number`;
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

interface Where {
  /** Go struct name of the nearest enclosing struct and the dotted path from the top-level object. */
  readonly struct: string;
  readonly path: string;
}

function mismatch(v: JsonValue, schema: Schema, where: Where): never {
  const what = typeof v === 'number' ? `number ${String(v)}` : jsonType(v);
  const shown = typeof v === 'number' && Number.isInteger(v) && schema.type !== 'integer' ? 'number' : what;
  throw new TypeError_(`json: cannot unmarshal ${shown} into Go struct field ${where.struct}.${where.path} of type ${goTypeOf(schema)}`);
}

/**
 * `stored`: the object as stored, when `value` was made from it (a patch): the parts of `value`
 * that are the stored ones (same references) were decoded when stored and come back as they are.
 * Parts that decode to themselves are returned as they are too, so untouched parts of a patched
 * object keep their identity and later steps (pruning, comparison) skip them.
 */
export function decodeTyped(value: JsonValue, schema: Schema, ctx: { kind: string; version: string }, stored?: JsonValue): Decoded {
  const unknown: string[] = [];
  try {
    const out = walk(value, schema, { struct: ctx.kind, path: '' }, '', unknown, 0, stored);
    void ctx.version;
    return { ok: true, value: out ?? {}, unknownFields: unknown.slice(0, limits.decodeProblemsMax) };
  } catch (e) {
    if (e instanceof TypeError_) return { ok: false, message: e.message };
    throw e;
  }
}

const child = (o: JsonValue | undefined, k: string): JsonValue | undefined => (isObject(o) && Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);

function walk(v: JsonValue, schema: Schema, where: Where, reportPath: string, unknown: string[], depth: number, stored: JsonValue | undefined): JsonValue | undefined {
  if (depth > limits.jsonDepthMax) throw new TypeError_(`exceeded max depth of ${limits.jsonDepthMax}`);
  // A null field is left unset; null list elements and map values are decoded before they come here.
  if (v === null) return undefined;
  if (v === stored && typeof v === 'object') return v;
  switch (schema.type) {
    case 'any':
      return v;
    case 'string':
      if (typeof v !== 'string') mismatch(v, schema, where);
      if (schema.format === 'date-time') {
        if (parseInstant(v as string) === null) throw new TypeError_(`parsing time ${JSON.stringify(v)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(v)} as "2006"`);
        // Stored and answered as Go writes it back: UTC with Z (any offset may come in).
        return canonicalTimestamp(v as string, schema.goType === 'MicroTime');
      }
      // []byte fields are base64 in JSON; Go's decoder refuses anything else.
      if (schema.format === 'byte') {
        const decoded = decodeGoBase64Text(v as string);
        if (!decoded.ok) throw new TypeError_(decoded.message);
      }
      return v;
    case 'boolean':
      if (typeof v !== 'boolean') mismatch(v, schema, where);
      return v;
    case 'number':
      if (typeof v !== 'number') mismatch(v, schema, where);
      return v;
    case 'integer': {
      if (typeof v !== 'number') mismatch(v, schema, where);
      const bound = schema.format === 'int32' ? 2 ** 31 : 2 ** 63;
      if (!Number.isInteger(v) || (v as number) >= bound || (v as number) < -bound) mismatch(v, schema, where);
      return v;
    }
    case 'int-or-string':
    case 'quantity':
      if (typeof v !== 'number' && typeof v !== 'string') mismatch(v, schema, where);
      return v;
    case 'map': {
      if (!isObject(v)) mismatch(v, schema, where);
      const keys = Object.keys(v as JsonObject);
      let out: JsonObject | null = null;
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!;
        const was = (v as JsonObject)[k]!;
        const y = was === null ? nullElement(schema.values) : walk(was, schema.values, where, `${reportPath}[${k}]`, unknown, depth + 1, child(stored, k))!;
        if (out === null && y !== was) out = copyOf(v as JsonObject, keys, i);
        if (out !== null) setOwn(out, k, y);
      }
      return out ?? v;
    }
    case 'list': {
      if (!Array.isArray(v)) mismatch(v, schema, where);
      let changed = false;
      const out = (v as JsonValue[]).map((x, i) => {
        const y = x === null ? nullElement(schema.items) : walk(x, schema.items, where, `${reportPath}[${i}]`, unknown, depth + 1, Array.isArray(stored) ? stored[i] : undefined)!;
        if (y !== x) changed = true;
        return y;
      });
      return changed ? out : v;
    }
    case 'struct':
      return walkStruct(v, schema, where, reportPath, unknown, depth, stored);
  }
}

function walkStruct(v: JsonValue, schema: StructSchema, where: Where, reportPath: string, unknown: string[], depth: number, stored: JsonValue | undefined): JsonObject {
  if (!isObject(v)) mismatch(v, schema, where);
  const keys = Object.keys(v as JsonObject);
  // Built only once a field decodes to something else or goes: until then `v` is its own result.
  let out: JsonObject | null = null;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const fieldSchema = Object.prototype.hasOwnProperty.call(schema.fields, k) ? schema.fields[k] : undefined;
    const at = reportPath === '' ? k : `${reportPath}.${k}`;
    if (fieldSchema === undefined) {
      if (!unknown.includes(at)) unknown.push(at);
      out ??= copyOf(v as JsonObject, keys, i);
      continue;
    }
    // Go names the struct that declares the field and the path from the top-level object.
    const was = (v as JsonObject)[k]!;
    const x = walk(was, fieldSchema, { struct: schema.goName, path: where.path === '' ? k : `${where.path}.${k}` }, at, unknown, depth + 1, child(stored, k));
    if (out === null && x !== was) out = copyOf(v as JsonObject, keys, i);
    if (out !== null && x !== undefined) setOwn(out, k, x);
  }
  return out ?? (v as JsonObject);
}

/** A new object with the first `n` of `keys` of `o`, as they are. */
function copyOf(o: JsonObject, keys: readonly string[], n: number): JsonObject {
  const out: JsonObject = {};
  for (let i = 0; i < n; i++) setOwn(out, keys[i]!, o[keys[i]!]!);
  return out;
}
