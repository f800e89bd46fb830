/**
 * Who is asking, for the in-process API: the admin by default, `as` for an already
 * authenticated identity, a bearer token of a static user, or 401. (Service-account tokens,
 * client certificates, front-proxy headers and impersonation join this chain with identity.)
 */
import { header, type HeaderMap } from '../endpoints/types.ts';
import type { UserInfo } from '../api/userInfo.ts';
import type { StaticUser } from './options.ts';

export interface AsIdentity {
  readonly user: string;
  readonly uid?: string;
  readonly groups?: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

export const adminUser: UserInfo = { username: 'system:admin', groups: ['system:masters', 'system:authenticated'] };

function withAuthenticated(groups: readonly string[]): string[] {
  return groups.includes('system:authenticated') ? [...groups] : [...groups, 'system:authenticated'];
}

export function authenticate(headers: HeaderMap, as: AsIdentity | undefined, users: readonly StaticUser[], anonymous: boolean): UserInfo | null {
  if (as !== undefined) {
    return { username: as.user, ...(as.uid === undefined ? {} : { uid: as.uid }), groups: withAuthenticated(as.groups ?? []), ...(as.extra === undefined ? {} : { extra: as.extra }) };
  }
  const auth = header(headers, 'authorization');
  if (auth === undefined) return anonymous ? { username: 'system:anonymous', groups: ['system:unauthenticated'] } : null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  if (m === null) return null;
  const found = users.find((u) => u.token === m[1]);
  if (found === undefined) return null;
  return { username: found.user, ...(found.uid === undefined ? {} : { uid: found.uid }), groups: withAuthenticated(found.groups ?? []) };
}
