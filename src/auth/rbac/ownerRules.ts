/**
 * The rule resolver of the RBAC storage (pkg/registry/rbac/validation/rule.go over the registry
 * adapters of pkg/registry/rbac/rest): what a binding's role grants, and every rule a user holds
 * in a namespace. Unlike the authorizer's listers, the registry answers a missing role with the
 * store's NotFound, whose message names the plural resource: `clusterroles.<rbac group> "x" not found`.
 */
import type { Names } from '../../api/names.ts';
import { goQuote } from '../../core/goFormat.ts';
import { errors, type ApiError } from '../../core/status.ts';
import { getObject, listObjects } from '../../store/objects.ts';
import type { World } from '../../store/world.ts';
import { objectField } from '../../core/json.ts';
import { appliesTo } from './appliesTo.ts';
import type { Attributes } from './attributes.ts';
import { policyRule, type PolicyRule } from './covers.ts';

export interface RoleRefFields {
  readonly kind: string;
  readonly name: string;
}

/** The role's rules, or why they cannot be had: the API error to answer (NotFound) and its message. */
export type RoleReferenceRules = { readonly ok: true; readonly rules: PolicyRule[] } | { readonly ok: false; readonly message: string; readonly error: ApiError };

const rulesOf = (role: { readonly [key: string]: unknown }): PolicyRule[] => (Array.isArray(role['rules']) ? role['rules'].map(policyRule) : []);

/** GetRoleReferenceRules: a Role in the binding's namespace, or a ClusterRole. */
export function roleReferenceRules(world: World, names: Names, ref: RoleRefFields, bindingNamespace: string): RoleReferenceRules {
  const gr = { group: names.rbacGroup, resource: ref.kind === 'Role' ? 'roles' : 'clusterroles' };
  if (ref.kind !== 'Role' && ref.kind !== 'ClusterRole') {
    // Validation keeps such bindings out of storage; the message is Go's all the same.
    const message = `unsupported role reference kind: ${goQuote(ref.kind)}`;
    return { ok: false, message, error: errors.badRequest(message) };
  }
  const role = ref.kind === 'Role' ? getObject(world, 'rbac/roles', bindingNamespace, ref.name) : getObject(world, 'rbac/clusterroles', '', ref.name);
  if (role !== undefined) return { ok: true, rules: rulesOf(role) };
  const error = errors.notFound(gr, ref.name);
  return { ok: false, message: error.status.message ?? '', error };
}

export interface OwnerRules {
  readonly rules: PolicyRule[];
  /** Bindings whose role could not be resolved: the rules are incomplete. */
  readonly errors: string[];
}

/** RulesFor: the roles of every ClusterRoleBinding, then of the namespace's RoleBindings, naming the user. */
export function ownerRules(world: World, names: Names, user: Attributes['user'], namespace: string): OwnerRules {
  const out: OwnerRules = { rules: [], errors: [] };
  const visit = (resource: string, ns: string): void => {
    for (const binding of listObjects(world, resource, ns)) {
      if (!appliesTo(binding['subjects'], user, ns)) continue;
      const ref = objectField(binding, 'roleRef');
      const resolved = roleReferenceRules(world, names, { kind: typeof ref['kind'] === 'string' ? ref['kind'] : '', name: typeof ref['name'] === 'string' ? ref['name'] : '' }, ns);
      if (resolved.ok) out.rules.push(...resolved.rules);
      else out.errors.push(resolved.message);
    }
  };
  visit('rbac/clusterrolebindings', '');
  if (namespace !== '') visit('rbac/rolebindings', namespace);
  return out;
}
