/**
 * The RBAC authorizer (plugin/pkg/auth/authorizer/rbac/rbac.go with the rule resolver of
 * pkg/registry/rbac/validation/rule.go), as a pure function of the world.
 *
 * Order: members of system:masters are allowed outright (the privileged-group authorizer that
 * precedes RBAC). Then every ClusterRoleBinding, then every RoleBinding of the request's
 * namespace, in storage order; the first rule that allows wins. A binding whose role is missing
 * contributes `<kind>.<rbac group> "<name>" not found`; on denial these errors become the reason,
 * `RBAC: <err>` or `RBAC: [<err>, <err>]` (utilerrors aggregate: duplicates dropped).
 *
 * Cost: linear in the bindings, reading stored objects in place. trieSortedKeys is memoised per
 * immutable trie, so the key order is computed once per change of the bindings, not per request.
 *
 * Writing RBAC objects needs more than this decision: the escalation check of the RBAC storage
 * (escalation.ts) asks it again for `escalate` and `bind`.
 */
import type { KubeObject } from '../../api/meta.ts';
import type { Names } from '../../api/names.ts';
import { goQuote } from '../../core/goFormat.ts';
import { objectField } from '../../core/json.ts';
import { getObject } from '../../store/objects.ts';
import { trieGet, trieSortedKeys } from '../../store/trie.ts';
import type { World } from '../../store/world.ts';
import { aggregate } from './aggregate.ts';
import { appliesTo } from './appliesTo.ts';
import type { Attributes, Decision } from './attributes.ts';
import { ruleAllows } from './ruleAllows.ts';

export type { Attributes, Decision } from './attributes.ts';
export { forbidden } from './forbidden.ts';

const allowed: Decision = { allowed: true };

/** The rules a binding grants, or the error resolving its role (GetRoleReferenceRules). */
function roleRules(world: World, names: Names, binding: KubeObject, bindingNamespace: string): unknown[] | string {
  const ref = objectField(binding, 'roleRef');
  const kind = ref['kind'];
  const name = typeof ref['name'] === 'string' ? ref['name'] : '';
  let role: KubeObject | undefined;
  if (kind === 'Role') role = getObject(world, 'rbac/roles', bindingNamespace, name);
  else if (kind === 'ClusterRole') role = getObject(world, 'rbac/clusterroles', '', name);
  else return `unsupported role reference kind: ${goQuote(typeof kind === 'string' ? kind : '')}`;
  if (role === undefined) return `${kind.toLowerCase()}.${names.rbacGroup} ${goQuote(name)} not found`;
  const rules = role['rules'];
  return Array.isArray(rules) ? rules : [];
}

/** Visits the bindings of one namespace ("" = ClusterRoleBindings): true once a rule allows. */
function bindingsAllow(world: World, names: Names, attrs: Attributes, resourceId: string, namespace: string, errs: string[]): boolean {
  const byNs = world.objects[resourceId];
  const byName = byNs === undefined ? undefined : trieGet(byNs, namespace);
  if (byName === undefined) return false;
  for (const key of trieSortedKeys(byName)) {
    const binding = trieGet(byName, key)!;
    if (!appliesTo(binding['subjects'], attrs.user, namespace)) continue;
    const rules = roleRules(world, names, binding, namespace);
    if (typeof rules === 'string') {
      errs.push(rules);
      continue;
    }
    for (const rule of rules) if (ruleAllows(rule, attrs)) return true;
  }
  return false;
}

export function authorize(world: World, names: Names, attrs: Attributes): Decision {
  if (attrs.user.groups.includes('system:masters')) return allowed;
  const errs: string[] = [];
  if (bindingsAllow(world, names, attrs, 'rbac/clusterrolebindings', '', errs)) return allowed;
  if (attrs.namespace !== '' && bindingsAllow(world, names, attrs, 'rbac/rolebindings', attrs.namespace, errs)) return allowed;
  return { allowed: false, reason: errs.length === 0 ? '' : `RBAC: ${aggregate(errs)}` };
}
