/**
 * Kubernetes protobuf request bodies: real bytes captured from kubectl 1.32's typed commands
 * (fixtures/*.b64, recorded by a throwaway HTTP server answering kubectl with JSON), and messages
 * built here with a small encoder for kinds kubectl does not send easily. Expected objects are
 * what Go's encoding/json writes for the same struct, key order included (compared as text).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../../src/core/json.ts';
import { decodeKubernetesProtobuf } from '../../../src/store/decode/protobuf/decodeProtobuf.ts';
import { readEnvelope } from '../../../src/store/decode/protobuf/envelope.ts';
import type { FieldRow, MessageTables } from '../../../src/store/decode/protobuf/messages.ts';
import { messageToJson } from '../../../src/store/decode/protobuf/toJson.ts';
import { readMessage } from '../../../src/store/decode/protobuf/wire.ts';

const fixture = (name: string): Uint8Array => new Uint8Array(Buffer.from(readFileSync(join(import.meta.dirname, 'fixtures', `${name}.b64`), 'utf8').trim(), 'base64'));

/** Test-only protobuf writer: tags, varints (two's complement for negatives), length-delimited. */
const varint = (n: number | bigint): number[] => {
  let v = BigInt.asUintN(64, BigInt(n));
  const out: number[] = [];
  while (v >= 128n) {
    out.push(Number(v & 127n) | 128);
    v >>= 7n;
  }
  out.push(Number(v));
  return out;
};
type Bytes = number[] | string;
const raw = (b: Bytes): number[] => (typeof b === 'string' ? [...new TextEncoder().encode(b)] : b);
const ld = (field: number, b: Bytes): number[] => [...varint(field * 8 + 2), ...varint(raw(b).length), ...raw(b)];
const vi = (field: number, n: number | bigint): number[] => [...varint(field * 8), ...varint(n)];
const fixed32 = (field: number): number[] => [...varint(field * 8 + 5), 1, 2, 3, 4];
const fixed64 = (field: number): number[] => [...varint(field * 8 + 1), 1, 2, 3, 4, 5, 6, 7, 8];
const group = (field: number, body: number[]): number[] => [...varint(field * 8 + 3), ...body, ...varint(field * 8 + 4)];
const entry = (field: number, key: string, value: Bytes): number[] => ld(field, [...ld(1, key), ...ld(2, value)]);
const time = (seconds: number, nanos = 0): number[] => [...vi(1, seconds), ...vi(2, nanos)];
const magic = [0x6b, 0x38, 0x73, 0];
const envelope = (apiVersion: string, kind: string, body: number[], rest: number[] = []): Uint8Array => new Uint8Array([...magic, ...ld(1, [...ld(1, apiVersion), ...ld(2, kind)]), ...ld(2, body), ...rest]);

function decoded(bytes: Uint8Array): JsonValue {
  const d = decodeKubernetesProtobuf(bytes);
  if (!d.ok) throw new Error(d.message);
  return d.object;
}

/** Equal as JSON text, so the key order counts too. */
const expectJson = (actual: JsonValue, expected: JsonValue): void => expect(JSON.stringify(actual, null, 1)).toBe(JSON.stringify(expected, null, 1));

