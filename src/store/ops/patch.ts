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
  const checked = checkPatchedFields(ctx.rt, patched, req);
  if (!checked.ok) return fail(checked.error);
  const result = update(ctx, checked.object, namespace, name);
  return { ...result, warnings: [...checked.warnings, ...result.warnings] };
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
  const managedFields = obj.metadata.managedFields ?? [];
  if (live === undefined) {
    const meta = { ...obj.metadata, name, ...(ctx.rt.namespaced ? { namespace } : {}) };
    return create(ctx, { ...obj, metadata: meta }, namespace, { managedFields });
  }
  const meta = { ...obj.metadata, resourceVersion: live.metadata.resourceVersion ?? '' };
  return updateExisting(ctx, { ...obj, metadata: meta }, live, { managedFields });
}
