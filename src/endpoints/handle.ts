/**
 * The API entry point, pure: a request and the world in, the new world and the response out.
 * Authentication and authorization happened before (pipeline.ts): `req.user` is who the request
 * runs as. Paths outside the resource tree (discovery, issuer discovery) are answered here.
 */
import type { World } from '../store/world.ts';
import { handleResource, type Handled } from './handleResource.ts';
import { plainNotFound, respondError } from './respond.ts';
import type { ResourceTable } from '../registry/index.ts';
import { route } from './route.ts';
import { errors } from '../core/status.ts';
import { bodyText, header, type ApiRequest, type ApiResponse, type AuthenticatedRequest } from './types.ts';
import type { ApiEnv } from './env.ts';
import { jwks, jwksPath, openIdConfiguration, openIdConfigurationPath } from './identity/issuerDiscovery.ts';
import { aggregatedCaching, aggregatedDiscovery, aggregatedMediaType, apiGroupDocument, apiGroupList, apiResourceList, apiVersions, versionInfo, wantsAggregated } from './discovery.ts';
import { respond } from './respond.ts';
import { headerValues } from '../api/headers.ts';
import { openApiDocument, openApiRoot } from './openapi.ts';
import { isPretty } from './query.ts';

/** Simulation control endpoints: answered by the simulation once authorized here. */
export const controlPrefix = '/sim/v1/';

export function handle(world: World, env: ApiEnv, req: AuthenticatedRequest): Handled {
  const table = env.table;
  const q = req.path.indexOf('?');
  const path = q < 0 ? req.path : req.path.slice(0, q);
  const params = new URLSearchParams(q < 0 ? '' : req.path.slice(q + 1));
  const r = route(table, path);
  switch (r.type) {
    case 'resource':
      return handleResource(world, env, req, r, params);
    case 'notFoundStatus':
      return { world, response: respondError(errors.routeNotFound(), { output: { type: 'json' }, pretty: false }) };
    case 'other': {
      if (path.startsWith(controlPrefix)) return { world, response: plainNotFound(), control: { method: req.method, path, body: bodyText(req) } };
      const doc = discoveryResponse(table, req, path) ?? issuerDiscovery(env, req, path);
      return { world, response: doc ?? plainNotFound() };
    }
    case 'notFoundPlain':
      return { world, response: plainNotFound() };
  }
}

function issuerDiscovery(env: ApiEnv, req: ApiRequest, path: string): ApiResponse | null {
  if (req.method !== 'GET') return null;
  if (path === openIdConfigurationPath) return openIdConfiguration(env.identity, header(req.headers, 'host') ?? '127.0.0.1:6443');
  if (path === jwksPath) return jwks(env.identity);
  return null;
}

/** Discovery documents for GET of `/version`, `/api`, `/apis` and the group(-version) paths. */
function discoveryResponse(table: ResourceTable, req: ApiRequest, path: string): ApiResponse | null {
  if (req.method !== 'GET') return null;
  const accept = header(req.headers, 'accept');
  const rendering = { output: { type: 'json' as const }, pretty: isPretty(new URLSearchParams(req.path.split('?')[1] ?? ''), header(req.headers, 'user-agent') ?? '') };
  const seg = path.split('/').filter((s) => s !== '');
  const aggregated = (core: boolean): ApiResponse => {
    const doc = aggregatedDiscovery(table, core);
    const caching = aggregatedCaching(doc, headerValues(req.headers, 'if-none-match')[0]);
    if (caching.notModified) return { status: 304, headers: caching.headers, body: '' };
    const r = respond(200, doc, rendering);
    return { ...r, headers: { ...r.headers, 'content-type': aggregatedMediaType, ...caching.headers } };
  };
  if (seg.length === 1 && seg[0] === 'version') return respond(200, versionInfo, rendering);
  if (seg[0] === 'openapi' && seg[1] === 'v3') {
    if (seg.length === 2) return respond(200, openApiRoot(table), rendering);
    const doc = seg[2] === 'api' && seg.length === 4 ? openApiDocument(table, '', seg[3]!) : seg[2] === 'apis' && seg.length === 5 ? openApiDocument(table, seg[3]!, seg[4]!) : null;
    return doc === null ? null : respond(200, doc, rendering);
  }
  if (seg.length === 1 && seg[0] === 'api') return wantsAggregated(accept) ? aggregated(true) : respond(200, apiVersions(header(req.headers, 'host') ?? '127.0.0.1:6443'), rendering);
  if (seg.length === 1 && seg[0] === 'apis') return wantsAggregated(accept) ? aggregated(false) : respond(200, apiGroupList(table), rendering);
  let doc: object | null = null;
  if (seg.length === 2 && seg[0] === 'api') doc = apiResourceList(table, '', seg[1]!);
  else if (seg.length === 2 && seg[0] === 'apis') doc = apiGroupDocument(table, seg[1]!);
  else if (seg.length === 3 && seg[0] === 'apis') doc = apiResourceList(table, seg[1]!, seg[2]!);
  return doc === null ? null : respond(200, doc, rendering);
}
