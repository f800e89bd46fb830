/**
 * The rules that apply to a user in a namespace (RulesFor of pkg/registry/rbac/validation), for
 * SelfSubjectRulesReview (`kubectl auth can-i --list`): every ClusterRoleBinding's role, then the
 * RoleBindings of the namespace, split into resource and non-resource rules.
 */
import { isObject, objectField, type JsonObject } from '../../core/json.ts';
import type { Names } from '../../api/names.ts';
import { getObject } from '../../store/objects.ts';
import { trieGet, trieSortedKeys } from '../../store/trie.ts';
import type { World } from '../../store/world.ts';
import { appliesTo } from './appliesTo.ts';
import type { Attributes } from './attributes.ts';

export interface RulesForUser {
  readonly resourceRules: JsonObject[];
  readonly nonResourceRules: JsonObject[];
  /** Bindings whose role is missing: the evaluation is incomplete. */
  readonly errors: string[];
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export function rulesFor(world: World, names: Names, user: Attributes['user'], namespace: string): RulesForUser {
  const out: RulesForUser = { resourceRules: [], nonResourceRules: [], errors: [] };
  const visit = (resourceId: string, ns: string): void => {
    const byNs = world.objects[resourceId];
    const byName = byNs === undefined ? undefined : trieGet(byNs, ns);
    if (byName === undefined) return;
    for (const key of trieSortedKeys(byName)) {
      const binding = trieGet(byName, key)!;
      if (!appliesTo(binding['subjects'], user, ns)) continue;
      const ref = objectField(binding, 'roleRef');
      const roleName = typeof ref['name'] === 'string' ? ref['name'] : '';
      const role = ref['kind'] === 'Role' ? getObject(world, 'rbac/roles', ns, roleName) : getObject(world, 'rbac/clusterroles', '', roleName);
      if (role === undefined) {
        out.errors.push(`${String(ref['kind']).toLowerCase()}.${names.rbacGroup} "${roleName}" not found`);
        continue;
      }
      for (const rule of Array.isArray(role['rules']) ? role['rules'] : []) {
        if (!isObject(rule)) continue;
        const verbs = strings(rule['verbs']);
        const urls = strings(rule['nonResourceURLs']);
        if (urls.length > 0) out.nonResourceRules.push({ verbs, nonResourceURLs: urls });
        const resources = strings(rule['resources']);
        if (resources.length > 0) {
          const r: JsonObject = { verbs, apiGroups: strings(rule['apiGroups']), resources };
          const resourceNames = strings(rule['resourceNames']);
          if (resourceNames.length > 0) r['resourceNames'] = resourceNames;
          out.resourceRules.push(r);
        }
      }
    }
  };
  visit('rbac/clusterrolebindings', '');
  if (namespace !== '') visit('rbac/rolebindings', namespace);
  return out;
}