describe('kubectl 1.32 request bodies', () => {
  const csr = (type: string, reason: string, message: string): JsonValue => ({
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name: 'csr1', uid: 'u-1', resourceVersion: '7', creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { request: 'LS0tLQ==', signerName: 'example.com/s', expirationSeconds: 600, usages: ['client auth'], username: 'alice', groups: ['dev', 'system:authenticated'], extra: { scopes: ['x', 'y'] } },
    // The GET answer had no lastTransitionTime; kubectl's Go struct then holds the zero Time.
    status: { conditions: [{ type, status: 'True', reason, message, lastUpdateTime: '2026-11-24T20:52:30Z', lastTransitionTime: null }] },
  });
  const ssar = { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', metadata: {} };
  const rbac = (kind: string, name: string) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind, metadata: { name } });
  const service = (name: string, spec: JsonValue): JsonValue => ({ apiVersion: 'v1', kind: 'Service', metadata: { name, labels: { app: name } }, spec, status: { loadBalancer: {} } });
  const cases: Record<string, JsonValue> = {
    // kubectl create serviceaccount sa1 --dry-run=server
    serviceaccount: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa1' } },
    // kubectl create secret generic s1 --from-literal=a=b [--type=example.com/t]
    secret: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, data: { a: 'Yg==' } },
    'secret-typed': { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, data: { a: 'Yg==' }, type: 'example.com/t' },
    // kubectl create configmap c1 --from-literal=k=v
    configmap: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1' }, data: { k: 'v' } },
    // kubectl create namespace n1
    namespace: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n1' }, spec: {}, status: {} },
    // kubectl auth whoami
    selfsubjectreview: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview', metadata: {}, status: { userInfo: {} } },
    // kubectl create token sa1 --audience x --duration 20m
    tokenrequest: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: {}, spec: { audiences: ['x'], expirationSeconds: 1200, boundObjectRef: null }, status: { token: '', expirationTimestamp: null } },
    // kubectl create token sa1 --audience x --audience y --duration 20m --bound-object-kind Secret --bound-object-name s1 --bound-object-uid u-2
    'tokenrequest-bound': {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      metadata: {},
      spec: { audiences: ['x', 'y'], expirationSeconds: 1200, boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 's1', uid: 'u-2' } },
      status: { token: '', expirationTimestamp: null },
    },
    // kubectl auth can-i get pods -n n1; … --subresource=log; kubectl auth can-i get /logs
    selfsubjectaccessreview: { ...ssar, spec: { resourceAttributes: { namespace: 'n1', verb: 'get', resource: 'pods' } }, status: { allowed: false } },
    'selfsubjectaccessreview-subresource': { ...ssar, spec: { resourceAttributes: { namespace: 'n1', verb: 'get', resource: 'pods', subresource: 'log' } }, status: { allowed: false } },
    'selfsubjectaccessreview-nonresource': { ...ssar, spec: { nonResourceAttributes: { path: '/logs', verb: 'get' } }, status: { allowed: false } },
    // kubectl certificate approve csr1 / deny csr1 (PUT …/approval of the CSR the server returned)
    'csr-approve': csr('Approved', 'KubectlApprove', 'This CSR was approved by kubectl certificate approve.'),
    'csr-deny': csr('Denied', 'KubectlDeny', 'This CSR was denied by kubectl certificate deny.'),
    // kubectl create role r1 --verb=get,list --resource=pods,secrets --resource-name=x
    role: { ...rbac('Role', 'r1'), rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'secrets'], resourceNames: ['x'] }] },
    // kubectl create role r2 --verb=get --resource=statefulsets.apps,pods/log
    'role-apigroups': { ...rbac('Role', 'r2'), rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, { verbs: ['get'], apiGroups: ['apps'], resources: ['statefulsets'] }] },
    // kubectl create clusterrole cr1 --verb=get --resource=pods --non-resource-url=/logs
    clusterrole: { ...rbac('ClusterRole', 'cr1'), rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { verbs: ['get'], nonResourceURLs: ['/logs'] }] },
    // kubectl create clusterrole cr2 --aggregation-rule=a=b: Rules has no omitempty, so nil is null
    'clusterrole-aggregation': { ...rbac('ClusterRole', 'cr2'), rules: null, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] } },
    // kubectl create rolebinding rb1 --role=r1 --user=alice --group=dev --serviceaccount=default:robot
    rolebinding: {
      ...rbac('RoleBinding', 'rb1'),
      subjects: [
        { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' },
        { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'dev' },
        { kind: 'ServiceAccount', name: 'robot', namespace: 'default' },
      ],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r1' },
    },
    // kubectl create clusterrolebinding crb1 --clusterrole=cr1 --user=alice
    clusterrolebinding: {
      ...rbac('ClusterRoleBinding', 'crb1'),
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cr1' },
    },
    // kubectl create service clusterip svc1 --tcp=5678:8080 (status is a struct: never left out)
    'service-clusterip': service('svc1', { ports: [{ name: '5678-8080', protocol: 'TCP', port: 5678, targetPort: 8080 }], selector: { app: 'svc1' }, type: 'ClusterIP' }),
    // kubectl create service clusterip svc2 --clusterip=None
    'service-headless': service('svc2', { selector: { app: 'svc2' }, clusterIP: 'None', type: 'ClusterIP' }),
    // kubectl create service nodeport svc3 --tcp=80:8080 --node-port=30080
    'service-nodeport': service('svc3', { ports: [{ name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080, nodePort: 30080 }], selector: { app: 'svc3' }, type: 'NodePort' }),
    // kubectl create service externalname svc4 --external-name=example.com
    'service-externalname': service('svc4', { selector: { app: 'svc4' }, type: 'ExternalName', externalName: 'example.com' }),
    // kubectl create service loadbalancer svc5 --tcp=443:https (a named target port)
    'service-loadbalancer': service('svc5', { ports: [{ name: '443-https', protocol: 'TCP', port: 443, targetPort: 'https' }], selector: { app: 'svc5' }, type: 'LoadBalancer' }),
  };

  for (const [name, expected] of Object.entries(cases)) {
    it(name, () => expectJson(decoded(fixture(name)), expected));
  }

  it('reports the envelope apiVersion and kind beside the object', () => {
    const d = decodeKubernetesProtobuf(fixture('tokenrequest'));
    expect(d.ok && [d.apiVersion, d.kind]).toEqual(['authentication.k8s.io/v1', 'TokenRequest']);
  });
});

