/**
 * Near-valid bodies of the authorization kinds (authorizationObjects.ts): a valid body with one
 * mistake, carrying the cause a faithful server's 422 Invalid must hold — the field, the reason
 * and, where the mistake decides it, the message (the wording of pkg/apis/rbac/validation).
 */
import type * as FastCheck from 'fast-check';
import type { Fc } from './arbitraries.ts';
import { clusterRole, clusterRoleBinding, rbacGroup, role, roleBinding, selfSubjectAccessReview, type GroupDomain } from './authorizationObjects.ts';
import { spoiled, type Body, type Mistake, type Rejected } from './rejections.ts';
import { cause } from './wording.ts';

type Arb = FastCheck.Arbitrary<Rejected>;

/** The spoiled rule goes first, so that the cause names rules[0]. */
const firstRule = (rule: Body) => (b: Body) => (b['rules'] = [rule, ...b['rules']]);
const firstSubject = (subject: Body) => (b: Body) => (b['subjects'] = [subject, ...b['subjects']]);
const urls = ['/healthz'];

const withoutVerbs: Mistake = {
  mistake: 'a rule without verbs',
  field: 'rules[0].verbs',
  reason: 'FieldValueRequired',
  message: cause.required('verbs must contain at least one value'),
  apply: firstRule({ apiGroups: [''], resources: ['pods'], verbs: [] }),
};

export function rejectedRole(fc: Fc, groupDomain: GroupDomain = 'platform.io'): Arb {
  return spoiled(fc, role(fc, groupDomain), [
    withoutVerbs,
    { mistake: 'a rule for non-resource URLs', field: 'rules[0].nonResourceURLs', reason: 'FieldValueInvalid', message: cause.invalid(urls, 'namespaced rules cannot apply to non-resource URLs'), apply: firstRule({ verbs: ['get'], nonResourceURLs: urls }) },
    { mistake: 'a rule without API groups', field: 'rules[0].apiGroups', reason: 'FieldValueRequired', message: cause.required('resource rules must supply at least one api group'), apply: firstRule({ resources: ['pods'], verbs: ['get'] }) },
    { mistake: 'a rule without resources', field: 'rules[0].resources', reason: 'FieldValueRequired', message: cause.required('resource rules must supply at least one resource'), apply: firstRule({ apiGroups: [''], verbs: ['get'] }) },
    { mistake: 'a name with a slash', field: 'metadata.name', reason: 'FieldValueInvalid', message: (b) => cause.invalid(b['metadata'].name, "may not contain '/'"), apply: (b) => (b['metadata'].name = `${b['metadata'].name}/x`) },
  ]);
}

export function rejectedClusterRole(fc: Fc, groupDomain: GroupDomain = 'platform.io'): Arb {
  return spoiled(fc, clusterRole(fc, groupDomain), [
    withoutVerbs,
    {
      mistake: 'a rule for resources and non-resource URLs at once',
      field: 'rules[0].nonResourceURLs',
      reason: 'FieldValueInvalid',
      message: cause.invalid(urls, 'rules cannot apply to both regular resources and non-resource URLs'),
      apply: firstRule({ apiGroups: [''], resources: ['pods'], verbs: ['get'], nonResourceURLs: urls }),
    },
    {
      mistake: 'an aggregation rule without selectors',
      field: 'aggregationRule.clusterRoleSelectors',
      reason: 'FieldValueRequired',
      message: cause.required('at least one clusterRoleSelector required if aggregationRule is non-nil'),
      apply: (b) => (b['aggregationRule'] = { clusterRoleSelectors: [] }),
    },
  ]);
}

/** Mistakes in the subjects, for both kinds of binding. */
function subjectMistakes(group: string): Mistake[] {
  return [
    { mistake: 'a subject of an unknown kind', field: 'subjects[0].kind', reason: 'FieldValueNotSupported', message: cause.notSupported('Robot', ['ServiceAccount', 'User', 'Group']), apply: firstSubject({ kind: 'Robot', name: 'r2d2' }) },
    { mistake: 'a ServiceAccount subject with an API group', field: 'subjects[0].apiGroup', reason: 'FieldValueNotSupported', message: cause.notSupported(group, ['']), apply: firstSubject({ kind: 'ServiceAccount', apiGroup: group, name: 'builder', namespace: 'default' }) },
    { mistake: 'a User subject in another API group', field: 'subjects[0].apiGroup', reason: 'FieldValueNotSupported', message: cause.notSupported('rbac.example.com', [group]), apply: firstSubject({ kind: 'User', apiGroup: 'rbac.example.com', name: 'alice' }) },
    { mistake: 'a subject without a name', field: 'subjects[0].name', reason: 'FieldValueRequired', message: cause.required(), apply: firstSubject({ kind: 'Group', apiGroup: group, name: '' }) },
  ];
}

export function rejectedRoleBinding(fc: Fc, groupDomain: GroupDomain = 'platform.io'): Arb {
  const group = rbacGroup(groupDomain);
  return spoiled(fc, roleBinding(fc, groupDomain), [
    { mistake: 'a roleRef to a kind that is not a role', field: 'roleRef.kind', reason: 'FieldValueNotSupported', message: cause.notSupported('Group', ['Role', 'ClusterRole']), apply: (b) => (b['roleRef'].kind = 'Group') },
    { mistake: 'a roleRef in another API group', field: 'roleRef.apiGroup', reason: 'FieldValueNotSupported', message: cause.notSupported('rbac.example.com', [group]), apply: (b) => (b['roleRef'].apiGroup = 'rbac.example.com') },
    { mistake: 'a roleRef without a name', field: 'roleRef.name', reason: 'FieldValueRequired', message: cause.required(), apply: (b) => (b['roleRef'].name = '') },
    ...subjectMistakes(group),
  ]);
}

export function rejectedClusterRoleBinding(fc: Fc, groupDomain: GroupDomain = 'platform.io'): Arb {
  return spoiled(fc, clusterRoleBinding(fc, groupDomain), [
    { mistake: 'a roleRef to a Role', field: 'roleRef.kind', reason: 'FieldValueNotSupported', message: cause.notSupported('Role', ['ClusterRole']), apply: (b) => (b['roleRef'].kind = 'Role') },
    // A ClusterRoleBinding has no namespace to lend its ServiceAccount subjects.
    { mistake: 'a ServiceAccount subject without a namespace', field: 'subjects[0].namespace', reason: 'FieldValueRequired', message: cause.required(), apply: firstSubject({ kind: 'ServiceAccount', name: 'builder' }) },
    ...subjectMistakes(rbacGroup(groupDomain)),
  ]);
}

export function rejectedSelfSubjectAccessReview(fc: Fc, groupDomain: GroupDomain = 'platform.io'): Arb {
  return spoiled(fc, selfSubjectAccessReview(fc, groupDomain), [
    {
      mistake: 'neither resource nor non-resource attributes',
      field: 'spec.resourceAttributes',
      reason: 'FieldValueInvalid',
      message: cause.invalid(null, 'exactly one of nonResourceAttributes or resourceAttributes must be specified'),
      apply: (b) => (b['spec'] = {}),
    },
    {
      mistake: 'both resource and non-resource attributes',
      field: 'spec.nonResourceAttributes',
      reason: 'FieldValueInvalid',
      apply: (b) => (b['spec'] = { resourceAttributes: { verb: 'get', resource: 'pods' }, nonResourceAttributes: { verb: 'get', path: '/healthz' } }),
    },
  ]);
}
