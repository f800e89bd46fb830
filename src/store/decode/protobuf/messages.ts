/**
 * Field tables of the protobuf messages kubectl's typed commands send, from the generated.proto
 * files of k8s.io/api and k8s.io/apimachinery: field number → JSON name and kind. Rows are in Go
 * struct order, which is the JSON key order. `keep` marks Go pointer fields (`*bool`, `*int64`):
 * present means set, even to a zero value; other scalars at their zero value are left out, as
 * Go's JSON `omitempty` would.
 */
export type FieldKind =
  | 'string'
  | 'bytes'
  | 'bool'
  | 'int'
  | 'time'
  | 'microTime'
  | 'stringMap'
  | 'bytesMap'
  | 'extraMap'
  | 'intOrString'
  | 'quantity'
  | 'fieldsV1'
  | 'rawExtension'
  | { readonly message: string };

export interface FieldRow {
  readonly n: number;
  readonly json: string;
  readonly kind: FieldKind;
  readonly repeated?: boolean;
  readonly keep?: boolean;
}

const m = (message: string): FieldKind => ({ message });
const f = (n: number, json: string, kind: FieldKind, extra: { repeated?: boolean; keep?: boolean } = {}): FieldRow => ({ n, json, kind, ...extra });

export const messages: Readonly<Record<string, readonly FieldRow[]>> = {
  ObjectMeta: [
    f(1, 'name', 'string'),
    f(2, 'generateName', 'string'),
    f(3, 'namespace', 'string'),
    f(4, 'selfLink', 'string'),
    f(5, 'uid', 'string'),
    f(6, 'resourceVersion', 'string'),
    f(7, 'generation', 'int'),
    f(8, 'creationTimestamp', 'time'),
    f(9, 'deletionTimestamp', 'time'),
    f(10, 'deletionGracePeriodSeconds', 'int', { keep: true }),
    f(11, 'labels', 'stringMap'),
    f(12, 'annotations', 'stringMap'),
    f(13, 'ownerReferences', m('OwnerReference'), { repeated: true }),
    f(14, 'finalizers', 'string', { repeated: true }),
    f(17, 'managedFields', m('ManagedFieldsEntry'), { repeated: true }),
  ],
  OwnerReference: [f(5, 'apiVersion', 'string'), f(1, 'kind', 'string'), f(3, 'name', 'string'), f(4, 'uid', 'string'), f(6, 'controller', 'bool', { keep: true }), f(7, 'blockOwnerDeletion', 'bool', { keep: true })],
  ManagedFieldsEntry: [f(1, 'manager', 'string'), f(2, 'operation', 'string'), f(3, 'apiVersion', 'string'), f(4, 'time', 'time'), f(6, 'fieldsType', 'string'), f(7, 'fieldsV1', 'fieldsV1'), f(8, 'subresource', 'string')],
  ObjectReference: [f(1, 'kind', 'string'), f(2, 'namespace', 'string'), f(3, 'name', 'string'), f(4, 'uid', 'string'), f(5, 'apiVersion', 'string'), f(6, 'resourceVersion', 'string'), f(7, 'fieldPath', 'string')],
  LocalObjectReference: [f(1, 'name', 'string')],
  ServiceAccount: [f(1, 'metadata', m('ObjectMeta')), f(2, 'secrets', m('ObjectReference'), { repeated: true }), f(3, 'imagePullSecrets', m('LocalObjectReference'), { repeated: true }), f(4, 'automountServiceAccountToken', 'bool', { keep: true })],
  Secret: [f(1, 'metadata', m('ObjectMeta')), f(5, 'immutable', 'bool', { keep: true }), f(2, 'data', 'bytesMap'), f(4, 'stringData', 'stringMap'), f(3, 'type', 'string')],
  ConfigMap: [f(1, 'metadata', m('ObjectMeta')), f(4, 'immutable', 'bool', { keep: true }), f(2, 'data', 'stringMap'), f(3, 'binaryData', 'bytesMap')],
  Namespace: [f(1, 'metadata', m('ObjectMeta')), f(2, 'spec', m('NamespaceSpec')), f(3, 'status', m('NamespaceStatus'))],
  NamespaceSpec: [f(1, 'finalizers', 'string', { repeated: true })],
  NamespaceStatus: [f(1, 'phase', 'string'), f(2, 'conditions', m('NamespaceCondition'), { repeated: true })],
  NamespaceCondition: [f(1, 'type', 'string'), f(2, 'status', 'string'), f(4, 'lastTransitionTime', 'time'), f(5, 'reason', 'string'), f(6, 'message', 'string')],
  TokenRequest: [f(1, 'metadata', m('ObjectMeta')), f(2, 'spec', m('TokenRequestSpec')), f(3, 'status', m('TokenRequestStatus'))],
  TokenRequestSpec: [f(1, 'audiences', 'string', { repeated: true }), f(4, 'expirationSeconds', 'int', { keep: true }), f(3, 'boundObjectRef', m('BoundObjectReference'))],
  BoundObjectReference: [f(1, 'kind', 'string'), f(2, 'apiVersion', 'string'), f(3, 'name', 'string'), f(4, 'uid', 'string')],
  TokenRequestStatus: [f(1, 'token', 'string'), f(2, 'expirationTimestamp', 'time')],
  TokenReview: [f(1, 'metadata', m('ObjectMeta')), f(2, 'spec', m('TokenReviewSpec')), f(3, 'status', m('TokenReviewStatus'))],
  TokenReviewSpec: [f(1, 'token', 'string'), f(2, 'audiences', 'string', { repeated: true })],
  TokenReviewStatus: [f(1, 'authenticated', 'bool'), f(2, 'user', m('UserInfo')), f(4, 'audiences', 'string', { repeated: true }), f(3, 'error', 'string')],
  UserInfo: [f(1, 'username', 'string'), f(2, 'uid', 'string'), f(3, 'groups', 'string', { repeated: true }), f(4, 'extra', 'extraMap')],
  SelfSubjectReview: [f(1, 'metadata', m('ObjectMeta')), f(2, 'status', m('SelfSubjectReviewStatus'))],
  SelfSubjectReviewStatus: [f(1, 'userInfo', m('UserInfo'))],
  SelfSubjectAccessReview: [f(1, 'metadata', m('ObjectMeta')), f(2, 'spec', m('SelfSubjectAccessReviewSpec')), f(3, 'status', m('SubjectAccessReviewStatus'))],
  SelfSubjectAccessReviewSpec: [f(1, 'resourceAttributes', m('ResourceAttributes')), f(2, 'nonResourceAttributes', m('NonResourceAttributes'))],
  ResourceAttributes: [f(1, 'namespace', 'string'), f(2, 'verb', 'string'), f(3, 'group', 'string'), f(4, 'version', 'string'), f(5, 'resource', 'string'), f(6, 'subresource', 'string'), f(7, 'name', 'string'), f(8, 'fieldSelector', 'rawExtension'), f(9, 'labelSelector', 'rawExtension')],
  NonResourceAttributes: [f(1, 'path', 'string'), f(2, 'verb', 'string')],
  SelfSubjectRulesReview: [f(1, 'metadata', m('ObjectMeta')), f(2, 'spec', m('SelfSubjectRulesReviewSpec'))],
  SelfSubjectRulesReviewSpec: [f(1, 'namespace', 'string')],
  SubjectAccessReviewStatus: [f(1, 'allowed', 'bool'), f(4, 'denied', 'bool'), f(2, 'reason', 'string'), f(3, 'evaluationError', 'string')],
  CertificateSigningRequest: [f(1, 'metadata', m('ObjectMeta')), f(2, 'spec', m('CertificateSigningRequestSpec')), f(3, 'status', m('CertificateSigningRequestStatus'))],
  CertificateSigningRequestSpec: [
    f(1, 'request', 'bytes'),
    f(7, 'signerName', 'string'),
    f(8, 'expirationSeconds', 'int', { keep: true }),
    f(5, 'usages', 'string', { repeated: true }),
    f(2, 'username', 'string'),
    f(3, 'uid', 'string'),
    f(4, 'groups', 'string', { repeated: true }),
    f(6, 'extra', 'extraMap'),
  ],
  CertificateSigningRequestStatus: [f(1, 'conditions', m('CertificateSigningRequestCondition'), { repeated: true }), f(2, 'certificate', 'bytes')],
  CertificateSigningRequestCondition: [f(1, 'type', 'string'), f(6, 'status', 'string'), f(2, 'reason', 'string'), f(3, 'message', 'string'), f(4, 'lastUpdateTime', 'time'), f(5, 'lastTransitionTime', 'time')],
  Scale: [f(1, 'metadata', m('ObjectMeta')), f(2, 'spec', m('ScaleSpec')), f(3, 'status', m('ScaleStatus'))],
  ScaleSpec: [f(1, 'replicas', 'int')],
  ScaleStatus: [f(1, 'replicas', 'int', { keep: true }), f(2, 'selector', 'string')],
  DeleteOptions: [f(1, 'gracePeriodSeconds', 'int', { keep: true }), f(2, 'preconditions', m('Preconditions')), f(3, 'orphanDependents', 'bool', { keep: true }), f(4, 'propagationPolicy', 'string'), f(5, 'dryRun', 'string', { repeated: true })],
  Preconditions: [f(1, 'uid', 'string'), f(2, 'resourceVersion', 'string')],
};

/** Top-level kinds by `<group>/<Kind>` (the group without the domain, so both name modes match). */
export const topLevel: Readonly<Record<string, string>> = {
  '/ServiceAccount': 'ServiceAccount',
  '/Secret': 'Secret',
  '/ConfigMap': 'ConfigMap',
  '/Namespace': 'Namespace',
  'authentication/TokenRequest': 'TokenRequest',
  'authentication/TokenReview': 'TokenReview',
  'authentication/SelfSubjectReview': 'SelfSubjectReview',
  'authorization/SelfSubjectAccessReview': 'SelfSubjectAccessReview',
  'authorization/SelfSubjectRulesReview': 'SelfSubjectRulesReview',
  'certificates/CertificateSigningRequest': 'CertificateSigningRequest',
  'autoscaling/Scale': 'Scale',
  'meta/DeleteOptions': 'DeleteOptions',
  '/DeleteOptions': 'DeleteOptions',
};
