/**
 * RBAC (rbac.authorization/v1) schema facts. Every list is `+listType=atomic` and RoleRef and
 * Subject are `+structType=atomic` in k8s.io/api/rbac/v1, so apply and merge patches replace
 * them whole. AggregationRule is kept free-form: nothing here aggregates roles.
 */
import { s } from '../../api/schema.ts';
import { objectMetaSchema } from '../../api/meta.ts';

const strings = () => s.atomicList(s.string());

export const policyRuleSchema = s.struct('PolicyRule', {
  verbs: s.keepEmpty(strings()),
  apiGroups: strings(),
  resources: strings(),
  resourceNames: strings(),
  nonResourceURLs: strings(),
});

export const roleRefSchema = s.struct('RoleRef', { apiGroup: s.string(), kind: s.string(), name: s.string() }, { atomic: true });

export const subjectSchema = s.struct('Subject', { kind: s.string(), apiGroup: s.string(), name: s.string(), namespace: s.string() }, { atomic: true });

export const roleSchema = s.struct('Role', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  rules: s.keepEmpty(s.atomicList(policyRuleSchema)),
});

export const clusterRoleSchema = s.struct('ClusterRole', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  rules: s.keepEmpty(s.atomicList(policyRuleSchema)),
  aggregationRule: s.any(),
});

export const roleBindingSchema = s.struct('RoleBinding', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  subjects: s.atomicList(subjectSchema),
  roleRef: roleRefSchema,
});

export const clusterRoleBindingSchema = s.struct('ClusterRoleBinding', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  subjects: s.atomicList(subjectSchema),
  roleRef: roleRefSchema,
});
