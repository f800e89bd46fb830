/**
 * JSON merge patch (RFC 7386): objects merge recursively, `null` deletes a key, everything else
 * replaces. Nulls inside newly added subtrees are pruned. Keys such as `__proto__` are ordinary.
 */
import { cloneJson, copyObject, isObject, setOwn, hasOwn, type JsonObject, type JsonValue } from '../../core/json.ts';

function prune(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(prune);
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  for (const k of Object.keys(v)) if (v[k] !== null) setOwn(out, k, prune(v[k]!));
  return out;
}

export function applyMergePatch(doc: JsonValue, patch: JsonValue): JsonValue {
  if (!isObject(patch)) return cloneJson(patch);
  const out: JsonObject = isObject(doc) ? copyObject(doc) : {};
  for (const k of Object.keys(patch)) {
    const p = patch[k]!;
    if (p === null) {
      delete out[k];
      continue;
    }
    setOwn(out, k, isObject(p) ? (hasOwn(out, k) && isObject(out[k]!) ? applyMergePatch(out[k]!, p) : prune(p)) : cloneJson(p));
  }
  return out;
}
