/**
 * Service-account identities (apiserver/pkg/authentication/serviceaccount/util.go): the username
 * `system:serviceaccount:<ns>:<name>`, recognised only in exactly that shape with a valid
 * namespace and name, and the two groups every service account belongs to.
 */
import type { UserInfo } from '../api/userInfo.ts';
import { isDNS1123Label, isDNS1123Subdomain } from '../registry/validation/names.ts';

const prefix = 'system:serviceaccount:';
export const allServiceAccountsGroup = 'system:serviceaccounts';

export function serviceAccountUsername(namespace: string, name: string): string {
  return `${prefix}${namespace}:${name}`;
}

export function serviceAccountGroups(namespace: string): string[] {
  return [allServiceAccountsGroup, `${allServiceAccountsGroup}:${namespace}`];
}

/** The namespace and name of a service-account username, or null for any other username. */
export function parseServiceAccountUsername(username: string): { namespace: string; name: string } | null {
  if (!username.startsWith(prefix)) return null;
  const parts = username.slice(prefix.length).split(':');
  if (parts.length !== 2) return null;
  const [namespace, name] = parts as [string, string];
  if (isDNS1123Label(namespace).length > 0 || isDNS1123Subdomain(name).length > 0) return null;
  return { namespace, name };
}

/** The authenticated-group adder: every user but anonymous ends up in `system:authenticated`. */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  const g = user.groups;
  if (user.username === 'system:anonymous' || g.includes('system:authenticated') || g.includes('system:unauthenticated')) return user;
  return { ...user, groups: [...g, 'system:authenticated'] };
}

export const anonymousUser: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
