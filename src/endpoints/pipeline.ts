/**
 * The request pipeline of kube-apiserver's filter chain, pure: authentication (401), impersonation
 * (403/400), authorization from the path's request attributes (403, before routing, so an
 * unprivileged caller learns nothing about what exists), injected faults, then the handler.
 */
import type { UserInfo } from '../api/userInfo.ts';
import { authenticateRequest } from '../auth/authenticate.ts';
import { impersonate } from '../auth/impersonate.ts';
import { forbidden } from '../auth/rbac/authorize.ts';
import { requestAttributes } from '../auth/requestInfo.ts';
import { errors } from '../core/status.ts';
import type { World } from '../store/world.ts';
import { authContext, isAllowed, type ApiEnv } from './env.ts';
import { handle } from './handle.ts';
import type { Handled } from './handleResource.ts';
import { respondError } from './respond.ts';
import type { ApiRequest, AuthenticatedRequest } from './types.ts';
import { warningHeaders } from './encode.ts';

export { isAllowed };

const json = { output: { type: 'json' as const }, pretty: false };

/** Who a request is, after authentication and impersonation; or the response refusing it. */
export function identify(world: World, env: ApiEnv, req: ApiRequest): { ok: true; user: UserInfo; warnings: readonly string[] } | { ok: false; handled: Handled } {
  let user: UserInfo;
  let warnings: readonly string[] = [];
  if (req.identity !== undefined) user = req.identity;
  else {
    const authn = authenticateRequest({ headers: req.headers, ...(req.clientCertificate === undefined ? {} : { clientCertificate: req.clientCertificate }) }, authContext(world, env));
    if (authn.type === 'unauthorized') return { ok: false, handled: { world, response: respondError(errors.unauthorized(), json, authn.warnings) } };
    user = authn.user;
    warnings = authn.warnings;
  }
  const imp = impersonate(
    req.headers,
    user,
    env.table.names.authenticationGroup,
    (u, attrs) => isAllowed(world, env, u, attrs),
    (u, attrs, reason) => forbidden({ ...attrs, user: u }, reason),
  );
  if (imp.type === 'error') return { ok: false, handled: { world, response: respondError(imp.error, json, warnings) } };
  return { ok: true, user: imp.type === 'user' ? imp.user : user, warnings };
}

// The two copies below are built field by field: requests and handler answers come from many
// places in several hidden classes, and V8 spreads such objects on its slow path (together about a
// tenth of an in-process PATCH).

function authenticatedAs(req: ApiRequest, user: UserInfo): AuthenticatedRequest {
  return { method: req.method, path: req.path, headers: req.headers, body: req.body, json: req.json, identity: req.identity, clientCertificate: req.clientCertificate, user };
}

function handledAs(h: Handled, user: string): Handled {
  return { world: h.world, response: h.response, watch: h.watch, user, control: h.control };
}

export function serveRequest(world: World, env: ApiEnv, req: ApiRequest): Handled {
  const who = identify(world, env, req);
  if (!who.ok) return who.handled;
  const attrs = requestAttributes(req.method, req.path);
  const decision = isAllowed(world, env, who.user, attrs);
  if (!decision.allowed) return { world, response: respondError(forbidden({ ...attrs, user: who.user }, decision.reason ?? ''), json, who.warnings), user: who.user.username };
  let current = world;
  if (env.faults !== undefined) {
    const fault = env.faults(world, attrs, who.user.username);
    if (fault.error !== null) return { world: fault.world, response: respondError(fault.error, json, who.warnings), user: who.user.username };
    current = fault.world;
  }
  const handled = handledAs(handle(current, env, authenticatedAs(req, who.user)), who.user.username);
  if (who.warnings.length === 0) return handled;
  const existing = handled.response.headers['warning'];
  const warning = [...warningHeaders(who.warnings), ...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing])];
  return { ...handled, response: { ...handled.response, headers: { ...handled.response.headers, warning } } };
}
