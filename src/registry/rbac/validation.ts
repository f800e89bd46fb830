/**
 * RBAC validation with the messages of pkg/apis/rbac/validation/validation.go. ObjectMeta (with
 * the path-segment name rule of ValidateRBACName) is checked by the store before these run, so
 * only the kind-specific parts are here, in Kubernetes' order.
 */
import type { KubeObject } from '../../api/meta.ts';
import { isObject } from '../../core/json.ts';
import { fieldError, type FieldError } from '../../core/fieldErrors.ts';
import { isDNS1123Subdomain, isValidPathSegmentName } from '../validation/names.ts';
import { objectList, roleRefOf, strList, subjectsOf, type Subject } from './accessors.ts';

/** ValidatePolicyRule: `namespaced` is true for Role, which may not name non-resource URLs. */
export function validateRules(obj: KubeObject, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  objectList(obj, 'rules').forEach((rule, i) => {
    const at = `rules[${i}]`;
    const verbs = strList(rule, 'verbs');
    const apiGroups = strList(rule, 'apiGroups');
    const resources = strList(rule, 'resources');
    const resourceNames = strList(rule, 'resourceNames');
    const urls = strList(rule, 'nonResourceURLs');
    if (verbs.length === 0) errs.push(fieldError.required(`${at}.verbs`, 'verbs must contain at least one value'));
    if (urls.length > 0) {
      if (namespaced) errs.push(fieldError.invalid(`${at}.nonResourceURLs`, urls, 'namespaced rules cannot apply to non-resource URLs'));
      if (apiGroups.length > 0 || resources.length > 0 || resourceNames.length > 0) {
        errs.push(fieldError.invalid(`${at}.nonResourceURLs`, urls, 'rules cannot apply to both regular resources and non-resource URLs'));
      }
      return;
    }
    if (apiGroups.length === 0) errs.push(fieldError.required(`${at}.apiGroups`, 'resource rules must supply at least one api group'));
    if (resources.length === 0) errs.push(fieldError.required(`${at}.resources`, 'resource rules must supply at least one resource'));
  });
  return errs;
}

/** ClusterRole's aggregationRule: only the "at least one selector" check (selectors are not evaluated here). */
export function validateAggregationRule(obj: KubeObject): FieldError[] {
  const rule = obj['aggregationRule'];
  if (rule === undefined || rule === null) return [];
  const selectors = isObject(rule) ? rule['clusterRoleSelectors'] : undefined;
  if (Array.isArray(selectors) && selectors.length > 0) return [];
  return [fieldError.required('aggregationRule.clusterRoleSelectors', 'at least one clusterRoleSelector required if aggregationRule is non-nil')];
}

function validateSubject(subject: Subject, namespaced: boolean, at: string, rbacGroup: string): FieldError[] {
  const errs: FieldError[] = [];
  if (subject.name === '') errs.push(fieldError.required(`${at}.name`));
  switch (subject.kind) {
    case 'ServiceAccount':
      if (subject.name !== '') for (const m of isDNS1123Subdomain(subject.name)) errs.push(fieldError.invalid(`${at}.name`, subject.name, m));
      if (subject.apiGroup !== '') errs.push(fieldError.notSupported(`${at}.apiGroup`, subject.apiGroup, ['']));
      if (!namespaced && subject.namespace === '') errs.push(fieldError.required(`${at}.namespace`));
      break;
    case 'User':
    case 'Group':
      if (subject.apiGroup !== rbacGroup) errs.push(fieldError.notSupported(`${at}.apiGroup`, subject.apiGroup, [rbacGroup]));
      break;
    default:
      errs.push(fieldError.notSupported(`${at}.kind`, subject.kind, ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

/** ValidateRoleBinding / ValidateClusterRoleBinding: `namespaced` picks the allowed roleRef kinds. */
export function validateBinding(obj: KubeObject, namespaced: boolean, rbacGroup: string): FieldError[] {
  const errs: FieldError[] = [];
  const ref = roleRefOf(obj);
  if (ref.apiGroup !== rbacGroup) errs.push(fieldError.notSupported('roleRef.apiGroup', ref.apiGroup, [rbacGroup]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(ref.kind)) errs.push(fieldError.notSupported('roleRef.kind', ref.kind, kinds));
  if (ref.name === '') errs.push(fieldError.required('roleRef.name'));
  else for (const m of isValidPathSegmentName(ref.name)) errs.push(fieldError.invalid('roleRef.name', ref.name, m));
  subjectsOf(obj).forEach((subject, i) => errs.push(...validateSubject(subject, namespaced, `subjects[${i}]`, rbacGroup)));
  return errs;
}

/**
 * A binding's roleRef never changes (delete and recreate instead). The bad value is the internal
 * rbac.RoleRef, which apimachinery renders as JSON with Go's field names.
 */
export function validateRoleRefUnchanged(obj: KubeObject, old: KubeObject): FieldError[] {
  const a = roleRefOf(obj);
  const b = roleRefOf(old);
  if (a.apiGroup === b.apiGroup && a.kind === b.kind && a.name === b.name) return [];
  return [fieldError.invalid('roleRef', { APIGroup: a.apiGroup, Kind: a.kind, Name: a.name }, 'cannot change roleRef')];
}
