/**
 * Role and ClusterRole (pkg/registry/rbac/{role,clusterrole}): plain stored objects, no status,
 * no generation, PUT without resourceVersion allowed. Names need only be path segments.
 * The API server's escalation check (a writer may only grant what it holds) is not simulated.
 */
import type { Names } from '../../api/names.ts';
import { rbacCommon } from './common.ts';
import { strategy } from '../common/defaultStrategy.ts';
import type { ResourceType } from '../types.ts';
import { clusterRoleSchema, roleSchema } from './schema.ts';
import { roleColumns } from './tables.ts';
import { validateAggregationRule, validateRules } from './validation.ts';

const common = { ...rbacCommon, table: roleColumns } as const;

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
  strategy: strategy({
    validate: (obj) => validateRules(obj, true),
    validateUpdate: (obj) => validateRules(obj, true),
  }),
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
  strategy: strategy({
    validate: (obj) => [...validateRules(obj, false), ...validateAggregationRule(obj)],
    validateUpdate: (obj) => [...validateRules(obj, false), ...validateAggregationRule(obj)],
  }),
});
