/**
 * Which verb a method names on a route, and the 405 for those a route does not serve.
 */
import type { Verb } from '../registry/types.ts';
import type { ResourceRoute } from './route.ts';

export type RequestVerb = Verb;

export function verbOf(method: string, r: ResourceRoute, watch: boolean): RequestVerb | null {
  const m = method.toUpperCase();
  if (r.subresource !== '') {
    const sub = r.rt.subresources.find((s) => s.name === r.subresource);
    const verb: Verb | null = m === 'GET' ? 'get' : m === 'PUT' ? 'update' : m === 'PATCH' ? 'patch' : m === 'POST' ? 'create' : null;
    return verb !== null && sub !== undefined && sub.verbs.includes(verb) ? verb : null;
  }
  let verb: Verb | null;
  if (r.name === null) {
    if (r.namespace === null) verb = m === 'GET' ? (watch ? 'watch' : 'list') : null;
    else verb = m === 'GET' ? (watch ? 'watch' : 'list') : m === 'POST' ? 'create' : m === 'DELETE' ? 'deletecollection' : null;
  } else verb = m === 'GET' ? (watch ? 'watch' : 'get') : m === 'PUT' ? 'update' : m === 'PATCH' ? 'patch' : m === 'DELETE' ? 'delete' : null;
  return verb !== null && r.rt.verbs.includes(verb) ? verb : null;
}

/** Methods a route answers, for the `Allow` header of a 405. */
export function allowedMethods(r: ResourceRoute): string[] {
  return ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => verbOf(m, r, false) !== null);
}
