/**
 * deletecollection: list with the request's selectors and paging, delete each item with the
 * request's DeleteOptions (preconditions do not apply), and answer `200 Status` as the spec's
 * endpoint tables say (the real server answers the list of deleted objects despite its OpenAPI
 * promising a Status: docs/divergences.md).
 */
import type { KubeObject } from '../../api/meta.ts';
import { contextWith, type OpBody, type OpContext, type OpResult } from './context.ts';
import { deleteObject, type DeleteOptions } from './delete.ts';
import { list, type ListOptions } from './read.ts';

export function deleteCollection(ctx: OpContext, namespace: string | null, listOpts: ListOptions, opts: DeleteOptions): OpResult {
  const listed = list(ctx, namespace, listOpts);
  if (!listed.ok) return listed;
  const body = listed.body as Extract<OpBody, { items: KubeObject[] }>;
  let world = ctx.world;
  const warnings: string[] = [];
  const { preconditions: _p, ...rest } = opts;
  for (const item of body.items) {
    const r = deleteObject(contextWith(ctx, { world }), item.metadata.namespace ?? '', item.metadata.name ?? '', rest);
    if (!r.ok) continue; // gone meanwhile: not an error for a collection delete
    world = r.world;
    warnings.push(...r.warnings);
  }
  return { ok: true, world, code: 200, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' }, warnings };
}
