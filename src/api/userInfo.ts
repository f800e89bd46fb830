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

/** The identity of writes made by the simulation itself (bootstrap, controllers). */
export const systemUser: UserInfo = { username: 'system:apiserver', groups: ['system:masters'] };
