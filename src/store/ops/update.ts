/**
 * Update (PUT), also the tail of every patch and apply: URL consistency (400), existence (404),
 * optimistic concurrency and uid preconditions (409), system fields kept from the stored object,
 * the strategy's preparation (status kept on the main resource, spec kept on `/status`),
 * generation, validation (422), finalizer-driven deletion, no-op detection, managed fields.
 */
import type { KubeObject, ManagedFieldsEntry } from '../../api/meta.ts';
import type { ResourceType } from '../../registry/types.ts';
import { formatInstant } from '../../core/duration.ts';
import { copyObject, deepEqual, dropOwn, getOwn, hasOwn } from '../../core/json.ts';
import { errors } from '../../core/status.ts';
import { fieldError } from '../../core/fieldErrors.ts';
import { validateObjectMetaUpdate } from '../../registry/validation/objectMeta.ts';
import { recordUpdate } from '../apply/managedFields.ts';
import { commit } from '../commit.ts';
import { withManagedFields } from './typeMeta.ts';
import { dedupOwnerReferences } from './ownerReferences.ts';
import { omitEmptyCollections } from './omitEmpty.ts';
import { getObject } from '../objects.ts';
import { fail, groupKind, groupResource, strategyContext, type OpContext, type OpResult } from './context.ts';
import { apiVersionOf, withTypeMeta } from './typeMeta.ts';

export interface UpdateOptions {
  /** Managed fields already computed (server-side apply); skips Update bookkeeping. */
  readonly managedFields?: ManagedFieldsEntry[];
  /** The stored object, when the caller read it from the same world (a patch): not looked up again. */
  readonly stored?: KubeObject;
}

const systemFields = ['uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'generation'] as const;

export function update(ctx: OpContext, input: KubeObject, namespace: string, name: string, options: UpdateOptions = {}): OpResult {
  const { rt } = ctx;
  const bodyMeta = copyObject(input.metadata);
  if ((bodyMeta.name ?? '') !== name) return fail(errors.badRequest(`the name of the object (${bodyMeta.name ?? ''}) does not match the name on the URL (${name})`));
  if (rt.namespaced) {
    if (bodyMeta.namespace === undefined || bodyMeta.namespace === '') bodyMeta.namespace = namespace;
    else if (bodyMeta.namespace !== namespace) return fail(errors.badRequest('the namespace of the provided object does not match the namespace sent on the request'));
  } else delete bodyMeta.namespace;
  // The handler dedups owner references once name and namespace are checked.
  const deduped = dedupOwnerReferences({ ...input, metadata: bodyMeta }, false);
  const result = updateDeduped(ctx, deduped.object, namespace, name, options);
  return deduped.warnings.length === 0 ? result : { ...result, warnings: [...deduped.warnings, ...result.warnings] };
}

function updateDeduped(ctx: OpContext, input: KubeObject, namespace: string, name: string, options: UpdateOptions): OpResult {
  const { rt } = ctx;
  const bodyMeta = input.metadata;
  const old = options.stored ?? getObject(ctx.world, rt.id, namespace, name);
  if (old === undefined) return fail(errors.notFound(groupResource(ctx), name));
  const rv = bodyMeta.resourceVersion ?? '';
  if (rv !== '' && rv !== old.metadata.resourceVersion) return fail(errors.optimisticLock(groupResource(ctx), name));
  if (rv === '' && !rt.allowUnconditionalUpdate) {
    // The generic store names the resource where the kind would go (registry/store.go, "The
    // Invalid error should have a field for Resource"): `clustertrustbundles.certificates.<domain>`.
    const { group, resource } = groupResource(ctx);
    return fail(errors.invalid({ group, kind: resource }, name, [fieldError.invalid('metadata.resourceVersion', 0, 'must be specified for an update')]));
  }
  if (bodyMeta.uid !== undefined && bodyMeta.uid !== '' && bodyMeta.uid !== old.metadata.uid) {
    const key = rt.namespaced ? `/registry/${rt.resource}/${namespace}/${name}` : `/registry/${rt.resource}/${name}`;
    return fail(errors.conflict(groupResource(ctx), name, `StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${bodyMeta.uid}, UID in object meta: ${old.metadata.uid ?? ''}`));
  }
  return updateExisting(ctx, { ...input, metadata: bodyMeta }, old, options);
}

function keepSystemFields(obj: KubeObject, old: KubeObject): KubeObject {
  const meta: Record<string, unknown> = copyObject(obj.metadata);
  dropOwn(meta, 'selfLink');
  for (const k of systemFields) {
    const v = (old.metadata as Record<string, unknown>)[k];
    if (v === undefined) dropOwn(meta, k);
    else meta[k] = v;
  }
  return { ...obj, metadata: meta as KubeObject['metadata'] };
}

/**
 * Status writes may change status and metadata (labels, annotations, finalizers — as the real
 * status strategies keep them), but not the owner references or deletion timestamp; every other
 * top-level field comes from the stored object.
 */
function statusOnly(obj: KubeObject, old: KubeObject): KubeObject {
  const meta = { ...obj.metadata };
  for (const key of ['ownerReferences', 'deletionTimestamp'] as const) {
    if (old.metadata[key] === undefined) delete meta[key];
    else (meta as Record<string, unknown>)[key] = old.metadata[key];
  }
  const out: KubeObject = { ...old, metadata: meta };
  if (obj['status'] === undefined) delete out['status'];
  else out['status'] = obj['status'];
  return out;
}

function specChanged(obj: KubeObject, old: KubeObject): boolean {
  const strip = (o: KubeObject): Record<string, unknown> => {
    const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest } = o;
    return rest;
  };
  return !deepEqual(strip(obj), strip(old));
}

