/**
 * Valid bodies of the supporting core kinds a simulation serves — Namespace, Secret, Pod, Node,
 * Service, PersistentVolumeClaim, Event — and apps' ControllerRevision, for create requests, drawn
 * from the caller's fast-check. A body drawn here is accepted (201) by a fresh simulation (namespaced
 * ones in `default`) and by a faithful server; test/testing/kindArbitraries.test.ts holds that as
 * a property. Names that a fresh simulation already holds (its bootstrap objects) are never drawn.
 */
import type * as FastCheck from 'fast-check';
import { dnsLabel, labels, type Fc } from './arbitraries.ts';

type Arb<T> = FastCheck.Arbitrary<T>;
type Body = Record<string, unknown>;

/** Keys of ConfigMap and Secret data: alphanumerics, `-`, `_`, `.`, but not `.` or `..`. */
export function configKey(fc: Fc): Arb<string> {
  return fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.'), minLength: 1, maxLength: 12 }).filter((k) => k !== '.' && k !== '..');
}

/** An RFC 1123 subdomain: one label, or two joined by a dot. */
function subdomain(fc: Fc): Arb<string> {
  return fc.tuple(dnsLabel(fc, 12), fc.option(dnsLabel(fc, 8), { nil: undefined })).map(([a, b]) => (b === undefined ? a : `${a}.${b}`));
}

/** Base64 of a text's UTF-8 bytes (`btoa` takes only Latin-1, and Buffer is Node's). */
function base64(text: string): string {
  let bin = '';
  for (const b of new TextEncoder().encode(text)) bin += String.fromCharCode(b);
  return btoa(bin);
}

/** A Namespace; never one of the bootstrap namespaces (`default`, `kube-*`, `platform-*`). */
export function namespace(fc: Fc): Arb<Body> {
  const name = dnsLabel(fc, 20).filter((n) => n !== 'default' && !n.startsWith('kube-') && !n.startsWith('platform-'));
  return fc.record({ name, labels: labels(fc) }).map((d) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: d.name, labels: d.labels } }));
}

/** A Secret of type Opaque (stated or defaulted) or a custom type, with data, maybe stringData and `immutable`. */
export function secret(fc: Fc): Arb<Body> {
  const text = fc.string({ maxLength: 20 });
  return fc
    .record({
      name: subdomain(fc),
      labels: labels(fc),
      type: fc.constantFrom(undefined, 'Opaque', 'example.com/credentials'),
      data: fc.dictionary(configKey(fc), text, { maxKeys: 3 }),
      stringData: fc.option(fc.dictionary(configKey(fc), text, { maxKeys: 2 }), { nil: undefined }),
      immutable: fc.option(fc.boolean(), { nil: undefined }),
    })
    .map((d) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: d.name, labels: d.labels },
      ...(d.type === undefined ? {} : { type: d.type }),
      data: Object.fromEntries(Object.entries(d.data).map(([k, v]) => [k, base64(v)])),
      ...(d.stringData === undefined ? {} : { stringData: d.stringData }),
      ...(d.immutable === undefined ? {} : { immutable: d.immutable }),
    }));
}

const images = ['nginx:1.27', 'busybox:1.36', 'registry.example/app:v1'];

/**
 * A Pod of one to three containers and maybe an init container (names unique across both, as
 * a faithful server requires), with a restart policy and the node agent's readiness annotation.
 * It runs as the namespace's `default` ServiceAccount, which every namespace has.
 */
export function pod(fc: Fc): Arb<Body> {
  return fc
    .record({
      name: subdomain(fc),
      labels: labels(fc),
      names: fc.uniqueArray(dnsLabel(fc, 10), { minLength: 1, maxLength: 4 }),
      images: fc.array(fc.constantFrom(...images), { minLength: 4, maxLength: 4 }),
      init: fc.boolean(),
      restartPolicy: fc.constantFrom(undefined, 'Always', 'OnFailure', 'Never'),
      readyAfter: fc.integer({ min: 0, max: 30 }),
    })
    .map((d) => {
      const all = d.names.map((name, i) => ({ name, image: d.images[i]! }));
      const inits = d.init && all.length > 1 ? all.slice(0, 1) : [];
      return {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: d.name, labels: d.labels, annotations: { 'sim.platform.io/ready-after': `${d.readyAfter}s` } },
        spec: {
          ...(inits.length === 0 ? {} : { initContainers: inits }),
          containers: all.slice(inits.length),
          ...(d.restartPolicy === undefined ? {} : { restartPolicy: d.restartPolicy }),
        },
      };
    });
}

/** A Node (never the simulation's `node-1`) with taints unique by key and effect, maybe a pod CIDR, maybe cordoned. */
export function node(fc: Fc): Arb<Body> {
  const taint = fc.record({
    key: fc.oneof(dnsLabel(fc, 10), dnsLabel(fc, 8).map((k) => `example.com/${k}`)),
    value: fc.option(dnsLabel(fc, 8), { nil: undefined }),
    effect: fc.constantFrom('NoSchedule', 'PreferNoSchedule', 'NoExecute'),
  });
  return fc
    .record({
      name: subdomain(fc).filter((n) => n !== 'node-1'),
      labels: labels(fc),
      taints: fc.uniqueArray(taint, { maxLength: 3, selector: (t) => `${t.effect} ${t.key}` }),
      cidr: fc.option(fc.integer({ min: 0, max: 255 }), { nil: undefined }),
      unschedulable: fc.option(fc.boolean(), { nil: undefined }),
    })
    .map((d) => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: d.name, labels: d.labels },
      spec: {
        ...(d.taints.length === 0 ? {} : { taints: d.taints.map((t) => ({ key: t.key, ...(t.value === undefined ? {} : { value: t.value }), effect: t.effect })) }),
        ...(d.cidr === undefined ? {} : { podCIDRs: [`10.${d.cidr}.0.0/24`] }),
        ...(d.unschedulable === undefined ? {} : { unschedulable: d.unschedulable }),
      },
    }));
}