describe('messages built with the test encoder', () => {
  const objectMeta = [
    ...ld(1, 'c1'),
    ...ld(3, 'ns'),
    ...ld(5, 'uid-1'),
    ...ld(6, '42'),
    ...vi(7, 2 ** 40),
    ...ld(8, time(1767225600)),
    ...ld(9, time(1767225700, 999_000_000)),
    ...vi(10, 0),
    ...entry(11, 'team', 'a'),
    ...entry(11, 'app', 'b'),
    ...entry(12, '__proto__', 'kept as a key'),
    ...ld(13, [...ld(1, 'Deployment'), ...ld(3, 'd'), ...ld(4, 'u-9'), ...ld(5, 'apps/v1'), ...vi(6, 1), ...vi(7, 0)]),
    ...ld(14, 'example.com/f'),
    ...ld(17, [...ld(1, 'kubectl'), ...ld(2, 'Update'), ...ld(3, 'v1'), ...ld(4, time(1767225600)), ...ld(6, 'FieldsV1'), ...ld(7, ld(1, '{"f:metadata":{"f:labels":{}}}'))]),
  ];
  const objectMetaJson = {
    name: 'c1',
    namespace: 'ns',
    uid: 'uid-1',
    resourceVersion: '42',
    generation: 2 ** 40,
    creationTimestamp: '2026-01-01T00:00:00Z',
    deletionTimestamp: '2026-01-01T00:01:40Z',
    deletionGracePeriodSeconds: 0,
    labels: { app: 'b', team: 'a' },
    annotations: JSON.parse('{"__proto__":"kept as a key"}') as JsonValue,
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: 'u-9', controller: true, blockOwnerDeletion: false }],
    finalizers: ['example.com/f'],
    managedFields: [{ manager: 'kubectl', operation: 'Update', apiVersion: 'v1', time: '2026-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': {} } } }],
  };

  it('a CSR with every ObjectMeta field, conditions, timestamps, a certificate and unknown fields', () => {
    const spec = [...ld(1, [0x2d, 0x2d]), ...ld(7, 'example.com/s'), ...vi(8, 600), ...ld(5, 'client auth'), ...ld(2, 'alice'), ...ld(3, 'u-a'), ...ld(4, 'dev'), ...ld(4, 'ops'), ...ld(6, [...ld(1, 'scopes'), ...ld(2, [...ld(1, 'x'), ...ld(1, 'y')])])];
    const approved = [...ld(1, 'Approved'), ...ld(6, 'True'), ...ld(2, 'AdminApproval'), ...ld(3, 'ok'), ...ld(4, time(1767225660)), ...ld(5, time(1767225661)), ...fixed32(90)];
    const status = [...ld(1, approved), ...ld(2, [1, 2, 3])];
    const body = [...ld(1, objectMeta), ...ld(2, spec), ...ld(3, status), ...ld(99, 'unknown'), ...vi(98, 7), ...fixed64(97), ...group(96, [...vi(1, 1), ...group(2, ld(3, 'x'))])];
    expectJson(decoded(envelope('certificates.k8s.io/v1', 'CertificateSigningRequest', body)), {
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: objectMetaJson,
      spec: { request: 'LS0=', signerName: 'example.com/s', expirationSeconds: 600, usages: ['client auth'], username: 'alice', uid: 'u-a', groups: ['dev', 'ops'], extra: { scopes: ['x', 'y'] } },
      status: {
        conditions: [{ type: 'Approved', status: 'True', reason: 'AdminApproval', message: 'ok', lastUpdateTime: '2026-01-01T00:01:00Z', lastTransitionTime: '2026-01-01T00:01:01Z' }],
        certificate: 'AQID',
      },
    });
  });

  it('a CSR without spec writes the fields Go never omits', () => {
    expectJson(decoded(envelope('certificates.k8s.io/v1', 'CertificateSigningRequest', [])), {
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: {},
      spec: { request: null, signerName: '' },
      status: {},
    });
  });

  it('a TokenReview', () => {
    const user = [...ld(1, 'system:serviceaccount:ns:sa'), ...ld(2, 'u-1'), ...ld(3, 'system:serviceaccounts'), ...ld(4, [...ld(1, 'authentication.kubernetes.io/pod-name'), ...ld(2, ld(1, 'p'))]), ...ld(4, [...ld(1, 'empty'), ...ld(2, [])])];
    const body = [...ld(1, []), ...ld(2, [...ld(1, 'tok'), ...ld(2, 'api')]), ...ld(3, [...vi(1, 1), ...ld(2, user), ...ld(4, 'api'), ...ld(3, '')])];
    expectJson(decoded(envelope('authentication.k8s.io/v1', 'TokenReview', body)), {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      metadata: {},
      spec: { token: 'tok', audiences: ['api'] },
      status: { authenticated: true, user: { username: 'system:serviceaccount:ns:sa', uid: 'u-1', groups: ['system:serviceaccounts'], extra: { 'authentication.kubernetes.io/pod-name': ['p'], empty: null } }, audiences: ['api'] },
    });
  });

  it('a Scale: spec.replicas omitted at zero, status.replicas always written', () => {
    const scale = (body: number[]): JsonValue => decoded(envelope('autoscaling/v1', 'Scale', body));
    expectJson(scale([...ld(1, [...ld(1, 'd1'), ...ld(3, 'ns')]), ...ld(2, vi(1, 3)), ...ld(3, [...vi(1, 1), ...ld(2, 'app=d')])]), {
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name: 'd1', namespace: 'ns' },
      spec: { replicas: 3 },
      status: { replicas: 1, selector: 'app=d' },
    });
    expectJson(scale([...ld(2, vi(1, 0))]), { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: {}, spec: {}, status: { replicas: 0 } });
  });

  it('a SelfSubjectAccessReview with field and label selectors', () => {
    const requirement = [...ld(1, 'app'), ...ld(2, 'In'), ...ld(3, 'a'), ...ld(3, 'b')];
    const attrs = [...ld(2, 'list'), ...ld(3, 'apps'), ...ld(4, 'v1'), ...ld(5, 'deployments'), ...ld(7, 'd'), ...ld(8, ld(1, 'metadata.name=d')), ...ld(9, ld(2, requirement))];
    expectJson(decoded(envelope('authorization.k8s.io/v1', 'SelfSubjectAccessReview', ld(2, ld(1, attrs)))), {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      metadata: {},
      spec: { resourceAttributes: { verb: 'list', group: 'apps', version: 'v1', resource: 'deployments', name: 'd', fieldSelector: { rawSelector: 'metadata.name=d' }, labelSelector: { requirements: [{ key: 'app', operator: 'In', values: ['a', 'b'] }] } } },
      status: { allowed: false },
    });
  });

  it('a SelfSubjectRulesReview (kubectl auth can-i --list)', () => {
    expectJson(decoded(envelope('authorization.k8s.io/v1', 'SelfSubjectRulesReview', [...ld(1, []), ...ld(2, ld(1, 'ns')), ...ld(3, [])])), {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      metadata: {},
      spec: { namespace: 'ns' },
      status: { resourceRules: null, nonResourceRules: null, incomplete: false },
    });
  });

  it('a ServiceAccount: a pointer set to false survives, zero scalars do not', () => {
    const body = [...ld(1, [...ld(1, 'sa'), ...ld(2, ''), ...vi(7, 0)]), ...ld(2, [...ld(1, 'Secret'), ...ld(3, 's')]), ...ld(3, ld(1, 'pull')), ...vi(4, 0)];
    expectJson(decoded(envelope('v1', 'ServiceAccount', body)), {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'sa' },
      secrets: [{ kind: 'Secret', name: 's' }],
      imagePullSecrets: [{ name: 'pull' }],
      automountServiceAccountToken: false,
    });
  });

  it('a Secret and a ConfigMap: byte maps as base64, keys sorted as Go sorts them', () => {
    expectJson(decoded(envelope('v1', 'Secret', [...vi(5, 1), ...entry(2, 'z', [0xff]), ...entry(2, 'a', []), ...entry(4, 'k', 'v'), ...ld(3, 'Opaque')])), {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {},
      immutable: true,
      data: { a: '', z: '/w==' },
      stringData: { k: 'v' },
      type: 'Opaque',
    });
    expectJson(decoded(envelope('v1', 'ConfigMap', [...vi(4, 0), ...entry(2, 'k', 'v'), ...entry(3, 'b', [0, 1])])), { apiVersion: 'v1', kind: 'ConfigMap', metadata: {}, immutable: false, data: { k: 'v' }, binaryData: { b: 'AAE=' } });
  });

  it('a Namespace with finalizers and conditions', () => {
    const condition = [...ld(1, 'NamespaceDeletionContentFailure'), ...ld(2, 'False'), ...ld(4, []), ...ld(5, 'r')];
    expectJson(decoded(envelope('v1', 'Namespace', [...ld(1, ld(1, 'n')), ...ld(2, ld(1, 'kubernetes')), ...ld(3, [...ld(1, 'Terminating'), ...ld(2, condition)])])), {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'n' },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Terminating', conditions: [{ type: 'NamespaceDeletionContentFailure', status: 'False', lastTransitionTime: null, reason: 'r' }] },
    });
  });

  it('a Service with every spec field, load-balancer ingress and conditions', () => {
    const port = [...ld(1, 'http'), ...ld(2, 'TCP'), ...ld(6, 'kubernetes.io/h2c'), ...vi(3, 80), ...ld(4, [...vi(1, 1), ...ld(3, 'web')]), ...vi(5, 30080)];
    const spec = [
      ...ld(1, port),
      ...ld(1, vi(3, 0)),
      ...entry(2, 'app', 'web'),
      ...ld(3, '10.0.0.1'),
      ...ld(18, '10.0.0.1'),
      ...ld(4, 'LoadBalancer'),
      ...ld(5, '192.0.2.1'),
      ...ld(7, 'ClientIP'),
      ...ld(8, '192.0.2.9'),
      ...ld(9, '10.0.0.0/8'),
      ...ld(10, ''),
      ...ld(11, 'Local'),
      ...vi(12, 32000),
      ...vi(13, 1),
      ...ld(14, ld(1, vi(1, 60))),
      ...ld(19, 'IPv4'),
      ...ld(17, 'SingleStack'),
      ...vi(20, 0),
      ...ld(21, 'example.com/lb'),
      ...ld(22, 'Cluster'),
      ...ld(23, 'PreferClose'),
    ];
    const ingress = [...ld(1, '192.0.2.2'), ...ld(3, 'VIP'), ...ld(4, [...vi(1, 80), ...ld(2, 'TCP')])];
    const condition = [...ld(1, 'Ready'), ...ld(2, 'True'), ...vi(3, 2), ...ld(4, time(1767225600)), ...ld(5, 'Ok'), ...ld(6, '')];
    const body = [...ld(1, ld(1, 'web')), ...ld(2, spec), ...ld(3, [...ld(1, ld(1, ingress)), ...ld(2, condition), ...ld(2, ld(1, 'Empty'))])];
    expectJson(decoded(envelope('v1', 'Service', body)), {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web' },
      spec: {
        ports: [{ name: 'http', protocol: 'TCP', appProtocol: 'kubernetes.io/h2c', port: 80, targetPort: 'web', nodePort: 30080 }, { port: 0, targetPort: 0 }],
        selector: { app: 'web' },
        clusterIP: '10.0.0.1',
        clusterIPs: ['10.0.0.1'],
        type: 'LoadBalancer',
        externalIPs: ['192.0.2.1'],
        sessionAffinity: 'ClientIP',
        loadBalancerIP: '192.0.2.9',
        loadBalancerSourceRanges: ['10.0.0.0/8'],
        externalTrafficPolicy: 'Local',
        healthCheckNodePort: 32000,
        publishNotReadyAddresses: true,
        sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } },
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
        allocateLoadBalancerNodePorts: false,
        loadBalancerClass: 'example.com/lb',
        internalTrafficPolicy: 'Cluster',
        trafficDistribution: 'PreferClose',
      },
      status: {
        loadBalancer: { ingress: [{ ip: '192.0.2.2', ipMode: 'VIP', ports: [{ port: 80, protocol: 'TCP' }] }] },
        conditions: [
          { type: 'Ready', status: 'True', observedGeneration: 2, lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'Ok', message: '' },
          { type: 'Empty', status: '', lastTransitionTime: null, reason: '', message: '' },
        ],
      },
    });
  });

  it('RBAC kinds: label selectors with expressions, empty lists as Go writes them', () => {
    const selector = [...entry(1, 'a', 'b'), ...ld(2, [...ld(1, 'tier'), ...ld(2, 'Exists')])];
    expectJson(decoded(envelope('rbac.authorization.k8s.io/v1', 'ClusterRole', [...ld(1, ld(1, 'agg')), ...ld(2, []), ...ld(3, ld(1, selector))])), {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'agg' },
      rules: [{ verbs: null }],
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' }, matchExpressions: [{ key: 'tier', operator: 'Exists' }] }] },
    });
    expectJson(decoded(envelope('rbac.authorization.k8s.io/v1', 'Role', [])), { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: {}, rules: null });
    expectJson(decoded(envelope('rbac.authorization.k8s.io/v1', 'RoleBinding', ld(2, []))), {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: {},
      subjects: [{ kind: '', name: '' }],
      roleRef: { apiGroup: '', kind: '', name: '' },
    });
  });

  it('DeleteOptions, registered in every group version; pointers to zero values kept', () => {
    const body = [...vi(1, 0), ...ld(2, [...ld(1, ''), ...ld(2, '9')]), ...vi(3, 0), ...ld(4, 'Foreground'), ...ld(5, 'All')];
    expectJson(decoded(envelope('apps/v1', 'DeleteOptions', body)), {
      apiVersion: 'apps/v1',
      kind: 'DeleteOptions',
      gracePeriodSeconds: 0,
      preconditions: { uid: '', resourceVersion: '9' },
      orphanDependents: false,
      propagationPolicy: 'Foreground',
      dryRun: ['All'],
    });
  });

  it('merges a message field sent twice and keeps the last of a scalar sent twice', () => {
    expectJson(decoded(envelope('v1', 'ConfigMap', [...ld(1, ld(1, 'first')), ...ld(1, [...ld(1, 'second'), ...ld(3, 'ns')])])), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'second', namespace: 'ns' } });
  });

  it('groups named by another domain match by their first label', () => {
    expect(decoded(envelope('authentication.example.dev/v1', 'SelfSubjectReview', []))).toMatchObject({ apiVersion: 'authentication.example.dev/v1', status: { userInfo: {} } });
  });

  it('int64 and int32 in two\'s complement; invalid UTF-8 as U+FFFD', () => {
    const meta = (m: number[]): JsonValue => decoded(envelope('v1', 'ConfigMap', ld(1, m)));
    expect(meta(vi(10, -1))).toMatchObject({ metadata: { deletionGracePeriodSeconds: -1 } });
    expect(meta(vi(7, Number.MAX_SAFE_INTEGER))).toMatchObject({ metadata: { generation: Number.MAX_SAFE_INTEGER } });
    expect(decodeKubernetesProtobuf(envelope('v1', 'ConfigMap', ld(1, vi(7, 2n ** 60n))))).toEqual({ ok: false, message: 'unable to decode protobuf ConfigMap: generation of ObjectMeta: 1152921504606846976 is beyond the integers JSON numbers hold exactly' });
    expect(decoded(envelope('autoscaling/v1', 'Scale', ld(2, vi(1, -5))))).toMatchObject({ spec: { replicas: -5 } });
    expect(meta(ld(1, [0x61, 0xff, 0x62]))).toMatchObject({ metadata: { name: 'a\uFFFDb' } });
  });
});

