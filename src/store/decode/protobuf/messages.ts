/**
 * Field tables of the protobuf messages kubectl's typed commands send, read off the
 * generated.proto files of k8s.io/api and k8s.io/apimachinery (field numbers) and their Go
 * types.go (JSON names, key order, omitempty). Rows are in Go struct order, which is the JSON
 * key order. Messages are named by their Go type.
 */

/** A field's value as it appears on the wire; maps and messages are length-delimited entries. */
export type FieldKind =
  | 'string'
  | 'bytes' // Go []byte: standard base64 in JSON
  | 'bool'
  | 'int32'
  | 'int64'
  | 'time' // meta/v1 Time {seconds = 1, nanos = 2}: RFC 3339, whole seconds
  | 'microTime' // meta/v1 MicroTime: RFC 3339 with six fractional digits
  | 'intOrString' // intstr.IntOrString {type = 1, intVal = 2, strVal = 3}
  | 'quantity' // resource.Quantity {string = 1}
  | 'rawExtension' // runtime.RawExtension {raw = 1}: the JSON it holds
  | 'fieldsV1' // meta/v1 FieldsV1 {Raw = 1}: the JSON it holds
  | 'stringMap' // map<string, string>: entries {key = 1, value = 2}
  | 'bytesMap' // map<string, bytes>
  | 'stringListMap' // map<string, {items = 1 repeated string}> (ExtraValue, AttestationValue)
  | { readonly message: string };

/**
 * How Go's encoding/json writes the field when it is unset or zero:
 * - omitempty: `,omitempty` on a value; zero scalars, empty lists and maps are left out (struct
 *   values, including Time, are never "empty" to encoding/json, so those are always written).
 * - always: no omitempty; the zero value is written ("", 0, false, null for nil lists and maps).
 * - omitzero: `,omitzero`; left out when zero, structs included.
 * - pointer: a Go pointer with omitempty; written when set, even to a zero value.
 * - nullablePointer: a Go pointer without omitempty; null when unset.
 */
export type Presence = 'omitempty' | 'always' | 'omitzero' | 'pointer' | 'nullablePointer';

export interface FieldRow {
  readonly n: number;
  readonly json: string;
  readonly kind: FieldKind;
  readonly repeated: boolean;
  readonly presence: Presence;
}

export type MessageTables = Readonly<Record<string, readonly FieldRow[]>>;

const m = (message: string): FieldKind => ({ message });
const f = (n: number, json: string, kind: FieldKind, presence: Presence = 'omitempty'): FieldRow => ({ n, json, kind, repeated: false, presence });
const list = (n: number, json: string, kind: FieldKind, presence: Presence = 'omitempty'): FieldRow => ({ n, json, kind, repeated: true, presence });
/** TypeMeta is the envelope's; every object's own message starts at metadata. */
const metadata = f(1, 'metadata', m('ObjectMeta'));

const meta: MessageTables = {
  ObjectMeta: [
    f(1, 'name', 'string'),
    f(2, 'generateName', 'string'),
    f(3, 'namespace', 'string'),
    f(4, 'selfLink', 'string'),
    f(5, 'uid', 'string'),
    f(6, 'resourceVersion', 'string'),
    f(7, 'generation', 'int64'),
    f(8, 'creationTimestamp', 'time', 'omitzero'),
    f(9, 'deletionTimestamp', 'time', 'pointer'),
    f(10, 'deletionGracePeriodSeconds', 'int64', 'pointer'),
    f(11, 'labels', 'stringMap'),
    f(12, 'annotations', 'stringMap'),
    list(13, 'ownerReferences', m('OwnerReference')),
    list(14, 'finalizers', 'string'),
    list(17, 'managedFields', m('ManagedFieldsEntry')),
  ],
  OwnerReference: [
    f(5, 'apiVersion', 'string', 'always'),
    f(1, 'kind', 'string', 'always'),
    f(3, 'name', 'string', 'always'),
    f(4, 'uid', 'string', 'always'),
    f(6, 'controller', 'bool', 'pointer'),
    f(7, 'blockOwnerDeletion', 'bool', 'pointer'),
  ],
  ManagedFieldsEntry: [
    f(1, 'manager', 'string'),
    f(2, 'operation', 'string'),
    f(3, 'apiVersion', 'string'),
    f(4, 'time', 'time', 'pointer'),
    f(6, 'fieldsType', 'string'),
    f(7, 'fieldsV1', 'fieldsV1', 'pointer'),
    f(8, 'subresource', 'string'),
  ],
  DeleteOptions: [
    f(1, 'gracePeriodSeconds', 'int64', 'pointer'),
    f(2, 'preconditions', m('Preconditions'), 'pointer'),
    f(3, 'orphanDependents', 'bool', 'pointer'),
    f(4, 'propagationPolicy', 'string', 'pointer'),
    list(5, 'dryRun', 'string'),
    f(6, 'ignoreStoreReadErrorWithClusterBreakingPotential', 'bool', 'pointer'),
  ],
  Preconditions: [f(1, 'uid', 'string', 'pointer'), f(2, 'resourceVersion', 'string', 'pointer')],
  LabelSelectorRequirement: [f(1, 'key', 'string', 'always'), f(2, 'operator', 'string', 'always'), list(3, 'values', 'string')],
  FieldSelectorRequirement: [f(1, 'key', 'string', 'always'), f(2, 'operator', 'string', 'always'), list(3, 'values', 'string')],
  LabelSelector: [f(1, 'matchLabels', 'stringMap'), list(2, 'matchExpressions', m('LabelSelectorRequirement'))],
  Condition: [
    f(1, 'type', 'string', 'always'),
    f(2, 'status', 'string', 'always'),
    f(3, 'observedGeneration', 'int64'),
    f(4, 'lastTransitionTime', 'time', 'always'),
    f(5, 'reason', 'string', 'always'),
    f(6, 'message', 'string', 'always'),
  ],
};

