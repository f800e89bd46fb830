/**
 * What the API needs besides the world and the request: the served kinds, the identity
 * configuration, and the crypto facts of this pass (see api/crypto.ts).
 */
import type { CryptoFacts } from '../api/crypto.ts';
import type { IdentityConfig } from '../auth/identityConfig.ts';
import type { ResourceTable } from '../registry/index.ts';
import type { AuthContext } from '../auth/authenticate.ts';
import type { World } from '../store/world.ts';
import type { RequestAttributes } from '../auth/requestInfo.ts';
import type { ApiError } from '../core/status.ts';
import type { UserInfo } from '../api/userInfo.ts';
import { authorize } from '../auth/rbac/authorize.ts';
import type { StaleReadDecision } from './staleRead.ts';

export interface ApiEnv {
  readonly table: ResourceTable;
  readonly identity: IdentityConfig;
  readonly crypto: CryptoFacts;
  /** Fault injection for authorized requests (sim/faults.ts): an error to answer instead, or none. */
  readonly faults?: (world: World, attrs: RequestAttributes, user: string) => { readonly world: World; readonly error: ApiError | null };
  /** staleRead faults (sim/staleReads.ts): whether a read is answered from an older revision. */
  readonly staleReads?: StaleReadDecision;
}

export function authContext(world: World, env: ApiEnv): AuthContext {
  return { world, config: env.identity, names: env.table.names, crypto: env.crypto };
}

/** The RBAC decision for a user and request attributes. */
export function isAllowed(world: World, env: ApiEnv, user: UserInfo, attrs: RequestAttributes): { allowed: boolean; reason?: string } {
  // authorize's own first rule, before the attributes are copied: most requests are an admin's.
  if (user.groups.includes(privilegedGroup)) return allowedOutright;
  return authorize(world, env.table.names, { ...attrs, user });
}

const privilegedGroup = 'system:masters';
const allowedOutright = Object.freeze({ allowed: true });
