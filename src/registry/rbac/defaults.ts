/**
 * Defaulting of pkg/apis/rbac/v1/defaults.go, applied on every write as decoding does in
 * Kubernetes: an empty roleRef.apiGroup becomes the RBAC group, and an empty subject apiGroup
 * becomes the RBAC group for User and Group ("" stays for ServiceAccount and unknown kinds).
 */
import type { KubeObject } from '../../api/meta.ts';
import { isObject, objectField, type JsonObject } from '../../core/json.ts';

function defaultSubject(subject: unknown, rbacGroup: string): unknown {
  if (!isObject(subject)) return subject;
  const group = subject['apiGroup'];
  if (typeof group === 'string' && group !== '') return subject;
  const kind = subject['kind'];
  if (kind !== 'User' && kind !== 'Group') return subject;
  return { ...subject, apiGroup: rbacGroup };
}

export function withBindingDefaults(obj: KubeObject, rbacGroup: string): KubeObject {
  const ref: JsonObject = objectField(obj, 'roleRef');
  const group = ref['apiGroup'];
  const roleRef = typeof group === 'string' && group !== '' ? ref : { ...ref, apiGroup: rbacGroup };
  const subjects = obj['subjects'];
  const out: KubeObject = { ...obj, roleRef };
  if (Array.isArray(subjects)) out['subjects'] = subjects.map((x) => defaultSubject(x, rbacGroup));
  return out;
}