const core: MessageTables = {
  ObjectReference: [
    f(1, 'kind', 'string'),
    f(2, 'namespace', 'string'),
    f(3, 'name', 'string'),
    f(4, 'uid', 'string'),
    f(5, 'apiVersion', 'string'),
    f(6, 'resourceVersion', 'string'),
    f(7, 'fieldPath', 'string'),
  ],
  LocalObjectReference: [f(1, 'name', 'string')],
  ServiceAccount: [metadata, list(2, 'secrets', m('ObjectReference')), list(3, 'imagePullSecrets', m('LocalObjectReference')), f(4, 'automountServiceAccountToken', 'bool', 'pointer')],
  Secret: [metadata, f(5, 'immutable', 'bool', 'pointer'), f(2, 'data', 'bytesMap'), f(4, 'stringData', 'stringMap'), f(3, 'type', 'string')],
  ConfigMap: [metadata, f(4, 'immutable', 'bool', 'pointer'), f(2, 'data', 'stringMap'), f(3, 'binaryData', 'bytesMap')],
  Namespace: [metadata, f(2, 'spec', m('NamespaceSpec')), f(3, 'status', m('NamespaceStatus'))],
  NamespaceSpec: [list(1, 'finalizers', 'string')],
  NamespaceStatus: [f(1, 'phase', 'string'), list(2, 'conditions', m('NamespaceCondition'))],
  Service: [metadata, f(2, 'spec', m('ServiceSpec')), f(3, 'status', m('ServiceStatus'))],
  ServiceSpec: [
    list(1, 'ports', m('ServicePort')),
    f(2, 'selector', 'stringMap'),
    f(3, 'clusterIP', 'string'),
    list(18, 'clusterIPs', 'string'),
    f(4, 'type', 'string'),
    list(5, 'externalIPs', 'string'),
    f(7, 'sessionAffinity', 'string'),
    f(8, 'loadBalancerIP', 'string'),
    list(9, 'loadBalancerSourceRanges', 'string'),
    f(10, 'externalName', 'string'),
    f(11, 'externalTrafficPolicy', 'string'),
    f(12, 'healthCheckNodePort', 'int32'),
    f(13, 'publishNotReadyAddresses', 'bool'),
    f(14, 'sessionAffinityConfig', m('SessionAffinityConfig'), 'pointer'),
    list(19, 'ipFamilies', 'string'),
    f(17, 'ipFamilyPolicy', 'string', 'pointer'),
    f(20, 'allocateLoadBalancerNodePorts', 'bool', 'pointer'),
    f(21, 'loadBalancerClass', 'string', 'pointer'),
    f(22, 'internalTrafficPolicy', 'string', 'pointer'),
    f(23, 'trafficDistribution', 'string', 'pointer'),
  ],
  ServicePort: [
    f(1, 'name', 'string'),
    f(2, 'protocol', 'string'),
    f(6, 'appProtocol', 'string', 'pointer'),
    f(3, 'port', 'int32', 'always'),
    f(4, 'targetPort', 'intOrString'),
    f(5, 'nodePort', 'int32'),
  ],
  SessionAffinityConfig: [f(1, 'clientIP', m('ClientIPConfig'), 'pointer')],
  ClientIPConfig: [f(1, 'timeoutSeconds', 'int32', 'pointer')],
  ServiceStatus: [f(1, 'loadBalancer', m('LoadBalancerStatus')), list(2, 'conditions', m('Condition'))],
  LoadBalancerStatus: [list(1, 'ingress', m('LoadBalancerIngress'))],
  LoadBalancerIngress: [f(1, 'ip', 'string'), f(2, 'hostname', 'string'), f(3, 'ipMode', 'string', 'pointer'), list(4, 'ports', m('PortStatus'))],
  PortStatus: [f(1, 'port', 'int32', 'always'), f(2, 'protocol', 'string', 'always'), f(3, 'error', 'string', 'pointer')],
  NamespaceCondition: [
    f(1, 'type', 'string', 'always'),
    f(2, 'status', 'string', 'always'),
    f(4, 'lastTransitionTime', 'time'),
    f(5, 'reason', 'string'),
    f(6, 'message', 'string'),
  ],
};

