/**
 * Empty lists and maps of `omitempty` fields left out, as an object written through Go's types
 * comes back: the API server decodes the body into the Go struct, stores it, and encoding/json
 * leaves an empty slice or map with `omitempty` out (after a patch removes the last `secrets`
 * entry of a ServiceAccount, `secrets` is absent, not `[]`). Fields whose tag has no omitempty
 * are marked `keepEmpty` in the kind's schema and kept; free-form (`any`) parts are kept as sent.
 */
import type { KubeObject } from '../../api/meta.ts';
import type { Schema } from '../../api/schema.ts';
import { isObject, setOwn, type JsonObject, type JsonValue } from '../../core/json.ts';

const isEmpty = (v: JsonValue): boolean => (Array.isArray(v) ? v.length === 0 : isObject(v) && Object.keys(v).length === 0);

const own = (o: JsonValue | undefined, k: string): JsonValue | undefined => (isObject(o) && Object.hasOwn(o, k) ? o[k] : undefined);

/**
 * The value with its omitempty-empty collections left out; the same reference when nothing
 * changes. `stored`: the value at the same place in the stored object, if any — a part written
 * back unchanged is already pruned, so an update costs what it changed.
 */
function prune(v: JsonValue, schema: Schema, stored: JsonValue | undefined): JsonValue {
  if (v === stored) return v;
  if (schema.type === 'list' && Array.isArray(v)) {
    let changed = false;
    const out = v.map((x, i) => {
      const y = prune(x, schema.items, Array.isArray(stored) ? stored[i] : undefined);
      if (y !== x) changed = true;
      return y;
    });
    return changed ? out : v;
  }
  if (schema.type === 'map' && isObject(v)) {
    let out: JsonObject | null = null;
    // Keys rather than entries: no pair allocated per field of every write.
    for (const k of Object.keys(v)) {
      const x = v[k]!;
      const y = prune(x, schema.values, own(stored, k));
      if (y === x) continue;
      out ??= { ...v };
      setOwn(out, k, y);
    }
    return out ?? v;
  }
  if (schema.type === 'struct' && isObject(v)) {
    let out: JsonObject | null = null;
    for (const k of Object.keys(v)) {
      const x = v[k]!;
      const field = Object.hasOwn(schema.fields, k) ? schema.fields[k] : undefined;
      if (field === undefined) continue;
      if ((field.type === 'list' || field.type === 'map') && field.keepEmpty !== true && isEmpty(x)) {
        out ??= { ...v };
        delete out[k];
        continue;
      }
      const y = prune(x, field, own(stored, k));
      if (y === x) continue;
      out ??= { ...v };
      setOwn(out, k, y);
    }
    return out ?? v;
  }
  return v;
}

/** `stored`: the object as stored before this write (an update), whose unchanged parts need no look. */
export function omitEmptyCollections(obj: KubeObject, schema: Schema, stored?: KubeObject): KubeObject {
  return prune(obj as unknown as JsonValue, schema, stored as unknown as JsonValue | undefined) as unknown as KubeObject;
}
