/**
 * Create (POST), in Kubernetes' order: URL/body consistency, namespace lifecycle, system fields
 * wiped and set, generateName, strategy preparation, validation (422), existence (409), managed
 * fields, commit. `dryRun` runs every step and writes nothing.
 */
import type { KubeObject, ManagedFieldsEntry } from '../../api/meta.ts';
import { formatInstant } from '../../core/duration.ts';
import { copyObject, dropOwn } from '../../core/json.ts';
import { errors } from '../../core/status.ts';
import { limits } from '../../core/limits.ts';
import { validateObjectMetaCreate } from '../../registry/validation/objectMeta.ts';
import { recordUpdate } from '../apply/managedFields.ts';
import { commit } from '../commit.ts';
import { withManagedFields } from './typeMeta.ts';
import { generatedSuffix, newUid } from '../ids.ts';
import { getObject } from '../objects.ts';
import type { World } from '../world.ts';
import { checkNamespaceOpen } from './namespaceLifecycle.ts';
import { dedupOwnerReferences } from './ownerReferences.ts';
import { omitEmptyCollections } from './omitEmpty.ts';
import { contextWith, fail, groupKind, groupResource, strategyContext, type OpContext, type OpResult } from './context.ts';
import { apiVersionOf, withTypeMeta } from './typeMeta.ts';

const wipedOnCreate = ['creationTimestamp', 'uid', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'selfLink'] as const;

export interface CreateOptions {
  /** Managed fields already computed (server-side apply creating the object). */
  readonly managedFields?: ManagedFieldsEntry[];
}

export function create(ctx: OpContext, input: KubeObject, urlNamespace: string, options: CreateOptions = {}): OpResult {
  const { rt } = ctx;
  const meta = copyObject(input.metadata);
  if (rt.namespaced) {
    if (meta.namespace === undefined || meta.namespace === '') meta.namespace = urlNamespace;
    else if (meta.namespace !== urlNamespace) return fail(errors.badRequest('the namespace of the provided object does not match the namespace sent on the request'));
  } else delete meta.namespace;
  // The handler dedups owner references once the namespace is checked, before anything else.
  const deduped = dedupOwnerReferences({ ...input, metadata: meta }, false);
  const result = createDeduped(ctx, deduped.object, options);
  return deduped.warnings.length === 0 ? result : { ...result, warnings: [...deduped.warnings, ...result.warnings] };
}

function createDeduped(ctx: OpContext, input: KubeObject, options: CreateOptions): OpResult {
  const meta = { ...input.metadata };
  if (meta.resourceVersion !== undefined && meta.resourceVersion !== '' && !ctx.dryRun) {
    // Kubernetes answers a reasonless 500 here; a client's mistake gets a 400 (docs/divergences.md).
    return fail(errors.badRequest('resourceVersion should not be set on objects to be created'));
  }
  dropOwn(meta, 'resourceVersion');
  for (const k of wipedOnCreate) dropOwn(meta, k);
  if (ctx.rt.namespaced) {
    const closed = checkNamespaceOpen(ctx, meta.namespace ?? '', meta.name ?? meta.generateName ?? '');
    if (closed !== null) return fail(closed);
  }
  return createNamed(ctx, { ...input, metadata: meta }, options);
}

function createNamed(ctx: OpContext, input: KubeObject, options: CreateOptions): OpResult {
  let world: World = ctx.world;
  const meta = input.metadata;
  const namespace = meta.namespace ?? '';
  const generate = (meta.name === undefined || meta.name === '') && meta.generateName !== undefined && meta.generateName !== '';
  let name = meta.name ?? '';
  if (generate) {
    const prefix = meta.generateName!.slice(0, limits.generateNamePrefixMax);
    for (let attempt = 0; attempt < limits.generateNameAttemptsMax; attempt++) {
      const drawn = generatedSuffix(world, ctx.dryRun, attempt);
      world = drawn.world;
      name = prefix + drawn.suffix;
      if (getObject(world, ctx.rt.id, namespace, name) === undefined) break;
      if (attempt === limits.generateNameAttemptsMax - 1) return fail(errors.generateNameExhausted(groupResource(ctx), name));
    }
  }
  const drawnUid = newUid(world, ctx.dryRun);
  world = drawnUid.world;
  const sctx = strategyContext(contextWith(ctx, { world }));
  const created = copyObject(meta);
  created.name = name;
  created.uid = drawnUid.uid;
  created.creationTimestamp = formatInstant(world.now);
  let obj: KubeObject = withTypeMeta(ctx.rt, { ...input, metadata: created });
  for (const field of ctx.rt.resetFields) dropOwn(obj, field);
  obj = ctx.rt.strategy.prepareForCreate(obj, sctx);
  if (ctx.rt.admitCreate !== undefined) {
    const admitted = ctx.rt.admitCreate(obj, sctx);
    if (!admitted.ok) return fail(errors.forbidden(groupResource(ctx), name, admitted.message));
    obj = admitted.object;
  }
  if (ctx.rt.hasGeneration) {
    const meta = copyObject(obj.metadata);
    meta.generation = 1;
    obj = { ...obj, metadata: meta };
  }
  else dropOwn(obj.metadata, 'generation');
  obj = omitEmptyCollections(obj, ctx.rt.schema);
  const fieldErrors = [...validateObjectMetaCreate(obj.metadata, { namespaced: ctx.rt.namespaced, nameRule: ctx.rt.nameRule }), ...ctx.rt.strategy.validate(obj, sctx)];
  if (fieldErrors.length > 0) return fail(errors.invalid(groupKind(ctx), name || (meta.generateName ?? ''), fieldErrors));
  if (ctx.rt.validateCreateAdmission !== undefined) {
    const admitted = ctx.rt.validateCreateAdmission(obj, sctx);
    if (!admitted.ok) return fail(errors.forbidden(groupResource(ctx), name, admitted.message));
  }
  const warnings = ctx.rt.strategy.warningsOnCreate(obj, sctx);
  const existing = getObject(world, ctx.rt.id, namespace, name);
  if (existing !== undefined) {
    return fail(existing.metadata.deletionTimestamp !== undefined ? errors.alreadyExistsTerminating(groupResource(ctx), name) : errors.alreadyExists(groupResource(ctx), name), warnings);
  }
  const managedFields = options.managedFields ?? recordUpdate({
    live: null,
    updated: obj as never,
    manager: ctx.fieldManager,
    apiVersion: apiVersionOf(ctx.rt),
    time: formatInstant(world.now),
    schema: ctx.rt.schema,
    statusReset: ctx.rt.resetFields.includes('status'),
    ...(ctx.subresource === '' ? {} : { subresource: ctx.subresource }),
  });
  obj = { ...obj, metadata: withManagedFields(obj.metadata, managedFields) };
  if (ctx.dryRun) return { ok: true, world: ctx.world, code: 201, body: obj, warnings };
  // `obj` and its metadata were made just now (withManagedFields copies the metadata).
  const done = commit(world, ctx.rt.id, 'ADDED', obj, null, true);
  return { ok: true, world: done.world, code: 201, body: done.object, warnings };
}
