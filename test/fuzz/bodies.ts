/**
 * Bodies for the HTTP fuzzer: a valid object of each kind a client writes most (ServiceAccount,
 * ConfigMap, Pod, StatefulSet, CertificateSigningRequest, TokenRequest, RoleBinding) with where it
 * goes, and the mutations that make it hostile: a value of another type anywhere, keys named like
 * Object.prototype members, nesting far beyond the decoder's limit, huge strings and lists. Sizes
 * are bounded so one request stays in the milliseconds; numbers never ask for a huge but valid
 * amount of work (2147483647 replicas is a valid StatefulSet, built 500 pods a virtual second).
 */
import fc from 'fast-check';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface Kind {
  readonly name: string;
  /** Collection path (POST) and the name of the item (PUT, PATCH, GET, DELETE at `${collection}/${item}`). */
  readonly collection: string;
  readonly item: string;
  readonly subresources: readonly string[];
  readonly body: Json;
}

export const prototypeNames = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', '__defineGetter__', 'isPrototypeOf'];

const ns = '/api/v1/namespaces/default';

/** The kinds; `csr` is the base64 of a real certificate request PEM. */
export function kinds(csr: string): Kind[] {
  const labels = { app: 'web', tier: 'front' };
  const containers = [{ name: 'app', image: 'nginx:1.27', ports: [{ containerPort: 80, protocol: 'TCP' }], env: [{ name: 'A', value: 'b' }], resources: { requests: { cpu: '100m', memory: '64Mi' } } }];
  return [
    { name: 'ServiceAccount', collection: `${ns}/serviceaccounts`, item: 'default', subresources: ['token'], body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'fz-sa', labels }, secrets: [{ name: 's1' }], imagePullSecrets: [{ name: 'p' }], automountServiceAccountToken: true } },
    { name: 'ConfigMap', collection: `${ns}/configmaps`, item: 'fz-cm', subresources: [], body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fz-cm', labels, annotations: { note: 'x' } }, data: { a: 'b', 'c.txt': 'd' }, binaryData: { e: 'ZGF0YQ==' }, immutable: false } },
    { name: 'Pod', collection: `${ns}/pods`, item: 'fz-pod', subresources: ['status', 'binding', 'eviction'], body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'fz-pod', labels }, spec: { containers, serviceAccountName: 'default', nodeSelector: { disk: 'ssd' }, volumes: [{ name: 'v', configMap: { name: 'fz-cm' } }], terminationGracePeriodSeconds: 5 } } },
    {
      name: 'StatefulSet',
      collection: '/apis/apps/v1/namespaces/default/statefulsets',
      item: 'fz-web',
      subresources: ['status', 'scale'],
      body: {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: { name: 'fz-web' },
        spec: {
          replicas: 2,
          serviceName: 'web',
          selector: { matchLabels: labels, matchExpressions: [{ key: 'tier', operator: 'In', values: ['front'] }] },
          template: { metadata: { labels }, spec: { containers } },
          podManagementPolicy: 'Parallel',
          updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: '50%' } },
          volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
          persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Delete' },
          minReadySeconds: 0,
          ordinals: { start: 0 },
        },
      },
    },
    {
      name: 'CertificateSigningRequest',
      collection: '/apis/certificates.platform.io/v1/certificatesigningrequests',
      item: 'fz-csr',
      subresources: ['approval', 'status'],
      body: { apiVersion: 'certificates.platform.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'fz-csr' }, spec: { request: csr, signerName: 'platform.io/apiserver-client', usages: ['digital signature', 'client auth'], expirationSeconds: 3600 } },
    },
    { name: 'TokenRequest', collection: `${ns}/serviceaccounts/default/token`, item: '', subresources: [], body: { apiVersion: 'authentication.platform.io/v1', kind: 'TokenRequest', spec: { audiences: ['api'], expirationSeconds: 3600, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'fz-pod' } } } },
    {
      name: 'RoleBinding',
      collection: '/apis/rbac.authorization.platform.io/v1/namespaces/default/rolebindings',
      item: 'fz-rb',
      subresources: [],
      body: { apiVersion: 'rbac.authorization.platform.io/v1', kind: 'RoleBinding', metadata: { name: 'fz-rb' }, roleRef: { apiGroup: 'rbac.authorization.platform.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.platform.io', name: 'alice' }, { kind: 'ServiceAccount', name: 'default', namespace: 'default' }] },
    },
  ];
}

/** An object with `key` as an own property, `__proto__` included (as JSON.parse makes it). */
export function withOwn(o: { [key: string]: Json }, key: string, value: Json): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  for (const k of Object.keys(o)) Object.defineProperty(out, k, { value: o[k], enumerable: true, writable: true, configurable: true });
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  return out;
}

const nested = (depth: number, leaf: Json, inArray: boolean): Json => {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = inArray ? [v] : { a: v };
  return v;
};