describe('well-known types (through a test table, as no listed message uses them all)', () => {
  const row = (n: number, json: string, kind: FieldRow['kind']): FieldRow => ({ n, json, kind, repeated: false, presence: 'omitempty' });
  const tables: MessageTables = {
    T: [row(1, 'port', 'intOrString'), row(2, 'name', 'intOrString'), row(3, 'cpu', 'quantity'), row(4, 'raw', 'rawExtension'), row(5, 'micro', 'microTime'), row(6, 'time', 'time'), row(7, 'unset', 'quantity')],
  };
  const io = (type: number, v: number[]): number[] => [...vi(1, type), ...v];

  it('IntOrString, Quantity, RawExtension, MicroTime, Time', () => {
    const body = [...ld(1, io(0, vi(2, 8080))), ...ld(2, io(1, ld(3, 'http'))), ...ld(3, ld(1, '500m')), ...ld(4, ld(1, '{"a":[1,true,null]}')), ...ld(5, time(1767225600, 123_456_789)), ...ld(6, time(1767225600, 999_999_999))];
    const r = messageToJson(tables, 'T', new Uint8Array(body));
    expect(r.ok && JSON.stringify(r.value)).toBe(JSON.stringify({ port: 8080, name: 'http', cpu: '500m', raw: { a: [1, true, null] }, micro: '2026-01-01T00:00:00.123456Z', time: '2026-01-01T00:00:00Z', unset: '0' }));
  });

  it('refuses an impossible IntOrString type, non-JSON raw bytes, a time beyond year 9999', () => {
    expect(messageToJson(tables, 'T', new Uint8Array(ld(1, io(2, []))))).toEqual({ ok: false, message: 'port of T: impossible IntOrString.Type 2' });
    expect(messageToJson(tables, 'T', new Uint8Array(ld(4, ld(1, [0x0a, 0x01]))))).toMatchObject({ ok: false, message: expect.stringMatching(/^raw of T does not hold JSON/) });
    expect(messageToJson(tables, 'T', new Uint8Array(ld(6, time(253402300800))))).toEqual({ ok: false, message: 'time of T: timestamp 253402300800s is outside the years 0000-9999' });
  });
});

