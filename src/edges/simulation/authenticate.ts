/**
 * Identities of the in-process API that no authenticator establishes: the default admin of
 * `sim.request` and the already-authenticated `as` identity. Everything else (bearer tokens,
 * client certificates, front-proxy headers) goes through the authenticator chain of auth/.
 */
import { extraMap, type UserInfo } from '../../api/userInfo.ts';
import { withAuthenticatedGroup } from '../../auth/serviceAccountUsers.ts';
import { getOwn } from '../../core/json.ts';

export interface AsIdentity {
  readonly user: string;
  readonly uid?: string;
  readonly groups?: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

export const adminUser: UserInfo = { username: 'system:admin', groups: ['system:masters', 'system:authenticated'] };

export function asUser(as: AsIdentity): UserInfo {
  // The caller's own keys only, into a map without a prototype (`constructor` is a key like any other).
  const extra = as.extra === undefined ? undefined : extraMap(Object.keys(as.extra).map((k) => [k, ownValues(as.extra!, k)]));
  const user: UserInfo = { username: as.user, ...(as.uid === undefined ? {} : { uid: as.uid }), groups: [...(as.groups ?? [])], ...(extra === undefined ? {} : { extra }) };
  return withAuthenticatedGroup(user);
}

/** A key's values as strings, whatever a JavaScript caller put there (one string is one value). */
function ownValues(extra: Readonly<Record<string, unknown>>, key: string): string[] {
  const v = getOwn(extra, key);
  if (Array.isArray(v)) return v.map(String);
  return v === undefined || v === null ? [] : [String(v)];
}