/** Whole numbers beyond a few dozen become small: a valid `replicas: 1478238` is work, not a test. */
function smallCounts(v: Json): Json {
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) > 50 ? v % 50 : v;
  if (Array.isArray(v)) return v.map(smallCounts);
  if (v !== null && typeof v === 'object') {
    const out: { [key: string]: Json } = {};
    for (const k of Object.keys(v)) Object.defineProperty(out, k, { value: smallCounts(v[k]!), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return v;
}

/** Values of every other type, and of sizes a decoder must refuse or survive. */
export const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(null, true, false, 0, -1, 1, 2, 0.5, -0.0, 2 ** 31, 2 ** 53, -(2 ** 63), 1e308, 1e-7, '', ' ', '0', 'true', 'null', '1Gi', '-1', '9223372036854775808', '\u0000', '\ud800', '%zz', '../..', '🦄', 'é', [], {}, [null], { '': '' }),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer({ min: 1, max: 64 * 1024 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 1, max: 2000 }).map((n) => Array.from({ length: n }, (_, i) => i)),
  fc.integer({ min: 1, max: 2000 }).map((n) => Array.from({ length: n }, () => ({ name: 'x' }))),
  fc.tuple(fc.integer({ min: 2, max: 2000 }), fc.boolean()).map(([d, inArray]) => nested(d, 'x', inArray)),
  fc.constantFrom(...prototypeNames).map((k): Json => withOwn({}, k, { polluted: true })),
  (fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>).map(smallCounts),
);

type Path = readonly (string | number)[];

function paths(v: Json, at: Path = [], out: Path[] = [], depth = 0): Path[] {
  out.push(at);
  if (depth > 8) return out;
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...at, i], out, depth + 1));
  else if (v !== null && typeof v === 'object') for (const k of Object.keys(v)) paths(v[k]!, [...at, k], out, depth + 1);
  return out;
}

function update(v: Json, at: Path, f: (old: Json) => Json | undefined): Json {
  if (at.length === 0) return f(v) ?? null;
  const [head, ...rest] = at;
  if (Array.isArray(v) && typeof head === 'number') {
    const next = update(v[head] ?? null, rest, f);
    return rest.length === 0 && f === remove ? v.filter((_, i) => i !== head) : v.map((x, i) => (i === head ? next : x));
  }
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && typeof head === 'string') {
    const out: { [key: string]: Json } = {};
    for (const k of Object.keys(v)) {
      if (k !== head) Object.defineProperty(out, k, { value: v[k], enumerable: true, writable: true, configurable: true });
      else if (rest.length > 0 || f !== remove) Object.defineProperty(out, k, { value: update(v[k]!, rest, f), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return v;
}

const remove = (): undefined => undefined;

/** JSON pointers (RFC 6901) to every value of `v`, the root included. */
export const pointers = (v: Json): string[] => paths(v).map((p) => p.map((x) => `/${String(x).replaceAll('~', '~0').replaceAll('/', '~1')}`).join(''));

export type Mutation =
  | { readonly at: number; readonly op: 'replace'; readonly value: Json }
  | { readonly at: number; readonly op: 'tweak'; readonly pick: number }
  | { readonly at: number; readonly op: 'remove' }
  | { readonly at: number; readonly op: 'addKey'; readonly key: string; readonly value: Json }
  | { readonly at: number; readonly op: 'wrap' };

/** Values of the same type, so that the body still decodes and reaches validation and the controllers. */
const sameType = {
  string: ['', 'UPPER', 'a'.repeat(254), 'a'.repeat(64), '-', '-a', 'a-', 'é', '..', '.', 'a/b', 'a b', '0', '-1', '1.5', '2147483648', '1Gi', '50%', '101%', '-50%', 'x=y', 'In', 'Exists', 'True', ...prototypeNames],
  // Counts stay small (replicas: 1e9 is valid and would make a billion pods): big ones are out of range.
  number: [-1, 0, 1, 3, 0.5, 2147483647.5, 2 ** 31, -(2 ** 31), 2 ** 63],
} as const;

function tweak(old: Json, pick: number): Json {
  if (typeof old === 'string') return sameType.string[pick % sameType.string.length]!;
  if (typeof old === 'number') return sameType.number[pick % sameType.number.length]!;
  if (typeof old === 'boolean') return !old;
  if (Array.isArray(old)) return [[], [null], [...old, ...old], old.slice(1), [...old, old[0] ?? null]][pick % 5]!;
  if (old !== null && typeof old === 'object') {
    const keys = Object.keys(old);
    return pick % 2 === 0 || keys.length === 0 ? {} : update(old, [keys[pick % keys.length]!], remove);
  }
  return null;
}

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ at: fc.nat(), op: fc.constant('tweak' as const), pick: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ at: fc.nat(), op: fc.constant('replace' as const), value: hostileValue }) },
  { weight: 2, arbitrary: fc.record({ at: fc.nat(), op: fc.constant('remove' as const) }) },
  { weight: 3, arbitrary: fc.record({ at: fc.nat(), op: fc.constant('addKey' as const), key: fc.oneof(fc.constantFrom(...prototypeNames, '$patch', '$retainKeys', '$setElementOrder/containers', '$deleteFromPrimitiveList/finalizers', 'metadata', 'spec', 'status', 'kind', 'apiVersion', ''), fc.string({ maxLength: 12 })), value: hostileValue }) },
  { weight: 1, arbitrary: fc.record({ at: fc.nat(), op: fc.constant('wrap' as const) }) },
);

/** The body with each mutation applied at one of its paths (picked by `at` modulo their number). */
export function mutate(body: Json, mutations: readonly Mutation[]): Json {
  let v = body;
  for (const m of mutations) {
    const all = paths(v);
    const at = all[m.at % all.length]!;
    if (m.op === 'replace') v = update(v, at, () => m.value);
    else if (m.op === 'tweak') v = update(v, at, (old) => tweak(old, m.pick));
    else if (m.op === 'remove') v = update(v, at, remove);
    else if (m.op === 'wrap') v = update(v, at, (old) => [old]);
    else v = update(v, at, (old) => (old !== null && typeof old === 'object' && !Array.isArray(old) ? withOwn(old, m.key, m.value) : withOwn({}, m.key, m.value)));
  }
  return v;
}
