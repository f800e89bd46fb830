/**
 * Identities of the in-process API that no authenticator establishes: the default admin of
 * `sim.request` and the already-authenticated `as` identity. Everything else (bearer tokens,
 * client certificates, front-proxy headers) goes through the authenticator chain of auth/.
 */
import type { UserInfo } from '../../api/userInfo.ts';
import { withAuthenticatedGroup } from '../../auth/serviceAccountUsers.ts';

export interface AsIdentity {
  readonly user: string;
  readonly uid?: string;
  readonly groups?: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

export const adminUser: UserInfo = { username: 'system:admin', groups: ['system:masters', 'system:authenticated'] };

export function asUser(as: AsIdentity): UserInfo {
  const user: UserInfo = { username: as.user, ...(as.uid === undefined ? {} : { uid: as.uid }), groups: [...(as.groups ?? [])], ...(as.extra === undefined ? {} : { extra: as.extra }) };
  return withAuthenticatedGroup(user);
}
