/**
 * Typed reads of RBAC fields from a decoded object. The decoder has already enforced the schema's
 * types, so a field is either absent (or null) or of its declared type; absent lists read as
 * empty and absent strings as "", exactly as Go's zero values.
 */
import type { KubeObject } from '../../api/meta.ts';
import { isObject, objectField, type JsonObject } from '../../core/json.ts';

export interface RoleRef {
  readonly apiGroup: string;
  readonly kind: string;
  readonly name: string;
}

export interface Subject {
  readonly kind: string;
  readonly apiGroup: string;
  readonly name: string;
  readonly namespace: string;
}

export function str(o: JsonObject, key: string): string {
  const v = o[key];
  return typeof v === 'string' ? v : '';
}

export function strList(o: JsonObject, key: string): string[] {
  const v = o[key];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

export function objectList(obj: KubeObject, key: string): JsonObject[] {
  const v = obj[key];
  return Array.isArray(v) ? v.map((x) => (isObject(x) ? x : {})) : [];
}

export function roleRefOf(obj: KubeObject): RoleRef {
  const r = objectField(obj, 'roleRef');
  return { apiGroup: str(r, 'apiGroup'), kind: str(r, 'kind'), name: str(r, 'name') };
}

export function subjectsOf(obj: KubeObject): Subject[] {
  return objectList(obj, 'subjects').map((x) => ({ kind: str(x, 'kind'), apiGroup: str(x, 'apiGroup'), name: str(x, 'name'), namespace: str(x, 'namespace') }));
}

/** hasAggregationRule of the ClusterRole storage: an aggregationRule with at least one selector. */
export function hasAggregationRule(obj: KubeObject): boolean {
  const rule = obj['aggregationRule'];
  const selectors = isObject(rule) ? rule['clusterRoleSelectors'] : undefined;
  return Array.isArray(selectors) && selectors.length > 0;
}
