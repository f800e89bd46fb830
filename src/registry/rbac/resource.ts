/**
 * The four RBAC kinds in `rbac.authorization.<domain>/v1` (pkg/registry/rbac/{role,clusterrole,
 * rolebinding,clusterrolebinding}): plain stored objects, no status, no generation, PUT without
 * resourceVersion allowed, names need only be path segments. Bindings are defaulted on every
 * write and their roleRef is immutable; the referenced role need not exist (the authorizer
 * reports a missing one in its denial reason). The RBAC storage's escalation check (a writer may
 * only grant what it holds) needs the world and the authorizer: it is auth/rbac/escalation.ts.
 */
import type { Names } from '../../api/names.ts';
import { allVerbs, metadataFieldSelectors } from '../common/defaultStrategy.ts';
import type { ResourceType } from '../types.ts';
import { clusterRoleBindingSchema, clusterRoleSchema, roleBindingSchema, roleSchema } from './schema.ts';
import { bindingStrategy, clusterRoleStrategy, roleStrategy } from './strategy.ts';
import { bindingColumns, roleColumns } from './table.ts';

/** What the four kinds share. */
const common = {
  version: 'v1',
  shortNames: [],
  categories: [],
  verbs: allVerbs,
  nameRule: 'path',
  subresources: [],
  fieldSelectors: metadataFieldSelectors,
  deleteReturnsObject: false,
  allowUnconditionalUpdate: true,
  hasGeneration: false,
  resetFields: [],
} as const;

export const roleResource = (names: Names): ResourceType => ({
  ...common,
  id: 'rbac/roles',
  group: names.rbacGroup,
  resource: 'roles',
  singular: 'role',
  kind: 'Role',
  listKind: 'RoleList',
  namespaced: true,
  schema: roleSchema,
  strategy: roleStrategy,
  table: roleColumns,
});

export const clusterRoleResource = (names: Names): ResourceType => ({
  ...common,
  id: 'rbac/clusterroles',
  group: names.rbacGroup,
  resource: 'clusterroles',
  singular: 'clusterrole',
  kind: 'ClusterRole',
  listKind: 'ClusterRoleList',
  namespaced: false,
  schema: clusterRoleSchema,
  strategy: clusterRoleStrategy,
  table: roleColumns,
});

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