describe('malformed input', () => {
  it('bad magic and short input', () => {
    const notProto = 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]';
    expect(decodeKubernetesProtobuf(new TextEncoder().encode('{"kind":"ServiceAccount"}'))).toEqual({ ok: false, message: notProto });
    expect(decodeKubernetesProtobuf(new Uint8Array([0x6b, 0x38]))).toEqual({ ok: false, message: notProto });
  });

  it('unknown kinds and versions, a missing kind, a content encoding', () => {
    expect(decodeKubernetesProtobuf(envelope('apps/v1', 'Deployment', []))).toEqual({ ok: false, message: 'no kind "Deployment" is registered for version "apps/v1" in the protobuf decoder' });
    expect(decodeKubernetesProtobuf(envelope('certificates.k8s.io/v1beta1', 'CertificateSigningRequest', []))).toEqual({ ok: false, message: 'no kind "CertificateSigningRequest" is registered for version "certificates.k8s.io/v1beta1" in the protobuf decoder' });
    expect(decodeKubernetesProtobuf(envelope('v1', 'constructor', []))).toMatchObject({ ok: false });
    expect(decodeKubernetesProtobuf(envelope('v1', '', []))).toEqual({ ok: false, message: "Object 'Kind' is missing in the protobuf envelope" });
    expect(decodeKubernetesProtobuf(envelope('v1', 'ConfigMap', [], ld(3, 'gzip')))).toEqual({ ok: false, message: 'unsupported content encoding "gzip" in the protobuf envelope' });
  });

  it('truncation, overflow, illegal tags and wire types, wrong wire type for a field', () => {
    expect(decodeKubernetesProtobuf(fixture('tokenrequest').slice(0, -5))).toEqual({ ok: false, message: 'unable to decode the protobuf envelope: unexpected EOF' });
    expect(decodeKubernetesProtobuf(new Uint8Array([...magic, 0x0f]))).toEqual({ ok: false, message: 'unable to decode the protobuf envelope: illegal wireType 7 for field 1' });
    expect(decodeKubernetesProtobuf(new Uint8Array([...magic, 0x00]))).toEqual({ ok: false, message: 'unable to decode the protobuf envelope: illegal tag 0 (wire type 0)' });
    expect(decodeKubernetesProtobuf(new Uint8Array([...magic, 0x08, ...Array<number>(11).fill(0xff)]))).toEqual({ ok: false, message: 'unable to decode the protobuf envelope: integer overflow' });
    expect(decodeKubernetesProtobuf(envelope('v1', 'ConfigMap', ld(1, vi(1, 5))))).toEqual({ ok: false, message: 'unable to decode protobuf ConfigMap: proto: wrong wireType = 0 for field name of ObjectMeta' });
    expect(decodeKubernetesProtobuf(envelope('v1', 'ConfigMap', [...varint(8 * 9 + 3), ...ld(1, 'x')]))).toEqual({ ok: false, message: 'unable to decode protobuf ConfigMap: unexpected EOF' });
    expect(decodeKubernetesProtobuf(envelope('v1', 'ConfigMap', [...varint(8 * 9 + 3), ...varint(8 * 8 + 4)]))).toEqual({ ok: false, message: 'unable to decode protobuf ConfigMap: end group of field 8 inside group 9' });
  });

  it('groups nested past the limit are an error, not a stack overflow', () => {
    let body: number[] = [];
    for (let i = 0; i < 500; i++) body = group(9, body);
    expect(decodeKubernetesProtobuf(envelope('v1', 'ConfigMap', body))).toEqual({ ok: false, message: 'unable to decode protobuf ConfigMap: groups nested too deeply' });
  });

  it('every prefix of a real body decodes or fails, without throwing', () => {
    const full = fixture('csr-approve');
    const outcomes = new Set<boolean>();
    for (let i = 0; i <= full.length; i++) outcomes.add(decodeKubernetesProtobuf(full.slice(0, i)).ok);
    expect(outcomes).toEqual(new Set([true, false]));
  });

  it('random bytes and random damage to real bodies never throw', () => {
    const bodies = ['csr-approve', 'tokenrequest-bound', 'secret-typed'].map(fixture);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (b) => {
        expect(typeof decodeKubernetesProtobuf(new Uint8Array([...magic, ...b])).ok).toBe('boolean');
      }),
    );
    fc.assert(
      fc.property(fc.nat(bodies.length - 1), fc.array(fc.tuple(fc.nat(400), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }), (which, edits) => {
        const b = bodies[which]!.slice();
        for (const [at, value] of edits) b[4 + (at % (b.length - 4))] = value;
        expect(typeof decodeKubernetesProtobuf(b).ok).toBe('boolean');
      }),
    );
  });

  it('the envelope and wire reader report errors as values too', () => {
    expect(readEnvelope(new Uint8Array([...magic, 0x0a, 0x05, 0x0a]))).toEqual({ ok: false, message: 'unable to decode the protobuf envelope: unexpected EOF' });
    expect(readMessage(new Uint8Array([0x08]))).toEqual({ ok: false, message: 'unexpected EOF' });
    expect(readMessage(new Uint8Array([0x0d, 1, 2, 3, 4, 0x08, 0x01]))).toEqual({ ok: true, fields: new Map([[1, [{ type: 'varint', value: 1n }]]]) });
  });
});