/**
 * A Service of type ClusterIP, NodePort or LoadBalancer, or headless (clusterIP None): a DNS-1035
 * name, one to three ports (distinct numbers, named when there are several; a target port by number
 * or by name), a selector, maybe a session affinity. Addresses and node ports are the server's to allocate.
 */
export function service(fc: Fc): Arb<Body> {
  const letter = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz');
  return fc
    .record({
      name: fc.tuple(letter, dnsLabel(fc, 12)).map(([a, b]) => `${a}${b}`),
      type: fc.constantFrom('ClusterIP', 'NodePort', 'LoadBalancer', 'headless'),
      ports: fc.uniqueArray(fc.integer({ min: 1, max: 65535 }), { minLength: 1, maxLength: 3 }),
      names: fc.uniqueArray(dnsLabel(fc, 8), { minLength: 3, maxLength: 3 }),
      protocols: fc.array(fc.constantFrom('TCP', 'UDP', 'SCTP'), { minLength: 3, maxLength: 3 }),
      targets: fc.array(fc.oneof(fc.integer({ min: 1, max: 65535 }), fc.constantFrom('http', 'metrics', 'grpc')), { minLength: 3, maxLength: 3 }),
      selector: labels(fc),
      sessionAffinity: fc.constantFrom(undefined, 'None', 'ClientIP'),
    })
    .map((d) => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: d.name },
      spec: {
        ...(d.type === 'headless' ? { clusterIP: 'None' } : { type: d.type }),
        selector: d.selector,
        ports: d.ports.map((port, i) => ({ ...(d.ports.length > 1 ? { name: d.names[i]! } : {}), port, protocol: d.protocols[i]!, targetPort: d.targets[i]! })),
        ...(d.sessionAffinity === undefined ? {} : { sessionAffinity: d.sessionAffinity }),
      },
    }));
}

/** A PersistentVolumeClaim: access modes (ReadWriteOncePod alone, or others together), a storage request, maybe a class and a volume mode. */
export function persistentVolumeClaim(fc: Fc): Arb<Body> {
  return fc
    .record({
      name: subdomain(fc),
      accessModes: fc.oneof(fc.constant(['ReadWriteOncePod']), fc.uniqueArray(fc.constantFrom('ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany'), { minLength: 1, maxLength: 3 })),
      size: fc.integer({ min: 1, max: 100 }),
      unit: fc.constantFrom('', 'Mi', 'Gi'),
      storageClassName: fc.option(dnsLabel(fc, 10), { nil: undefined }),
      volumeMode: fc.constantFrom(undefined, 'Filesystem', 'Block'),
    })
    .map((d) => ({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: d.name },
      spec: {
        accessModes: d.accessModes,
        resources: { requests: { storage: `${d.size}${d.unit}` } },
        ...(d.storageClassName === undefined ? {} : { storageClassName: d.storageClassName }),
        ...(d.volumeMode === undefined ? {} : { volumeMode: d.volumeMode }),
      },
    }));
}

/**
 * A core/v1 Event about a pod, a config map or a set in `default`, or about a node (no namespace):
 * old-style (no eventTime, as kubelets write them) or new-style (eventTime and the reporting
 * controller, instance and action it then requires).
 */
export function event(fc: Fc): Arb<Body> {
  return fc
    .record({
      object: dnsLabel(fc, 12),
      suffix: fc.integer({ min: 0, max: 0xffff }),
      kind: fc.constantFrom('Pod', 'ConfigMap', 'StatefulSet', 'Node'),
      reason: fc.constantFrom('Scheduled', 'Pulled', 'Created', 'Started', 'Killing', 'BackOff'),
      message: fc.string({ maxLength: 40 }),
      type: fc.constantFrom('Normal', 'Warning'),
      count: fc.integer({ min: 1, max: 5 }),
      newStyle: fc.boolean(),
    })
    .map((d) => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${d.object}.${d.suffix.toString(16)}` },
      involvedObject: { apiVersion: d.kind === 'StatefulSet' ? 'apps/v1' : 'v1', kind: d.kind, name: d.object, ...(d.kind === 'Node' ? {} : { namespace: 'default' }) },
      reason: d.reason,
      message: d.message,
      type: d.type,
      ...(d.newStyle
        ? { eventTime: '2025-01-01T00:00:00.000000Z', reportingComponent: 'example.com/operator', reportingInstance: 'operator-0', action: 'Reconcile' }
        : { count: d.count, source: { component: 'kubelet' } }),
    }));
}

/** A ControllerRevision: a snapshot of some object's data and its revision number. */
export function controllerRevision(fc: Fc): Arb<Body> {
  return fc
    .record({ name: subdomain(fc), labels: labels(fc), data: fc.dictionary(dnsLabel(fc, 6), fc.oneof(fc.string({ maxLength: 10 }), fc.integer()), { maxKeys: 3 }), revision: fc.integer({ min: 0, max: 1000 }) })
    .map((d) => ({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: d.name, labels: d.labels }, data: { spec: { template: d.data } }, revision: d.revision }));
}
