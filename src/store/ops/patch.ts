/**
 * PATCH: the four patch types applied to the stored object, then the update path. JSON, merge
 * and strategic merge patches of a missing object are 404; server-side apply creates it.
 * Unknown fields in the patched result are dropped, warned about or refused per fieldValidation.
 */
import type { KubeObject } from '../../api/meta.ts';
import { formatInstant } from '../../core/duration.ts';
import type { JsonObject, JsonValue } from '../../core/json.ts';
import { errors } from '../../core/status.ts';
import { applyJsonPatch } from '../patch/jsonPatch.ts';
import { applyMergePatch } from '../patch/mergePatch.ts';
import { applyStrategicMergePatch } from '../patch/strategicMergePatch.ts';
import { serverSideApply } from '../apply/serverSideApply.ts';
import { getObject } from '../objects.ts';
import { fail, groupResource, type OpContext, type OpResult } from './context.ts';
import { create } from './create.ts';
import { update, updateExisting } from './update.ts';
import { apiVersionOf } from './typeMeta.ts';
import { checkPatchedFields, type FieldValidation } from './patchFields.ts';
import { dedupOwnerReferences } from './ownerReferences.ts';

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export interface PatchRequest {
  readonly type: PatchType;
  /** The decoded patch body (for apply: the decoded YAML/JSON object). */
  readonly patch: JsonValue;
  readonly force: boolean;
  readonly fieldValidation: FieldValidation;
}

export function patch(ctx: OpContext, namespace: string, name: string, req: PatchRequest): OpResult {
  const live = getObject(ctx.world, ctx.rt.id, namespace, name);
  if (req.type === 'apply') return apply(ctx, namespace, name, live, req);
  if (live === undefined) return fail(errors.notFound(groupResource(ctx), name));
  const doc = live as unknown as JsonObject;
  let patched: JsonValue;
  if (req.type === 'json') {
    const r = applyJsonPatch(doc, req.patch);
    if (!r.ok) return fail(r.error);
    patched = r.value;
  } else if (req.type === 'merge') {
    patched = applyMergePatch(doc, req.patch);
  } else {
    if (typeof req.patch !== 'object' || req.patch === null || Array.isArray(req.patch)) return fail(errors.badRequest('Invalid JSON Patch'));
    const r = applyStrategicMergePatch(doc, req.patch, ctx.rt.schema);
    if (!r.ok) return fail(r.error);
    patched = r.value;
  }
  const checked = checkPatchedFields(ctx.rt, patched, req, doc);
  if (!checked.ok) return fail(checked.error);
  // A patch result is deduplicated after (mutating) admission only, with that wording.
  const deduped = dedupOwnerReferences(checked.object, true);
  const guarded = ctx.storageGuard?.(deduped.object, 'update') ?? null;
  if (guarded !== null) return fail(guarded, [...checked.warnings, ...deduped.warnings]);
  const result = update(ctx, deduped.object, namespace, name, { stored: live });
  return { ...result, warnings: [...checked.warnings, ...deduped.warnings, ...result.warnings] };
}

function apply(ctx: OpContext, namespace: string, name: string, live: KubeObject | undefined, req: PatchRequest): OpResult {
  const applied = req.patch as JsonObject;
  const r = serverSideApply({
    live: (live ?? null) as JsonObject | null,
    applied,
    manager: ctx.fieldManager,
    apiVersion: apiVersionOf(ctx.rt),
    force: req.force,
    time: formatInstant(ctx.world.now),
    schema: ctx.rt.schema,
    resetFields: ctx.subresource === '' ? ctx.rt.resetFields : [],
    ...(ctx.subresource === '' ? {} : { subresource: ctx.subresource }),
  });
  if (!r.ok) return fail(r.error);
  const obj = r.object as unknown as KubeObject;
  // The patch handler's checkName on the result: an applied configuration naming another object
  // (or none, when there is no live object to take the name from) is refused.
  const objName = obj.metadata.name ?? '';
  if (objName !== name) return fail(errors.badRequest(`the name of the object (${objName}) does not match the name on the URL (${name})`));
  const objNamespace = obj.metadata.namespace ?? '';
  if (ctx.rt.namespaced && objNamespace !== '' && objNamespace !== namespace) {
    return fail(errors.badRequest(`the namespace of the object (${objNamespace}) does not match the namespace on the request (${namespace})`));
  }
  const managedFields = obj.metadata.managedFields ?? [];
  if (live === undefined) {
    const meta = { ...obj.metadata, ...(ctx.rt.namespaced ? { namespace } : {}) };
    const created = { ...obj, metadata: meta };
    const guarded = ctx.storageGuard?.(created, 'create') ?? null;
    return guarded !== null ? fail(guarded) : create(ctx, created, namespace, { managedFields });
  }
  const meta = { ...obj.metadata, resourceVersion: live.metadata.resourceVersion ?? '' };
  const updated = { ...obj, metadata: meta };
  const guarded = ctx.storageGuard?.(updated, 'update') ?? null;
  return guarded !== null ? fail(guarded) : updateExisting(ctx, updated, live, { managedFields });
}
