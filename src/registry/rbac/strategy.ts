/**
 * RBAC write strategies: roles are stored as sent and only validated; bindings are defaulted on
 * every write (defaults.ts, as decoding does in Kubernetes) and their roleRef never changes.
 */
import { strategy } from '../common/defaultStrategy.ts';
import type { Strategy } from '../types.ts';
import { withBindingDefaults } from './defaults.ts';
import { validateAggregationRule, validateBinding, validateRoleRefUnchanged, validateRules } from './validation.ts';

export const roleStrategy: Strategy = strategy({
  validate: (obj) => validateRules(obj, true),
  validateUpdate: (obj) => validateRules(obj, true),
});

export const clusterRoleStrategy: Strategy = strategy({
  validate: (obj) => [...validateRules(obj, false), ...validateAggregationRule(obj)],
  validateUpdate: (obj) => [...validateRules(obj, false), ...validateAggregationRule(obj)],
});

/** `namespaced` is true for RoleBinding; the RBAC group comes from the names table. */
export function bindingStrategy(namespaced: boolean, rbacGroup: string): Strategy {
  return strategy({
    prepareForCreate: (obj) => withBindingDefaults(obj, rbacGroup),
    prepareForUpdate: (obj) => withBindingDefaults(obj, rbacGroup),
    validate: (obj) => validateBinding(obj, namespaced, rbacGroup),
    validateUpdate: (obj, old) => [...validateBinding(obj, namespaced, rbacGroup), ...validateRoleRefUnchanged(obj, old)],
  });
}
