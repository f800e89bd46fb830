/**
 * IsOnlyMutatingGCFields of pkg/registry/rbac/helpers.go: an update of a role or binding that
 * changes nothing but what the garbage collector writes (owner references, finalizers; selfLink
 * and managedFields do not count either) skips the escalation check, so that the collector and
 * no-op writes never need the permissions an object grants. Compared as apimachinery's semantic
 * equality does: a missing, null, empty string, empty list or empty map field is one value (Go's
 * zero and nil); apiVersion and kind are not part of the internal objects compared.
 */
import type { KubeObject } from '../../api/meta.ts';
import { deepEqual, isObject, setOwn, type JsonObject, type JsonValue } from '../../core/json.ts';

const ignoredMeta = new Set(['ownerReferences', 'finalizers', 'selfLink', 'managedFields']);

/** The value with every zero-valued map entry dropped, recursively; undefined for a zero value. */
function withoutZeros(v: unknown): unknown {
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map((x) => withoutZeros(x) ?? null);
  if (isObject(v)) {
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v)) {
      const kept = withoutZeros(x);
      if (kept !== undefined) setOwn(out, k, kept as JsonValue);
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return v === null || v === '' ? undefined : v;
}

function comparable(obj: KubeObject): unknown {
  const { apiVersion: _a, kind: _k, metadata, ...rest } = obj;
  const meta = Object.fromEntries(Object.entries(metadata).filter(([k]) => !ignoredMeta.has(k)));
  return withoutZeros({ ...rest, metadata: meta });
}

export function isOnlyMutatingGCFields(obj: KubeObject, old: KubeObject): boolean {
  return deepEqual(comparable(obj), comparable(old));
}