const rbac: MessageTables = {
  Role: [metadata, list(2, 'rules', m('PolicyRule'), 'always')],
  ClusterRole: [metadata, list(2, 'rules', m('PolicyRule'), 'always'), f(3, 'aggregationRule', m('AggregationRule'), 'pointer')],
  AggregationRule: [list(1, 'clusterRoleSelectors', m('LabelSelector'))],
  PolicyRule: [list(1, 'verbs', 'string', 'always'), list(2, 'apiGroups', 'string'), list(3, 'resources', 'string'), list(4, 'resourceNames', 'string'), list(5, 'nonResourceURLs', 'string')],
  RoleBinding: [metadata, list(2, 'subjects', m('Subject')), f(3, 'roleRef', m('RoleRef'))],
  ClusterRoleBinding: [metadata, list(2, 'subjects', m('Subject')), f(3, 'roleRef', m('RoleRef'))],
  Subject: [f(1, 'kind', 'string', 'always'), f(2, 'apiGroup', 'string'), f(3, 'name', 'string', 'always'), f(4, 'namespace', 'string')],
  RoleRef: [f(1, 'apiGroup', 'string', 'always'), f(2, 'kind', 'string', 'always'), f(3, 'name', 'string', 'always')],
};

const authentication: MessageTables = {
  TokenRequest: [metadata, f(2, 'spec', m('TokenRequestSpec'), 'always'), f(3, 'status', m('TokenRequestStatus'))],
  TokenRequestSpec: [
    list(1, 'audiences', 'string', 'always'),
    f(4, 'expirationSeconds', 'int64', 'nullablePointer'),
    f(3, 'boundObjectRef', m('BoundObjectReference'), 'nullablePointer'),
    f(5, 'attestations', 'stringListMap'),
  ],
  BoundObjectReference: [f(1, 'kind', 'string'), f(2, 'apiVersion', 'string'), f(3, 'name', 'string'), f(4, 'uid', 'string')],
  TokenRequestStatus: [f(1, 'token', 'string', 'always'), f(2, 'expirationTimestamp', 'time', 'always')],
  TokenReview: [metadata, f(2, 'spec', m('TokenReviewSpec'), 'always'), f(3, 'status', m('TokenReviewStatus'))],
  TokenReviewSpec: [f(1, 'token', 'string'), list(2, 'audiences', 'string')],
  TokenReviewStatus: [f(1, 'authenticated', 'bool'), f(2, 'user', m('UserInfo')), list(4, 'audiences', 'string'), f(3, 'error', 'string')],
  UserInfo: [f(1, 'username', 'string'), f(2, 'uid', 'string'), list(3, 'groups', 'string'), f(4, 'extra', 'stringListMap')],
  SelfSubjectReview: [metadata, f(2, 'status', m('SelfSubjectReviewStatus'))],
  SelfSubjectReviewStatus: [f(1, 'userInfo', m('UserInfo'))],
};