/** Whether two records are deep-equal as if neither had the keys `x` and `y`. */
function equalBut(a: object, b: object, x: string, y: string): boolean {
  let keys = 0;
  for (const k in a) {
    if (!hasOwn(a, k) || k === x || k === y) continue;
    keys++;
    if (!hasOwn(b, k) || !deepEqual(getOwn(a as Record<string, unknown>, k), getOwn(b as Record<string, unknown>, k))) return false;
  }
  for (const k in b) if (hasOwn(b, k) && k !== x && k !== y) keys--;
  return keys === 0;
}

/** The same managers with the same fields, whenever each wrote (absent is none). */
function sameManagers(a: readonly ManagedFieldsEntry[] = [], b: readonly ManagedFieldsEntry[] = []): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!equalBut(a[i]!, b[i]!, 'time', 'time')) return false;
  return true;
}

/**
 * Equal but for the resourceVersion and the times of the managed fields: a write that changes
 * nothing else is no write. Compared in place (rests and spreads of both cost a write a microsecond).
 */
function sameObject(a: KubeObject, b: KubeObject): boolean {
  return equalBut(a, b, 'metadata', 'metadata') && equalBut(a.metadata, b.metadata, 'managedFields', 'resourceVersion') && sameManagers(a.metadata.managedFields, b.metadata.managedFields);
}

export function updateExisting(ctx: OpContext, input: KubeObject, old: KubeObject, options: UpdateOptions): OpResult {
  const { rt } = ctx;
  const sctx = strategyContext(ctx);
  const sub = ctx.subresource === '' ? undefined : rt.subresources.find((x) => x.name === ctx.subresource);
  let obj = withTypeMeta(rt, keepSystemFields(input, old));
  if (sub !== undefined) {
    obj = (sub.confine ?? statusOnly)(obj, old);
    if (sub.strategy !== undefined) obj = sub.strategy.prepareForUpdate(obj, old, sctx);
  } else {
    for (const field of rt.resetFields) {
      const was = getOwn(old, field);
      if (was === undefined) dropOwn(obj, field);
      else obj = { ...obj, [field]: was };
    }
    obj = rt.strategy.prepareForUpdate(obj, old, sctx);
  }
  obj = omitEmptyCollections(obj, rt.schema, old);
  if (rt.hasGeneration && sub === undefined && specChanged(obj, old)) {
    const meta = copyObject(obj.metadata);
    meta.generation = (old.metadata.generation ?? 0) + 1;
    obj = { ...obj, metadata: meta };
  }
  const strat = sub?.strategy ?? rt.strategy;
  const fieldErrors = [...validateObjectMetaUpdate(obj.metadata, old.metadata, { namespaced: rt.namespaced, nameRule: rt.nameRule }), ...strat.validateUpdate(obj, old, sctx)];
  const name = old.metadata.name ?? '';
  if (fieldErrors.length > 0) return fail(errors.invalid(groupKind(ctx), name, fieldErrors));
  if (rt.validateUpdateAdmission !== undefined) {
    const admitted = rt.validateUpdateAdmission(obj, old, ctx.subresource, sctx);
    if (!admitted.ok) return fail(errors.forbidden(groupResource(ctx), name, admitted.message));
  }
  const warnings = sub === undefined ? rt.strategy.warningsOnUpdate(obj, old, sctx) : [];
  const managedFields =
    options.managedFields ??
    recordUpdate({
      live: old as never,
      updated: obj as never,
      manager: ctx.fieldManager,
      apiVersion: apiVersionOf(rt),
      time: formatInstant(ctx.world.now),
      schema: rt.schema,
      statusReset: sub === undefined && rt.resetFields.includes('status'),
      ...(sub === undefined ? {} : { subresource: sub.name }),
    });
  // withManagedFields made the metadata just now: it is this write's own to finish.
  const meta = withManagedFields(obj.metadata, managedFields);
  meta.resourceVersion = old.metadata.resourceVersion ?? '';
  obj = { ...obj, metadata: meta };
  if (shouldDeleteDuringUpdate(rt, obj, old)) {
    if (ctx.dryRun) return { ok: true, world: ctx.world, code: 200, body: obj, warnings };
    const done = commit(ctx.world, rt.id, 'DELETED', old, old);
    return { ok: true, world: done.world, code: 200, body: obj, warnings };
  }
  if (sameObject(obj, old)) return { ok: true, world: ctx.world, code: 200, body: old, warnings };
  if (ctx.dryRun) return { ok: true, world: ctx.world, code: 200, body: obj, warnings };
  // `obj` and its metadata were made above, for this write alone.
  const done = commit(ctx.world, rt.id, 'MODIFIED', obj, old, true);
  return { ok: true, world: done.world, code: 200, body: done.object, warnings };
}

/**
 * A terminating object whose last finalizer went (in metadata, and in spec for a Namespace), and
 * whose grace period is over, is deleted.
 */
function shouldDeleteDuringUpdate(rt: ResourceType, obj: KubeObject, old: KubeObject): boolean {
  if (old.metadata.deletionTimestamp === undefined) return false;
  if ((obj.metadata.finalizers ?? []).length > 0) return false;
  if ((rt.specFinalizers?.(obj).length ?? 0) > 0) return false;
  return (old.metadata.deletionGracePeriodSeconds ?? 0) === 0;
}
