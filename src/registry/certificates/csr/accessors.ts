/**
 * Typed reads of a stored CSR (plain JSON): tolerant of absent or mistyped parts, which the
 * decoder has already rejected for client input but may exist in imported state.
 */
import type { KubeObject } from '../../../api/meta.ts';
import { getOwn, isObject, objectField, type JsonObject } from '../../../core/json.ts';

export interface Condition {
  readonly type?: string;
  readonly status?: string;
  readonly reason?: string;
  readonly message?: string;
  readonly lastUpdateTime?: string;
  readonly lastTransitionTime?: string;
}

export const approved = 'Approved';
export const denied = 'Denied';
export const failed = 'Failed';

export function specOf(obj: KubeObject): JsonObject {
  return objectField(obj, 'spec');
}

export function statusOf(obj: KubeObject): JsonObject {
  return objectField(obj, 'status');
}

export function conditionsOf(obj: KubeObject): Condition[] {
  const list = statusOf(obj)['conditions'];
  return Array.isArray(list) ? list.map((c) => (isObject(c) ? (c as Condition) : {})) : [];
}

/** `status.certificate` as sent: base64 text, '' when absent. */
export function certificateOf(obj: KubeObject): string {
  const c = statusOf(obj)['certificate'];
  return typeof c === 'string' ? c : '';
}

export function stringField(o: JsonObject, key: string): string {
  const v = getOwn(o, key);
  return typeof v === 'string' ? v : '';
}

export function countOf(conditions: readonly Condition[], type: string): number {
  return conditions.filter((c) => c.type === type).length;
}

/** Go omits empty `conditions` and `certificate`, so an empty status is `{}`. */
export function tidyStatus(status: JsonObject): JsonObject {
  const out: JsonObject = { ...status };
  if (Array.isArray(out['conditions']) && out['conditions'].length === 0) delete out['conditions'];
  if (out['certificate'] === '' || out['certificate'] === null) delete out['certificate'];
  return out;
}
