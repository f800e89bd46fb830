/**
 * The conversion of an applied object to its Go type. Structured-merge-diff checks an apply
 * configuration only loosely (a number is "numeric (int or float)", a time or a []byte is a
 * string); the typed object is made after the merge, where Go's unstructured converter refuses
 * a fraction in an integer field (`cannot convert float64 to int32`), a time that does not parse
 * and base64 that does not decode — errors Kubernetes answers with a reasonless 500, here a 400
 * (docs/divergences.md). An integer beyond its field's range, which Go's conversion would wrap
 * around, is refused the same way: stored, `replicas: 2147483647.5` would have the StatefulSet
 * controller make two billion pods. Times come back in UTC with `Z`, as the typed object writes
 * them.
 */
import type { Schema } from '../../api/schema.ts';
import { compareStrings } from '../../core/compareStrings.ts';
import { canonicalTimestamp, parseInstant } from '../../core/duration.ts';
import { isObject, setOwn, type JsonObject, type JsonValue } from '../../core/json.ts';
import { decodeGoBase64Text } from '../../registry/certificates/goBase64.ts';
import { fieldSchema } from './schemaShape.ts';

const ranges = { int32: 2 ** 31, int64: 2 ** 63 } as const;

export type Converted = { readonly ok: true; readonly value: JsonValue } | { readonly ok: false; readonly problem: string };

function scalar(v: JsonValue, schema: Schema, path: string): Converted {
  if (schema.type === 'integer' && typeof v === 'number') {
    if (!Number.isInteger(v)) return { ok: false, problem: `${path}: cannot convert float64 to ${schema.format}` };
    const bound = ranges[schema.format];
    return v >= bound || v < -bound ? { ok: false, problem: `${path}: ${v} overflows ${schema.format}` } : { ok: true, value: v };
  }
  if (schema.type === 'string' && typeof v === 'string' && schema.format === 'date-time') {
    if (parseInstant(v) === null) return { ok: false, problem: `${path}: parsing time ${JSON.stringify(v)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(v)} as "2006"` };
    return { ok: true, value: canonicalTimestamp(v, schema.goType === 'MicroTime') };
  }
  if (schema.type === 'string' && typeof v === 'string' && schema.format === 'byte') {
    const decoded = decodeGoBase64Text(v);
    if (!decoded.ok) return { ok: false, problem: `${path}: ${decoded.message}` };
  }
  return { ok: true, value: v };
}

/** `v` as the typed object would write it back, or the first part of it Go could not convert. */
export function convertToType(v: JsonValue, schema: Schema | undefined, path = ''): Converted {
  if (schema === undefined || v === null) return { ok: true, value: v };
  if (schema.type === 'list' && Array.isArray(v)) {
    let out: JsonValue[] | null = null;
    for (let i = 0; i < v.length; i++) {
      const c = convertToType(v[i]!, schema.items, `${path}[${i}]`);
      if (!c.ok) return c;
      if (c.value !== v[i]) (out ??= [...v])[i] = c.value;
    }
    return { ok: true, value: out ?? v };
  }
  if ((schema.type === 'struct' || schema.type === 'map') && isObject(v)) {
    let out: JsonObject | null = null;
    for (const k of Object.keys(v).sort(compareStrings)) {
      const c = convertToType(v[k]!, fieldSchema(schema, k), `${path}.${k}`);
      if (!c.ok) return c;
      if (c.value !== v[k]) setOwn((out ??= { ...v }), k, c.value);
    }
    return { ok: true, value: out ?? v };
  }
  return scalar(v, schema, path);
}
