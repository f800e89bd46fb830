/**
 * Delete, as the generic registry store does it: preconditions (409, early, naming the Kind),
 * propagation policy turned into the `orphan` / `foregroundDeletion` finalizers, graceful
 * deletion for kinds that have it, pending deletion while finalizers remain (the object is
 * updated and returned), otherwise removal answered with the object or a success Status.
 */
import { copyObject, dropOwn } from '../../core/json.ts';
import type { KubeObject } from '../../api/meta.ts';
import { fixedNames } from '../../api/names.ts';
import { formatInstant } from '../../core/duration.ts';
import { limits } from '../../core/limits.ts';
import { errors, successStatus, type Status } from '../../core/status.ts';
import { commit } from '../commit.ts';
import { getObject } from '../objects.ts';
import { fail, groupKind, groupResource, type OpContext, type OpResult } from './context.ts';

export type PropagationPolicy = 'Foreground' | 'Background' | 'Orphan';

export interface DeleteOptions {
  readonly gracePeriodSeconds?: number;
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  readonly propagationPolicy?: PropagationPolicy;
  readonly orphanDependents?: boolean;
}

function policyFinalizers(finalizers: readonly string[], opts: DeleteOptions): string[] {
  let policy = opts.propagationPolicy;
  if (policy === undefined && opts.orphanDependents !== undefined) policy = opts.orphanDependents ? 'Orphan' : 'Background';
  if (policy === undefined) return [...finalizers];
  const rest = finalizers.filter((f) => f !== fixedNames.orphanFinalizer && f !== fixedNames.foregroundFinalizer);
  if (policy === 'Orphan') rest.push(fixedNames.orphanFinalizer);
  if (policy === 'Foreground') rest.push(fixedNames.foregroundFinalizer);
  return rest;
}

function checkPreconditions(ctx: OpContext, obj: KubeObject, opts: DeleteOptions): OpResult | null {
  const p = opts.preconditions;
  const name = obj.metadata.name ?? '';
  if (p?.uid !== undefined && p.uid !== obj.metadata.uid) {
    return fail(errors.preconditionConflict(groupKind(ctx), name, `the UID in the precondition (${p.uid}) does not match the UID in record (${obj.metadata.uid ?? ''}). The object might have been deleted and then recreated`));
  }
  if (p?.resourceVersion !== undefined && p.resourceVersion !== obj.metadata.resourceVersion) {
    return fail(errors.preconditionConflict(groupKind(ctx), name, `the ResourceVersion in the precondition (${p.resourceVersion}) does not match the ResourceVersion in record (${obj.metadata.resourceVersion ?? ''}). The object might have been modified`));
  }
  return null;
}

export function deleteObject(ctx: OpContext, namespace: string, name: string, opts: DeleteOptions): OpResult {
  const obj = getObject(ctx.world, ctx.rt.id, namespace, name);
  if (obj === undefined) return fail(errors.notFound(groupResource(ctx), name));
  const failed = checkPreconditions(ctx, obj, opts);
  if (failed !== null) return failed;
  const accepted = opts.orphanDependents === false ? 202 : 200;
  const finalizers = policyFinalizers(obj.metadata.finalizers ?? [], opts);
  const grace = ctx.rt.gracefulDeletion?.(obj, opts.gracePeriodSeconds) ?? null;
  if (obj.metadata.deletionTimestamp !== undefined) {
    // Already terminating: only a shorter grace period (down to 0) changes anything.
    const current = obj.metadata.deletionGracePeriodSeconds ?? 0;
    if (grace === null || grace >= current) return { ok: true, world: ctx.world, code: 200, body: obj, warnings: [] };
    if (grace === 0 && finalizers.length === 0) return remove(ctx, obj);
    return markDeleting(ctx, obj, finalizers, grace, accepted);
  }
  const waits = finalizers.length > 0 || (ctx.rt.specFinalizers?.(obj).length ?? 0) > 0;
  if (waits || (grace !== null && grace > 0)) return markDeleting(ctx, obj, finalizers, grace ?? 0, accepted);
  return remove(ctx, obj);
}

function markDeleting(ctx: OpContext, obj: KubeObject, finalizers: string[], grace: number, code: number): OpResult {
  // A grace period of millennia (Go's duration arithmetic wraps around there) ends at the last
  // instant a timestamp can name: the object stays terminating, and nothing overflows.
  const deletionTimestamp = formatInstant(Math.min(ctx.world.now + grace * 1000, limits.instantMax));
  const meta = copyObject(obj.metadata);
  meta.deletionTimestamp = deletionTimestamp;
  meta.deletionGracePeriodSeconds = grace;
  if (finalizers.length > 0) meta.finalizers = finalizers;
  else dropOwn(meta, 'finalizers');
  if (obj.metadata.deletionTimestamp === undefined && (meta.generation ?? 0) > 0) meta.generation = (meta.generation ?? 0) + 1;
  let updated: KubeObject = { ...obj, metadata: meta };
  if (obj.metadata.deletionTimestamp === undefined && ctx.rt.onDeletionStart !== undefined) updated = ctx.rt.onDeletionStart(updated);
  if (ctx.dryRun) return { ok: true, world: ctx.world, code, body: updated, warnings: [] };
  const done = commit(ctx.world, ctx.rt.id, 'MODIFIED', updated, obj);
  return { ok: true, world: done.world, code, body: done.object, warnings: [] };
}

function remove(ctx: OpContext, obj: KubeObject): OpResult {
  const statusBody = (): Status =>
    successStatus({ name: obj.metadata.name ?? '', ...(ctx.rt.group === '' ? {} : { group: ctx.rt.group }), kind: ctx.rt.resource, uid: obj.metadata.uid ?? '' });
  if (ctx.dryRun) return { ok: true, world: ctx.world, code: 200, body: ctx.rt.deleteReturnsObject ? obj : statusBody(), warnings: [] };
  const done = commit(ctx.world, ctx.rt.id, 'DELETED', obj, obj);
  return { ok: true, world: done.world, code: 200, body: ctx.rt.deleteReturnsObject ? done.object : statusBody(), warnings: [] };
}
