/**
 * TokenReview (pkg/registry/authentication/tokenreview) and SelfSubjectReview
 * (…/selfsubjectreview): answered from the request, never stored. A TokenReview runs the token
 * authenticators for the review's audiences and always answers 201 — a bad token is a status,
 * not an error. A SelfSubjectReview returns the user the request runs as.
 */
import type { KubeObject } from '../../api/meta.ts';
import type { UserInfo } from '../../api/userInfo.ts';
import { authenticateToken, type AuthContext } from '../../auth/authenticate.ts';
import { formatInstant } from '../../core/duration.ts';
import { objectField, type JsonObject } from '../../core/json.ts';
import { errors } from '../../core/status.ts';
import { fail, type OpResult } from '../../store/ops/context.ts';

/** UserInfo as Go encodes it: every empty part omitted. */
export function encodeUserInfo(u: UserInfo): JsonObject {
  const out: JsonObject = {};
  if (u.username !== '') out['username'] = u.username;
  if (u.uid !== undefined && u.uid !== '') out['uid'] = u.uid;
  if (u.groups.length > 0) out['groups'] = [...u.groups];
  const keys = Object.keys(u.extra ?? {}).sort();
  if (keys.length > 0) out['extra'] = Object.fromEntries(keys.map((k) => [k, [...u.extra![k]!]]));
  return out;
}

export function reviewToken(ctx: AuthContext, body: JsonObject): OpResult {
  const group = ctx.names.authenticationGroup;
  const spec: JsonObject = objectField(body, 'spec');
  const token = typeof spec['token'] === 'string' ? spec['token'] : '';
  if (token === '') return fail(errors.badRequest('token is required for TokenReview in authentication'));
  const asked = Array.isArray(spec['audiences']) ? spec['audiences'].filter((a): a is string => typeof a === 'string') : [];
  const r = authenticateToken(token, asked.length > 0 ? asked : ctx.config.apiAudiences, ctx);
  const status: JsonObject = r.ok
    ? { authenticated: true, user: encodeUserInfo(r.user), ...(r.audiences.length > 0 ? { audiences: [...r.audiences] } : {}) }
    : { user: {}, error: r.error };
  const meta = { ...objectField(body, 'metadata') };
  delete meta['namespace'];
  const out = { kind: 'TokenReview', apiVersion: `${group}/v1`, metadata: meta, spec, status } as unknown as KubeObject;
  return { ok: true, world: ctx.world, code: 201, body: out, warnings: [] };
}

export function reviewSelf(ctx: AuthContext, user: UserInfo): OpResult {
  const out = {
    kind: 'SelfSubjectReview',
    apiVersion: `${ctx.names.authenticationGroup}/v1`,
    metadata: { creationTimestamp: formatInstant(ctx.world.now) },
    status: { userInfo: encodeUserInfo(user) },
  } as unknown as KubeObject;
  return { ok: true, world: ctx.world, code: 201, body: out, warnings: [] };
}
