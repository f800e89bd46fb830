/**
 * The default ClusterRoles and ClusterRoleBindings the API server creates at start
 * (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go), as create bodies. Only the roles
 * that matter to the simulated kinds and endpoints are here. Every `*.k8s.io` group follows the
 * group domain (`authorization.platform.io`, …), as the names table does for served groups.
 *
 * admin, edit and view are aggregated roles in Kubernetes (rules collected from the
 * system:aggregate-to-* roles by a controller); nothing aggregates here, so they carry the
 * collected rules directly: view's, edit's plus view's, admin's plus edit's plus view's.
 */
import type { KubeObject } from '../../api/meta.ts';
import type { Names } from '../../api/names.ts';
import type { JsonObject } from '../../core/json.ts';

const read = ['get', 'list', 'watch'];
const write = ['create', 'update', 'patch', 'delete', 'deletecollection'];
const readWrite = [...read, ...write];

/** A resource rule, fields in PolicyRule order, resourceNames omitted (omitempty). */
function rule(verbs: readonly string[], apiGroups: readonly string[], resources: readonly string[]): JsonObject {
  return { verbs: [...verbs], apiGroups: [...apiGroups], resources: [...resources] };
}

function urlRule(verbs: readonly string[], urls: readonly string[]): JsonObject {
  return { verbs: [...verbs], nonResourceURLs: [...urls] };
}

function viewRules(domain: string): JsonObject[] {
  return [
    rule(read, [''], ['pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'configmaps']),
    rule(read, [''], ['limitranges', 'resourcequotas', 'bindings', 'events', 'pods/status', 'resourcequotas/status', 'namespaces/status', 'replicationcontrollers/status', 'pods/log']),
    // Reading namespaces at namespace scope means reading *this* namespace.
    rule(read, [''], ['namespaces']),
    rule(read, [`discovery.${domain}`], ['endpointslices']),
    rule(read, ['apps'], ['controllerrevisions', 'statefulsets', 'statefulsets/status', 'statefulsets/scale', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/status', 'deployments/scale', 'replicasets', 'replicasets/status', 'replicasets/scale']),
    rule(read, ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
    rule(read, ['batch'], ['jobs', 'cronjobs', 'cronjobs/status', 'jobs/status']),
    rule(read, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
    rule(read, [`networking.${domain}`], ['networkpolicies', 'ingresses', 'ingresses/status']),
  ];
}

function editRules(domain: string): JsonObject[] {
  return [
    // Read access to resources that can escalate (exec into pods, read secrets).
    rule(read, [''], ['pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward', 'secrets', 'services/proxy']),
    rule(['impersonate'], [''], ['serviceaccounts']),
    rule(write, [''], ['pods', 'pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward']),
    rule(['create'], [''], ['pods/eviction']),
    rule(write, [''], ['replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/proxy', 'persistentvolumeclaims', 'configmaps', 'secrets']),
    rule(['create'], [''], ['serviceaccounts/token']),
    rule(write, ['apps'], ['statefulsets', 'statefulsets/scale', 'daemonsets', 'deployments', 'deployments/scale', 'deployments/rollback', 'replicasets', 'replicasets/scale']),
    rule(write, ['autoscaling'], ['horizontalpodautoscalers']),
    rule(write, ['batch'], ['jobs', 'cronjobs']),
    rule(write, ['policy'], ['poddisruptionbudgets']),
    rule(write, [`networking.${domain}`], ['networkpolicies', 'ingresses']),
  ];
}

function adminRules(names: Names, authorizationGroup: string): JsonObject[] {
  return [rule(['create'], [authorizationGroup], ['localsubjectaccessreviews']), rule(readWrite, [names.rbacGroup], ['roles', 'rolebindings'])];
}

export interface BootstrapPolicy {
  readonly clusterRoles: KubeObject[];
  readonly clusterRoleBindings: KubeObject[];
}

export function bootstrapPolicy(names: Names): BootstrapPolicy {
  const authorizationGroup = names.authorizationGroup;
  const metadata = (name: string) => ({
    name,
    labels: { [`${names.wellKnown}/bootstrapping`]: 'rbac-defaults' },
    annotations: { [`rbac.authorization.${names.wellKnown}/autoupdate`]: 'true' },
  });
  const apiVersion = `${names.rbacGroup}/v1`;
  const role = (name: string, rules: JsonObject[]): KubeObject => ({ apiVersion, kind: 'ClusterRole', metadata: metadata(name), rules });
  const binding = (name: string, groups: readonly string[]): KubeObject => ({
    apiVersion,
    kind: 'ClusterRoleBinding',
    metadata: metadata(name),
    roleRef: { apiGroup: names.rbacGroup, kind: 'ClusterRole', name },
    subjects: groups.map((g) => ({ kind: 'Group', apiGroup: names.rbacGroup, name: g })),
  });
  const health = ['/livez', '/readyz', '/healthz', '/version', '/version/'];
  return {
    clusterRoles: [
      role('cluster-admin', [rule(['*'], ['*'], ['*']), urlRule(['*'], ['*'])]),
      role('system:discovery', [urlRule(['get'], [...health, '/openapi', '/openapi/*', '/api', '/api/*', '/apis', '/apis/*'])]),
      role('system:basic-user', [
        rule(['create'], [authorizationGroup], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
        rule(['create'], [names.authenticationGroup], ['selfsubjectreviews']),
      ]),
      role('system:public-info-viewer', [urlRule(['get'], health)]),
      // The spec (001, ClusterTrustBundle rule 6): any authenticated user may read ClusterTrustBundles.
      // Kubernetes grants this only to nodes by default (docs/divergences.md).
      role(`system:${names.certificatesGroup}:clustertrustbundle-reader`, [rule(['get', 'list', 'watch'], [names.certificatesGroup], ['clustertrustbundles'])]),
      role('system:service-account-issuer-discovery', [
        urlRule(['get'], ['/.well-known/openid-configuration', '/.well-known/openid-configuration/', '/openid/v1/jwks', '/openid/v1/jwks/']),
      ]),
      role('system:auth-delegator', [rule(['create'], [names.authenticationGroup], ['tokenreviews']), rule(['create'], [authorizationGroup], ['subjectaccessreviews'])]),
      role('admin', [...adminRules(names, authorizationGroup), ...editRules(names.domain), ...viewRules(names.domain)]),
      role('edit', [...editRules(names.domain), ...viewRules(names.domain)]),
      role('view', viewRules(names.domain)),
    ],
    clusterRoleBindings: [
      binding('cluster-admin', ['system:masters']),
      binding('system:discovery', ['system:authenticated']),
      binding('system:basic-user', ['system:authenticated']),
      binding('system:public-info-viewer', ['system:authenticated', 'system:unauthenticated']),
      binding(`system:${names.certificatesGroup}:clustertrustbundle-reader`, ['system:authenticated']),
      binding('system:service-account-issuer-discovery', ['system:serviceaccounts']),
    ],
  };
}
