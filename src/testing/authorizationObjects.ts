/**
 * Valid bodies of the authorization kinds a simulation serves — Role, ClusterRole, RoleBinding,
 * ClusterRoleBinding and SelfSubjectAccessReview — for create requests as the simulation's admin,
 * drawn from the caller's fast-check. Their API groups follow the simulation's group domain
 * (`rbac.authorization.platform.io`, or `….k8s.io` in k8s.io mode). A body drawn here is
 * accepted (201) by a fresh simulation (namespaced ones in `default`); names the bootstrap policy
 * holds (`admin`, `edit`, `view`, `cluster-admin`, `system:…`) are never drawn.
 */
import type * as FastCheck from 'fast-check';
import { dnsLabel, labels, type Fc } from './arbitraries.ts';

type Arb<T> = FastCheck.Arbitrary<T>;
type Body = Record<string, unknown>;
export type GroupDomain = 'platform.io' | 'k8s.io';

export const rbacGroup = (domain: GroupDomain): string => `rbac.authorization.${domain}`;

const bootstrapRoles = ['admin', 'edit', 'view', 'cluster-admin'];

/** A path-segment name as RBAC takes it: a label, or `prefix:label` (never `system:`, the bootstrap policy's). */
function roleName(fc: Fc): Arb<string> {
  return fc
    .tuple(fc.option(dnsLabel(fc, 6), { nil: undefined }), dnsLabel(fc, 12))
    .map(([prefix, name]) => (prefix === undefined ? name : `${prefix}:${name}`))
    .filter((n) => !bootstrapRoles.includes(n) && !n.startsWith('system:'));
}

function resourceRule(fc: Fc): Arb<Body> {
  return fc
    .record({
      apiGroups: fc.uniqueArray(fc.constantFrom('', 'apps', 'batch', 'example.com'), { minLength: 1, maxLength: 2 }),
      resources: fc.uniqueArray(fc.constantFrom('pods', 'pods/log', 'configmaps', 'secrets', 'statefulsets', 'services', '*'), { minLength: 1, maxLength: 3 }),
      verbs: fc.uniqueArray(fc.constantFrom('get', 'list', 'watch', 'create', 'update', 'patch', 'delete', '*'), { minLength: 1, maxLength: 4 }),
      resourceNames: fc.option(fc.uniqueArray(dnsLabel(fc, 8), { minLength: 1, maxLength: 2 }), { nil: undefined }),
    })
    .map(({ resourceNames, ...rule }) => (resourceNames === undefined ? rule : { ...rule, resourceNames }));
}

function nonResourceRule(fc: Fc): Arb<Body> {
  return fc.record({ nonResourceURLs: fc.uniqueArray(fc.constantFrom('/healthz', '/metrics', '/version', '/api/*'), { minLength: 1, maxLength: 2 }), verbs: fc.uniqueArray(fc.constantFrom('get', 'post', 'head'), { minLength: 1, maxLength: 2 }) });
}

/** A Role: up to three resource rules (namespaced rules cannot name non-resource URLs). */
export function role(fc: Fc, groupDomain: GroupDomain = 'platform.io'): Arb<Body> {
  return fc
    .record({ name: roleName(fc), labels: labels(fc), rules: fc.array(resourceRule(fc), { maxLength: 3 }) })
    .map((d) => ({ apiVersion: `${rbacGroup(groupDomain)}/v1`, kind: 'Role', metadata: { name: d.name, labels: d.labels }, rules: d.rules }));
}

/** A ClusterRole: resource and non-resource rules, maybe an aggregation rule gathering roles by label. */
export function clusterRole(fc: Fc, groupDomain: GroupDomain = 'platform.io'): Arb<Body> {
  return fc
    .record({
      name: roleName(fc),
      labels: labels(fc),
      rules: fc.array(fc.oneof(resourceRule(fc), nonResourceRule(fc)), { maxLength: 3 }),
      aggregate: fc.option(labels(fc).filter((l) => Object.keys(l).length > 0), { nil: undefined }),
    })
    .map((d) => ({
      apiVersion: `${rbacGroup(groupDomain)}/v1`,
      kind: 'ClusterRole',
      metadata: { name: d.name, labels: d.labels },
      rules: d.rules,
      ...(d.aggregate === undefined ? {} : { aggregationRule: { clusterRoleSelectors: [{ matchLabels: d.aggregate }] } }),
    }));
}

