/**
 * SelfSubjectAccessReview (pkg/registry/authorization/selfsubjectaccessreview): may I do this?
 * Exactly one of resourceAttributes and nonResourceAttributes; the answer is the RBAC decision
 * for the caller (after impersonation), with the authorizer's reason when it gave one.
 */
import type { KubeObject } from '../../api/meta.ts';
import type { UserInfo } from '../../api/userInfo.ts';
import type { RequestAttributes } from '../../auth/requestInfo.ts';
import { fieldError } from '../../core/fieldErrors.ts';
import { isObject, objectField, type JsonObject } from '../../core/json.ts';
import { errors } from '../../core/status.ts';
import { fail, type OpResult } from '../../store/ops/context.ts';
import type { World } from '../../store/world.ts';
import type { Names } from '../../api/names.ts';
import { rulesFor } from '../../auth/rbac/rulesFor.ts';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** SelfSubjectRulesReview: the rules that apply to the caller in `spec.namespace`. */
export function reviewRules(world: World, names: Names, user: UserInfo, body: JsonObject): OpResult {
  const spec: JsonObject = objectField(body, 'spec');
  // An empty namespace asks about cluster-wide rules only.
  const namespace = str(spec['namespace']);
  const rules = rulesFor(world, names, user, namespace);
  const status: JsonObject = { resourceRules: rules.resourceRules, nonResourceRules: rules.nonResourceRules, incomplete: rules.errors.length > 0 };
  if (rules.errors.length > 0) status['evaluationError'] = rules.errors.length === 1 ? rules.errors[0]! : `[${rules.errors.join(', ')}]`;
  const out = { kind: 'SelfSubjectRulesReview', apiVersion: `${names.authorizationGroup}/v1`, metadata: {}, spec, status } as unknown as KubeObject;
  return { ok: true, world, code: 201, body: out, warnings: [] };
}

export function reviewAccess(world: World, group: string, user: UserInfo, body: JsonObject, decide: (user: UserInfo, attrs: RequestAttributes) => { allowed: boolean; reason?: string }): OpResult {
  const spec: JsonObject = objectField(body, 'spec');
  const ra = isObject(spec['resourceAttributes']) ? spec['resourceAttributes'] : null;
  const nra = isObject(spec['nonResourceAttributes']) ? spec['nonResourceAttributes'] : null;
  const gk = { group, kind: 'SelfSubjectAccessReview' };
  if (ra !== null && nra !== null) return fail(errors.invalid(gk, '', [fieldError.invalid('spec.nonResourceAttributes', nra, 'cannot be specified in combination with resourceAttributes')]));
  if (ra === null && nra === null) return fail(errors.invalid(gk, '', [fieldError.invalid('spec.resourceAttributes', null, 'exactly one of nonResourceAttributes or resourceAttributes must be specified')]));
  const attrs: RequestAttributes =
    ra !== null
      ? { resourceRequest: true, verb: str(ra['verb']), apiGroup: str(ra['group']), apiVersion: str(ra['version']), namespace: str(ra['namespace']), resource: str(ra['resource']), subresource: str(ra['subresource']), name: str(ra['name']), path: '' }
      : { resourceRequest: false, verb: str(nra!['verb']), apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '', path: str(nra!['path']) };
  const decision = decide(user, attrs);
  const status: JsonObject = { allowed: decision.allowed };
  if (decision.reason !== undefined && decision.reason !== '') status['reason'] = decision.reason;
  const out = { kind: 'SelfSubjectAccessReview', apiVersion: `${group}/v1`, metadata: {}, spec, status } as unknown as KubeObject;
  return { ok: true, world, code: 201, body: out, warnings: [] };
}
