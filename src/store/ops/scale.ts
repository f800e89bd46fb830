/**
 * Writes through a `scale` subresource (autoscaling/v1 Scale): validated as a Scale, then an
 * update of the parent changing only its replicas, with the Scale's resourceVersion as the
 * precondition, so a stale Scale is a 409 like any stale write. Used by the HTTP endpoint and by
 * controllers alike.
 */
import type { KubeObject } from '../../api/meta.ts';
import { errors } from '../../core/status.ts';
import { applyScale, scaleOf, validateScale } from '../../registry/stateful-set/scale.ts';
import { contextWith, fail, type OpContext, type OpResult } from './context.ts';
import { get } from './read.ts';
import { update } from './update.ts';

const scaleKind = { group: 'autoscaling', kind: 'Scale' };

/** The parent object a Scale is read from, or the error reading it. */
export function scaleParent(ctx: OpContext, namespace: string, name: string): { ok: true; parent: KubeObject } | { ok: false; result: OpResult } {
  const r = get(contextWith(ctx, { subresource: '' }), namespace, name);
  return r.ok ? { ok: true, parent: r.body as KubeObject } : { ok: false, result: r };
}

/** Writes `scale` into `parent` (as read by scaleParent); answers the new Scale. */
export function writeScale(ctx: OpContext, parent: KubeObject, scale: KubeObject, namespace: string, name: string): OpResult {
  const problems = validateScale(scale);
  if (problems.length > 0) return fail(errors.invalid(scaleKind, name, problems));
  const r = update(contextWith(ctx, { subresource: '' }), applyScale(parent, scale), namespace, name);
  return r.ok ? { ...r, body: scaleOf(r.body as KubeObject) } : r;
}

/** PUT of a whole Scale. */
export function updateScale(ctx: OpContext, scale: KubeObject, namespace: string, name: string): OpResult {
  const c = scaleParent(ctx, namespace, name);
  return c.ok ? writeScale(ctx, c.parent, scale, namespace, name) : c.result;
}