/**
 * Subjects: users and groups (their API group stated, or left for the server to default), service
 * accounts (no API group; the namespace stated, or — in a RoleBinding only — the binding's).
 */
function subject(fc: Fc, group: string, namespaced: boolean): Arb<Body> {
  const explicit = fc.boolean();
  return fc.oneof(
    fc.tuple(fc.constantFrom('alice', 'bob', 'ci@example.com'), explicit).map(([name, g]) => ({ kind: 'User', ...(g ? { apiGroup: group } : {}), name })),
    fc.tuple(fc.constantFrom('dev', 'ops', 'system:authenticated'), explicit).map(([name, g]) => ({ kind: 'Group', ...(g ? { apiGroup: group } : {}), name })),
    fc.tuple(dnsLabel(fc, 10), namespaced ? fc.boolean() : fc.constant(true)).map(([name, withNs]) => ({ kind: 'ServiceAccount', name, ...(withNs ? { namespace: 'default' } : {}) })),
  );
}

/** A RoleBinding of a Role or a ClusterRole (which need not exist yet) to up to three subjects. */
export function roleBinding(fc: Fc, groupDomain: GroupDomain = 'platform.io'): Arb<Body> {
  const group = rbacGroup(groupDomain);
  return fc
    .record({ name: roleName(fc), kind: fc.constantFrom('Role', 'ClusterRole'), role: fc.oneof(roleName(fc), fc.constantFrom(...bootstrapRoles)), subjects: fc.array(subject(fc, group, true), { maxLength: 3 }) })
    .map((d) => ({ apiVersion: `${group}/v1`, kind: 'RoleBinding', metadata: { name: d.name }, roleRef: { apiGroup: group, kind: d.kind, name: d.role }, subjects: d.subjects }));
}

/** A ClusterRoleBinding of a ClusterRole to up to three subjects (service accounts with their namespace). */
export function clusterRoleBinding(fc: Fc, groupDomain: GroupDomain = 'platform.io'): Arb<Body> {
  const group = rbacGroup(groupDomain);
  return fc
    .record({ name: roleName(fc), role: fc.oneof(roleName(fc), fc.constantFrom(...bootstrapRoles)), subjects: fc.array(subject(fc, group, false), { maxLength: 3 }) })
    .map((d) => ({ apiVersion: `${group}/v1`, kind: 'ClusterRoleBinding', metadata: { name: d.name }, roleRef: { apiGroup: group, kind: 'ClusterRole', name: d.role }, subjects: d.subjects }));
}

/** A SelfSubjectAccessReview (`kubectl auth can-i`): a resource question, or a non-resource one. */
export function selfSubjectAccessReview(fc: Fc, groupDomain: GroupDomain = 'platform.io'): Arb<Body> {
  const resource = fc
    .record({
      verb: fc.constantFrom('get', 'list', 'create', 'delete'),
      group: fc.constantFrom('', 'apps'),
      resource: fc.constantFrom('pods', 'secrets', 'statefulsets'),
      namespace: fc.constantFrom(undefined, 'default'),
      name: fc.option(dnsLabel(fc, 8), { nil: undefined }),
    })
    .map((a) => ({ resourceAttributes: Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined)) }));
  const nonResource = fc.record({ verb: fc.constantFrom('get', 'post'), path: fc.constantFrom('/healthz', '/metrics', '/api') }).map((a) => ({ nonResourceAttributes: a }));
  return fc.oneof(resource, nonResource).map((spec) => ({ apiVersion: `authorization.${groupDomain}/v1`, kind: 'SelfSubjectAccessReview', spec }));
}
