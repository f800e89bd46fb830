/**
 * Server-side apply (`application/apply-patch+yaml`) as a pure function, following
 * structured-merge-diff's Updater.Apply and apimachinery's field manager. `serverSideApply` is
 * the whole flow; each step lives in its own file:
 *
 * 1. checkConfiguration.ts: the body is an apply configuration this endpoint takes (400s).
 * 2. Top-level fields the strategy resets (`status` on the main resource) are dropped from the
 *    configuration: they are neither applied nor owned.
 * 3. mergeConfiguration.ts: the configuration is merged into the live object.
 * 4. pruneUnapplied.ts: the applier's Apply entry becomes exactly the fields of this
 *    configuration; fields it applied last time, does not apply now, and nobody else owns go.
 * 5. applyConflicts.ts: changed fields another manager owns are conflicts (409 unless `force`).
 * 6. The Apply entry gets `time` only when the object changed (upstream keeps the old time on a
 *    no-op apply, and a new entry from a no-op apply has no time). Explicit nulls are owned but
 *    dropped from the stored object.
 * 7. convertToType.ts: the result converts to the Go type (no fraction in an integer field, times
 *    that parse, base64 that decodes); times are written back in UTC.
 * Errors are returned, never thrown.
 */
import type { Schema } from '../../api/schema.ts';
import { cloneJson, deepEqual, objectField, setOwn, type JsonObject, type JsonValue } from '../../core/json.ts';
import { errors, type ApiError } from '../../core/status.ts';
import { settleConflicts } from './applyConflicts.ts';
import { appliedObjectName, checkConfiguration } from './checkConfiguration.ts';
import { convertToType } from './convertToType.ts';
import { withoutManagedFields } from './compareObjects.ts';
import { fieldSetOf } from './fieldSetOf.ts';
import { decodeManagedFields, encodeManagedFields } from './managedFieldsCodec.ts';
import { mergeConfiguration, stripNulls } from './mergeConfiguration.ts';
import { ownerId, type Owner } from './owners.ts';
import { pruneUnapplied } from './pruneUnapplied.ts';
import { managedFieldsOf } from './requestedManagedFields.ts';

export interface ServerSideApplyInput {
  readonly live: JsonObject | null;
  readonly applied: JsonObject;
  readonly manager: string;
  /** The endpoint's `group/version` (`v1` for core). */
  readonly apiVersion: string;
  readonly force: boolean;
  readonly time: string;
  readonly schema: Schema;
  readonly subresource?: string;
  /** Top-level fields reset by the strategy, e.g. `['status']` on the main resource. */
  readonly resetFields?: readonly string[];
  /** The endpoint's Kind; when given, a body of another kind is refused like upstream does. */
  readonly kind?: string;
}

export type ServerSideApplyResult = { ok: true; object: JsonObject; created: boolean } | { ok: false; error: ApiError };

export function serverSideApply(input: ServerSideApplyInput): ServerSideApplyResult {
  // 1. The configuration check.
  const refused = checkConfiguration(input);
  if (refused !== null) return { ok: false, error: refused };
  // 2. Reset fields are neither applied nor owned.
  const resetFields = input.resetFields ?? [];
  const config = withoutFields(input.applied, resetFields);
  // The applier's entry becomes exactly the fields of this configuration.
  const liveBody = input.live === null ? {} : withoutManagedFields(input.live);
  const decoded = decodeManagedFields(managedFieldsOf(input.live));
  const owners = decoded.ok ? decoded.owners : new Map<string, Owner>();
  const me = { manager: input.manager === '' ? 'unknown' : input.manager, operation: 'Apply' as const, apiVersion: input.apiVersion, subresource: input.subresource ?? '' };
  const id = ownerId(me);
  const lastApplied = owners.get(id);
  owners.set(id, { ...me, fields: fieldSetOf(config, input.schema, resetFields) });
  // 3. The merge, 4. the prune.
  const merged = mergeConfiguration(liveBody, config, input.schema);
  const pruned = pruneUnapplied(merged, owners, lastApplied?.fields, input.schema);
  // 5. The conflicts.
  const settled = settleConflicts(owners, id, liveBody, pruned, input);
  if (!settled.ok) return settled;
  // 6. Upstream stamps the applier only when the object changed.
  const changed = !deepEqual(liveBody, pruned);
  const mine = settled.owners.get(id);
  if (mine !== undefined) settled.owners.set(id, withTime(mine, changed ? input.time : lastApplied?.time));
  const result = changed ? (stripNulls(pruned, input.schema) as JsonObject) : cloneJson(liveBody);
  // 7. The conversion to the Go type.
  const typed = convertToType(result, input.schema);
  if (!typed.ok) return { ok: false, error: errors.badRequest(`failed to convert new object (${appliedObjectName(input.applied)}) to proper version (${input.apiVersion}): ${typed.problem}`) };
  const object = typed.value as JsonObject;
  const entries = encodeManagedFields(settled.owners.values()) as unknown as JsonValue[];
  return { ok: true, object: withManagedFields(object, entries), created: input.live === null };
}

function withTime(o: Owner, time: string | undefined): Owner {
  const { time: _old, ...rest } = o;
  return time === undefined ? rest : { ...rest, time };
}

function withoutFields(obj: JsonObject, fields: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(obj)) if (!fields.includes(k)) setOwn(out, k, obj[k]!);
  return out;
}

function withManagedFields(obj: JsonObject, entries: JsonValue[]): JsonObject {
  const meta: JsonObject = { ...objectField(obj, 'metadata') };
  if (entries.length > 0) setOwn(meta, 'managedFields', entries);
  else delete meta['managedFields'];
  const out: JsonObject = { ...obj };
  setOwn(out, 'metadata', meta);
  return out;
}
