/**
 * RoleBinding and ClusterRoleBinding (pkg/registry/rbac/{rolebinding,clusterrolebinding}):
 * defaulted on every write, validated as validation.go does, roleRef immutable. The referenced
 * role need not exist; the authorizer reports a missing one in its denial reason.
 */
import type { Names } from '../../api/names.ts';
import { rbacCommon } from './common.ts';
import { strategy } from '../common/defaultStrategy.ts';
import type { ResourceType, Strategy } from '../types.ts';
import { withBindingDefaults } from './defaults.ts';
import { clusterRoleBindingSchema, roleBindingSchema } from './schema.ts';
import { bindingColumns } from './tables.ts';
import { validateBinding, validateRoleRefUnchanged } from './validation.ts';

const common = rbacCommon;

function bindingStrategy(namespaced: boolean, rbacGroup: string): Strategy {
  return strategy({
    prepareForCreate: (obj) => withBindingDefaults(obj, rbacGroup),
    prepareForUpdate: (obj) => withBindingDefaults(obj, rbacGroup),
    validate: (obj) => validateBinding(obj, namespaced, rbacGroup),
    validateUpdate: (obj, old) => [...validateBinding(obj, namespaced, rbacGroup), ...validateRoleRefUnchanged(obj, old)],
  });
}

export const roleBindingResource = (names: Names): ResourceType => ({
  ...common,
  id: 'rbac/rolebindings',
  group: names.rbacGroup,
  resource: 'rolebindings',
  singular: 'rolebinding',
  kind: 'RoleBinding',
  listKind: 'RoleBindingList',
  namespaced: true,
  schema: roleBindingSchema,
  strategy: bindingStrategy(true, names.rbacGroup),
  table: bindingColumns(
    'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.',
    'roleBinding',
  ),
});

export const clusterRoleBindingResource = (names: Names): ResourceType => ({
  ...common,
  id: 'rbac/clusterrolebindings',
  group: names.rbacGroup,
  resource: 'clusterrolebindings',
  singular: 'clusterrolebinding',
  kind: 'ClusterRoleBinding',
  listKind: 'ClusterRoleBindingList',
  namespaced: false,
  schema: clusterRoleBindingSchema,
  strategy: bindingStrategy(false, names.rbacGroup),
  table: bindingColumns(
    'RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.',
    'clusterRoleBinding',
  ),
});
