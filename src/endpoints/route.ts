/**
 * Routing of API paths, as go-restful does for kube-apiserver: `/api/v1/…` and
 * `/apis/<group>/<version>/…`, then `[namespaces/<ns>/]<resource>[/<name>[/<subresource>]]`.
 * A path outside every served group-version is the plain-text `404 page not found`; a path under
 * a served group-version that matches no resource is a 404 Status.
 */
import type { ResourceType } from '../registry/types.ts';
import { pathSegments } from '../core/pathSegments.ts';
import type { ResourceTable } from '../registry/index.ts';

export interface ResourceRoute {
  readonly type: 'resource';
  readonly rt: ResourceType;
  /** Namespace from the path ('' for cluster-scoped, null for an all-namespaces list). */
  readonly namespace: string | null;
  readonly name: string | null;
  readonly subresource: string;
}

export type Route =
  | ResourceRoute
  | { readonly type: 'notFoundPlain' }
  | { readonly type: 'notFoundStatus' }
  | { readonly type: 'other'; readonly path: string };

export function route(table: ResourceTable, path: string): Route {
  const seg = pathSegments(path);
  if (seg === null) return { type: 'notFoundPlain' };
  let group: string;
  let version: string;
  let rest: string[];
  if (seg[0] === 'api' && seg.length >= 2) {
    group = '';
    version = seg[1]!;
    rest = seg.slice(2);
  } else if (seg[0] === 'apis' && seg.length >= 3) {
    group = seg[1]!;
    version = seg[2]!;
    rest = seg.slice(3);
  } else return { type: 'other', path };
  if (!(table.groupVersions.get(group) ?? []).includes(version)) return { type: 'notFoundPlain' };
  if (rest.length === 0) return { type: 'other', path };
  return resourceRoute(table, group, version, rest) ?? { type: 'notFoundStatus' };
}

function resourceRoute(table: ResourceTable, group: string, version: string, rest: string[]): ResourceRoute | null {
  // namespaces/<ns>/<resource>/… addresses namespaced content; namespaces/<name>[/status] the namespace.
  if (rest[0] === 'namespaces' && rest.length >= 3 && rest[2] !== 'status' && rest[2] !== 'finalize') {
    const rt = table.byPath(group, version, rest[2]!);
    if (rt === undefined || !rt.namespaced || rest.length > 5) return null;
    return withName(rt, rest[1]!, rest.slice(3));
  }
  const rt = table.byPath(group, version, rest[0]!);
  if (rt === undefined || rest.length > 3) return null;
  if (rt.namespaced) return rest.length === 1 ? { type: 'resource', rt, namespace: null, name: null, subresource: '' } : null;
  return withName(rt, '', rest.slice(1));
}

function withName(rt: ResourceType, namespace: string, tail: string[]): ResourceRoute | null {
  const name = tail[0] ?? null;
  const subresource = tail[1] ?? '';
  if (subresource !== '' && !rt.subresources.some((s) => s.name === subresource)) return null;
  return { type: 'resource', rt, namespace, name, subresource };
}
