/**
 * Request attributes for authorization, parsed from the path alone as kube-apiserver's
 * RequestInfoFactory does (before routing: an unprivileged user is refused a path even when it
 * names no served resource). `/api/v1/namespaces/ns/serviceaccounts/sa/token` is verb `create`
 * (for POST), resource `serviceaccounts`, subresource `token`, namespace `ns`, name `sa`.
 */
import { getOwn } from '../core/json.ts';
import { pathSegments } from '../core/pathSegments.ts';
export interface RequestAttributes {
  readonly resourceRequest: boolean;
  readonly verb: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  /** The request path without query (for non-resource requests). */
  readonly path: string;
}

const methodVerbs: Record<string, string> = { POST: 'create', GET: 'get', HEAD: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };
/** Subresources of a Namespace object itself: `namespaces/<ns>/status` is not a namespaced collection. */
const namespaceSubresources = new Set(['status', 'finalize']);

function nonResource(method: string, path: string): RequestAttributes {
  return { resourceRequest: false, verb: method.toLowerCase(), apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '', path };
}

/** A watch parameter turns a collection GET into `watch` unless it is `false` or `0`. */
function isWatch(params: URLSearchParams): boolean {
  const v = params.get('watch');
  return v !== null && v.toLowerCase() !== 'false' && v !== '0';
}

/** `metadata.name=<x>` (or `==`) as the only field requirement names one object. */
function nameFromFieldSelector(params: URLSearchParams): string {
  const fs = params.get('fieldSelector');
  if (fs === null) return '';
  const m = /^\s*metadata\.name\s*==?\s*([^,=!]*?)\s*$/.exec(fs);
  const name = m?.[1] ?? '';
  return name === '' || name === '.' || name === '..' || /[/%]/.test(name) ? '' : name;
}

export function requestAttributes(method: string, pathWithQuery: string): RequestAttributes {
  const q = pathWithQuery.indexOf('?');
  const path = q < 0 ? pathWithQuery : pathWithQuery.slice(0, q);
  const segments = pathSegments(path);
  if (segments === null) return nonResource(method, path);
  let parts: readonly string[] = segments;
  let apiGroup = '';
  // `/api/<v>/<resource>…` and `/apis/<g>/<v>/<resource>…`; anything shorter is a non-resource path.
  if (parts[0] === 'api' && parts.length >= 3) parts = parts.slice(1);
  else if (parts[0] === 'apis' && parts.length >= 4) {
    apiGroup = parts[1]!;
    parts = parts.slice(2);
  } else return nonResource(method, path);
  const apiVersion = parts[0]!;
  parts = parts.slice(1);
  let verb = getOwn(methodVerbs, method.toUpperCase()) ?? '';
  // The deprecated `/watch/` path prefix.
  if (parts[0] === 'watch') {
    parts = parts.slice(1);
    if (verb === 'get') verb = 'watch';
  }
  let namespace = '';
  if (parts[0] === 'namespaces' && parts.length > 1) {
    namespace = parts[1]!;
    if (parts.length > 2 && !namespaceSubresources.has(parts[2]!)) parts = parts.slice(2);
  }
  const resource = parts[0] ?? '';
  let name = parts[1] ?? '';
  const subresource = parts[2] ?? '';
  if (name === '' && verb === 'get') {
    // Only collection reads look at the query (watch, a single-name field selector).
    const params = new URLSearchParams(q < 0 ? '' : pathWithQuery.slice(q + 1));
    verb = isWatch(params) ? 'watch' : 'list';
    name = nameFromFieldSelector(params);
  }
  if (name === '' && verb === 'delete') verb = 'deletecollection';
  return { resourceRequest: true, verb, apiGroup, apiVersion, namespace, resource, subresource, name, path };
}
