/**
 * Subject matching of pkg/registry/rbac/validation/rule.go (appliesToUser). `bindingNamespace`
 * is the RoleBinding's namespace, or "" for a ClusterRoleBinding: a ServiceAccount subject
 * without a namespace defaults to it, and so never matches from a ClusterRoleBinding.
 */
import { isObject } from '../../core/json.ts';
import type { Attributes } from './attributes.ts';

function subjectApplies(subject: unknown, user: Attributes['user'], bindingNamespace: string): boolean {
  if (!isObject(subject)) return false;
  const name = subject['name'];
  if (typeof name !== 'string') return false;
  switch (subject['kind']) {
    case 'User':
      return user.username === name;
    case 'Group':
      return user.groups.includes(name);
    case 'ServiceAccount': {
      const own = subject['namespace'];
      const ns = typeof own === 'string' && own !== '' ? own : bindingNamespace;
      return ns !== '' && user.username === `system:serviceaccount:${ns}:${name}`;
    }
    default:
      return false;
  }
}

/** Whether any subject of a stored binding is the user. */
export function appliesTo(subjects: unknown, user: Attributes['user'], bindingNamespace: string): boolean {
  if (!Array.isArray(subjects)) return false;
  for (const s of subjects) if (subjectApplies(s, user, bindingNamespace)) return true;
  return false;
}
