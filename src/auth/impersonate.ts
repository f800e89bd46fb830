/**
 * Impersonation (apiserver filters/impersonation.go, the legacy mode): `Impersonate-User`,
 * `-Uid`, `-Group` (repeatable) and `Impersonate-Extra-<key>` headers. The caller must be allowed
 * the verb `impersonate` on each item — the user (or the service account, namespaced), each group,
 * each extra value, the uid — checked in that order; the first denial is the 403. The request then
 * runs as the impersonated user, whose groups and extras are exactly the impersonated ones.
 */
import { headerValues, headersWithPrefix, type HeaderMap } from '../api/headers.ts';
import { extraMap, type UserInfo } from '../api/userInfo.ts';
import { errors, type ApiError } from '../core/status.ts';
import type { RequestAttributes } from './requestInfo.ts';
import { parseServiceAccountUsername, serviceAccountGroups } from './serviceAccountUsers.ts';

export type Authorizer = (user: UserInfo, attrs: RequestAttributes) => { readonly allowed: boolean; readonly reason?: string };
export type Denial = (user: UserInfo, attrs: RequestAttributes, reason: string) => ApiError;

export type Impersonation =
  | { readonly type: 'none' }
  | { readonly type: 'user'; readonly user: UserInfo }
  | { readonly type: 'error'; readonly error: ApiError };

const extraPrefix = 'impersonate-extra-';

function check(verbAttrs: Partial<RequestAttributes>): RequestAttributes {
  return { resourceRequest: true, verb: 'impersonate', apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '', path: '', ...verbAttrs };
}

function percentDecoded(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

export function impersonate(headers: HeaderMap, caller: UserInfo, authenticationGroup: string, authorize: Authorizer, deny: Denial): Impersonation {
  const username = headerValues(headers, 'impersonate-user')[0];
  const uid = headerValues(headers, 'impersonate-uid')[0];
  const groups = headerValues(headers, 'impersonate-group');
  const extra = extraMap(headersWithPrefix(headers, extraPrefix).map((name) => [percentDecoded(name.slice(extraPrefix.length).toLowerCase()), headerValues(headers, name)]));
  const extraKeys = Object.keys(extra).sort();
  if (username === undefined) {
    if (groups.length === 0 && extraKeys.length === 0 && uid === undefined) return { type: 'none' };
    const asked = [...groups.map((g) => `group ${g}`), ...extraKeys.map((k) => `extra ${k}`), ...(uid === undefined ? [] : [`uid ${uid}`])];
    return { type: 'error', error: errors.badRequest(`requested [${asked.join(' ')}] without impersonating a user`) };
  }
  const sa = parseServiceAccountUsername(username);
  const checks: RequestAttributes[] = [
    sa === null ? check({ resource: 'users', name: username }) : check({ resource: 'serviceaccounts', namespace: sa.namespace, name: sa.name }),
    ...groups.map((g) => check({ resource: 'groups', name: g })),
    ...extraKeys.flatMap((k) => extra[k]!.map((v) => check({ apiGroup: authenticationGroup, resource: 'userextras', subresource: k, name: v }))),
    ...(uid === undefined ? [] : [check({ apiGroup: authenticationGroup, resource: 'uids', name: uid })]),
  ];
  for (const attrs of checks) {
    const d = authorize(caller, attrs);
    if (!d.allowed) return { type: 'error', error: deny(caller, attrs, d.reason ?? '') };
  }
  let resultGroups = groups.length === 0 && sa !== null ? serviceAccountGroups(sa.namespace) : [...groups];
  if (username === 'system:anonymous') {
    if (!resultGroups.includes('system:unauthenticated')) resultGroups = [...resultGroups, 'system:unauthenticated'];
  } else if (!resultGroups.includes('system:authenticated') && !resultGroups.includes('system:unauthenticated')) {
    resultGroups = [...resultGroups, 'system:authenticated'];
  }
  const user: UserInfo = { username, ...(uid === undefined ? {} : { uid }), groups: resultGroups, ...(extraKeys.length === 0 ? {} : { extra }) };
  return { type: 'user', user };
}