const authorization: MessageTables = {
  SelfSubjectAccessReview: [metadata, f(2, 'spec', m('SelfSubjectAccessReviewSpec'), 'always'), f(3, 'status', m('SubjectAccessReviewStatus'))],
  SelfSubjectAccessReviewSpec: [f(1, 'resourceAttributes', m('ResourceAttributes'), 'pointer'), f(2, 'nonResourceAttributes', m('NonResourceAttributes'), 'pointer')],
  ResourceAttributes: [
    f(1, 'namespace', 'string'),
    f(2, 'verb', 'string'),
    f(3, 'group', 'string'),
    f(4, 'version', 'string'),
    f(5, 'resource', 'string'),
    f(6, 'subresource', 'string'),
    f(7, 'name', 'string'),
    f(8, 'fieldSelector', m('FieldSelectorAttributes'), 'pointer'),
    f(9, 'labelSelector', m('LabelSelectorAttributes'), 'pointer'),
  ],
  FieldSelectorAttributes: [f(1, 'rawSelector', 'string'), list(2, 'requirements', m('FieldSelectorRequirement'))],
  LabelSelectorAttributes: [f(1, 'rawSelector', 'string'), list(2, 'requirements', m('LabelSelectorRequirement'))],
  NonResourceAttributes: [f(1, 'path', 'string'), f(2, 'verb', 'string')],
  SubjectAccessReviewStatus: [f(1, 'allowed', 'bool', 'always'), f(4, 'denied', 'bool'), f(2, 'reason', 'string'), f(3, 'evaluationError', 'string')],
  SelfSubjectRulesReview: [metadata, f(2, 'spec', m('SelfSubjectRulesReviewSpec'), 'always'), f(3, 'status', m('SubjectRulesReviewStatus'))],
  SelfSubjectRulesReviewSpec: [f(1, 'namespace', 'string')],
  SubjectRulesReviewStatus: [
    list(1, 'resourceRules', m('ResourceRule'), 'always'),
    list(2, 'nonResourceRules', m('NonResourceRule'), 'always'),
    f(3, 'incomplete', 'bool', 'always'),
    f(4, 'evaluationError', 'string'),
  ],
  ResourceRule: [list(1, 'verbs', 'string', 'always'), list(2, 'apiGroups', 'string'), list(3, 'resources', 'string'), list(4, 'resourceNames', 'string')],
  NonResourceRule: [list(1, 'verbs', 'string', 'always'), list(2, 'nonResourceURLs', 'string')],
};

const certificates: MessageTables = {
  CertificateSigningRequest: [metadata, f(2, 'spec', m('CertificateSigningRequestSpec'), 'always'), f(3, 'status', m('CertificateSigningRequestStatus'))],
  CertificateSigningRequestSpec: [
    f(1, 'request', 'bytes', 'always'),
    f(7, 'signerName', 'string', 'always'),
    f(8, 'expirationSeconds', 'int32', 'pointer'),
    list(5, 'usages', 'string'),
    f(2, 'username', 'string'),
    f(3, 'uid', 'string'),
    list(4, 'groups', 'string'),
    f(6, 'extra', 'stringListMap'),
  ],
  CertificateSigningRequestStatus: [list(1, 'conditions', m('CertificateSigningRequestCondition')), f(2, 'certificate', 'bytes')],
  CertificateSigningRequestCondition: [
    f(1, 'type', 'string', 'always'),
    f(6, 'status', 'string', 'always'),
    f(2, 'reason', 'string'),
    f(3, 'message', 'string'),
    f(4, 'lastUpdateTime', 'time'),
    f(5, 'lastTransitionTime', 'time'),
  ],
};

const autoscaling: MessageTables = {
  Scale: [metadata, f(2, 'spec', m('ScaleSpec')), f(3, 'status', m('ScaleStatus'))],
  ScaleSpec: [f(1, 'replicas', 'int32')],
  ScaleStatus: [f(1, 'replicas', 'int32', 'always'), f(2, 'selector', 'string')],
};

export const messages: MessageTables = { ...meta, ...core, ...rbac, ...authentication, ...authorization, ...certificates, ...autoscaling };

/**
 * Top-level kinds by `<group>/<version>/<Kind>`, the group by its first DNS label only, so a
 * simulation serving the groups under another domain (authentication.example.dev) matches too.
 */
export const topLevel: Readonly<Record<string, string>> = {
  '/v1/ServiceAccount': 'ServiceAccount',
  '/v1/Secret': 'Secret',
  '/v1/ConfigMap': 'ConfigMap',
  '/v1/Namespace': 'Namespace',
  '/v1/Service': 'Service',
  'rbac/v1/Role': 'Role',
  'rbac/v1/ClusterRole': 'ClusterRole',
  'rbac/v1/RoleBinding': 'RoleBinding',
  'rbac/v1/ClusterRoleBinding': 'ClusterRoleBinding',
  'authentication/v1/TokenRequest': 'TokenRequest',
  'authentication/v1/TokenReview': 'TokenReview',
  'authentication/v1/SelfSubjectReview': 'SelfSubjectReview',
  'authorization/v1/SelfSubjectAccessReview': 'SelfSubjectAccessReview',
  'authorization/v1/SelfSubjectRulesReview': 'SelfSubjectRulesReview',
  'certificates/v1/CertificateSigningRequest': 'CertificateSigningRequest',
  'autoscaling/v1/Scale': 'Scale',
};

/** meta/v1 option kinds that metav1.AddToGroupVersion registers in every group and version. */
export const inEveryVersion: Readonly<Record<string, string>> = { DeleteOptions: 'DeleteOptions' };
