/**
 * Who a request runs as, after authentication and impersonation (Kubernetes' user.Info).
 * Groups keep their order; `extra` keys as the authenticator produced them.
 */
export interface UserInfo {
  readonly username: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/**
 * An `extra` map from user-named keys, built without a prototype: `constructor`, `__proto__` or
 * `toString` are ordinary keys, never Object.prototype members. Values of a repeated key join in order.
 */
export function extraMap(entries: Iterable<readonly [string, readonly string[]]>): Record<string, string[]> {
  const out = Object.create(null) as Record<string, string[]>;
  for (const [key, values] of entries) out[key] = [...(Object.prototype.hasOwnProperty.call(out, key) ? out[key]! : []), ...values];
  return out;
}

/** The identity of writes made by the simulation itself (bootstrap, controllers). */
export const systemUser: UserInfo = { username: 'system:apiserver', groups: ['system:masters'] };
