/**
 * Creates that are answered rather than stored: the `serviceaccounts/token` subresource,
 * TokenReview and SelfSubjectReview.
 */
import type { UserInfo } from '../../api/userInfo.ts';
import type { JsonObject } from '../../core/json.ts';
import { assert } from '../../core/assert.ts';
import type { OpResult } from '../../store/ops/context.ts';
import type { World } from '../../store/world.ts';
import { authContext, isAllowed, type ApiEnv } from '../env.ts';
import type { ResourceRoute } from '../route.ts';
import { reviewSelf, reviewToken } from './reviews.ts';
import { issueToken } from './tokenRequest.ts';
import { reviewAccess, reviewRules } from './accessReview.ts';


export function isVirtualCreate(r: ResourceRoute): boolean {
  return r.rt.virtual === true || (r.rt.id === 'core/serviceaccounts' && r.subresource === 'token');
}

export function createVirtual(world: World, env: ApiEnv, user: UserInfo, r: ResourceRoute, body: JsonObject): OpResult {
  if (r.subresource === 'token') {
    return issueToken({ world, names: env.table.names, identity: env.identity, crypto: env.crypto, namespace: r.namespace ?? '', name: r.name ?? '', body });
  }
  const ctx = authContext(world, env);
  if (r.rt.id === 'authentication/tokenreviews') return reviewToken(ctx, body);
  if (r.rt.id === 'authorization/selfsubjectrulesreviews') return reviewRules(world, env.table.names, user, body);
  if (r.rt.id === 'authorization/selfsubjectaccessreviews') return reviewAccess(world, env.table.names.authorizationGroup, user, body, (u, attrs) => isAllowed(world, env, u, attrs));
  assert(r.rt.id === 'authentication/selfsubjectreviews', `no handler for the virtual kind ${r.rt.id}`);
  return reviewSelf(ctx, user);
}
