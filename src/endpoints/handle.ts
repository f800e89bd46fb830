/**
 * The API entry point, pure: a request and the world in, the new world and the response out.
 * Authentication happened before (the caller passes `req.user`); authorization is the hook below,
 * which issue-by-issue grows into RBAC. Paths outside the resource tree are answered here.
 */
import type { World } from '../store/world.ts';
import { handleResource, type Handled } from './handleResource.ts';
import { plainNotFound, respondError } from './respond.ts';
import type { ResourceTable } from './resourceTable.ts';
import { route } from './route.ts';
import { errors } from '../core/status.ts';
import type { ApiRequest } from './types.ts';

export function handle(world: World, table: ResourceTable, req: ApiRequest): Handled {
  const q = req.path.indexOf('?');
  const path = q < 0 ? req.path : req.path.slice(0, q);
  const params = new URLSearchParams(q < 0 ? '' : req.path.slice(q + 1));
  const r = route(table, path);
  switch (r.type) {
    case 'resource':
      return handleResource(world, table, req, r, params);
    case 'notFoundStatus':
      return { world, response: respondError(errors.routeNotFound(), { output: { type: 'json' }, pretty: false }) };
    case 'notFoundPlain':
    case 'other':
      return { world, response: plainNotFound() };
  }
}
