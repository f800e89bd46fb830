/**
 * apiVersion and kind as stored and served: objects always carry the endpoint's group/version
 * and kind (single GETs and watch events show them; list items drop them, see read.ts).
 */
import type { KubeObject, ManagedFieldsEntry } from '../../api/meta.ts';
import type { ResourceType } from '../../registry/types.ts';
import { copyInto, copyObject, dropOwn } from '../../core/json.ts';

export function apiVersionOf(rt: ResourceType): string {
  return rt.group === '' ? rt.version : `${rt.group}/${rt.version}`;
}

const isTypeMeta = (key: string): boolean => key === 'kind' || key === 'apiVersion';

/** Whether the first two keys of `obj` are `kind` and `apiVersion`, with these values. */
function startsWithTypeMeta(obj: KubeObject, kind: string, apiVersion: string): boolean {
  if (obj.kind !== kind || obj.apiVersion !== apiVersion) return false;
  let at = 0;
  for (const k in obj) {
    if (at === 0 && k !== 'kind') return false;
    if (at === 1) return k === 'apiVersion';
    at++;
  }
  return false;
}

/**
 * Puts kind and apiVersion first, as the Go serializer emits them. `obj` is the caller's own (made
 * for this write): when it already starts with the right kind and apiVersion (a patch of a stored
 * object), it is the answer.
 */
export function withTypeMeta(rt: ResourceType, obj: KubeObject): KubeObject {
  const apiVersion = apiVersionOf(rt);
  if (startsWithTypeMeta(obj, rt.kind, apiVersion)) return obj;
  // Key by key rather than a rest and a spread: see copyObject.
  const out: Record<string, unknown> = { kind: rt.kind, apiVersion };
  copyInto(out, obj, isTypeMeta);
  return out as KubeObject;
}

/** managedFields as the server stores them: omitted when no manager owns anything. */
export function withManagedFields(meta: KubeObject['metadata'], entries: readonly ManagedFieldsEntry[]): KubeObject['metadata'] {
  const out = copyObject(meta);
  if (entries.length === 0) dropOwn(out, 'managedFields');
  // The list itself, not a copy (stored lists are never mutated): the next write finds its
  // decoding by identity (managedFieldsCodec.ts).
  else out.managedFields = entries as ManagedFieldsEntry[];
  return out;
}
