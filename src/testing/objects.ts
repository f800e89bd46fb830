/**
 * Valid bodies of the spec's kinds and the supporting ones, for create requests: every field the
 * spec lets a user set, drawn from the caller's fast-check. A body drawn here is accepted (201)
 * by the simulation and by a faithful server; the test suite holds that as a property. The
 * supporting kinds are in coreObjects.ts and authorizationObjects.ts.
 */
import type * as FastCheck from 'fast-check';
import { dnsLabel, labels, type Fc } from './arbitraries.ts';
import { configKey } from './coreObjects.ts';

type Arb<T> = FastCheck.Arbitrary<T>;
type Body = Record<string, unknown>;

/** The node agent's readiness annotation, in whole seconds. */
const readyAfter = (fc: Fc): Arb<string> => fc.integer({ min: 0, max: 30 }).map((s) => `${s}s`);

/** A StatefulSet `app: <name>` of `replicas` pods (≤ 5), with every policy the spec names. */
export function statefulSet(fc: Fc): Arb<Body> {
  return fc
    .record({
      name: dnsLabel(fc, 12),
      replicas: fc.integer({ min: 0, max: 5 }),
      podManagementPolicy: fc.constantFrom('OrderedReady', 'Parallel'),
      strategy: fc.oneof(
        fc.constant({ type: 'OnDelete' }),
        fc.record({
          type: fc.constant('RollingUpdate'),
          rollingUpdate: fc.record({ partition: fc.integer({ min: 0, max: 5 }), maxUnavailable: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constantFrom('10%', '50%', '100%')) }),
        }),
      ),
      minReadySeconds: fc.integer({ min: 0, max: 30 }),
      start: fc.integer({ min: 0, max: 3 }),
      retention: fc.record({ whenDeleted: fc.constantFrom('Retain', 'Delete'), whenScaled: fc.constantFrom('Retain', 'Delete') }),
      claims: fc.boolean(),
      readyAfter: readyAfter(fc),
      image: fc.constantFrom('nginx:1.27', 'nginx:1.28'),
    })
    .map((d) => ({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: d.name },
      spec: {
        serviceName: d.name,
        replicas: d.replicas,
        selector: { matchLabels: { app: d.name } },
        podManagementPolicy: d.podManagementPolicy,
        updateStrategy: d.strategy,
        minReadySeconds: d.minReadySeconds,
        ordinals: { start: d.start },
        persistentVolumeClaimRetentionPolicy: d.retention,
        template: {
          metadata: { labels: { app: d.name }, annotations: { 'sim.platform.io/ready-after': d.readyAfter } },
          spec: { containers: [{ name: 'app', image: d.image }] },
        },
        ...(d.claims ? { volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] } : {}),
      },
    }));
}

/** A ConfigMap with a few keys. */
export function configMap(fc: Fc): Arb<Body> {
  return fc.record({ name: dnsLabel(fc, 12), labels: labels(fc), data: fc.dictionary(configKey(fc), fc.string({ maxLength: 20 }), { maxKeys: 4 }) }).map((d) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: d.name, labels: d.labels }, data: d.data }));
}

/**
 * A TokenRequest body for `serviceaccounts/<name>/token`: audiences and a lifetime the spec allows
 * (600 s to 2³² s; the API may shorten it), unbound (bind it to a pod or secret you created).
 */
export function tokenRequest(fc: Fc): Arb<Body> {
  return fc
    .record({ audiences: fc.option(fc.uniqueArray(fc.constantFrom('https://platform-sim.local', 'vault', 'api', 'https://issuer.example'), { minLength: 1, maxLength: 3 }), { nil: undefined }), expirationSeconds: fc.option(fc.integer({ min: 600, max: 7 * 24 * 3600 }), { nil: undefined }) })
    .map((d) => ({ spec: { ...(d.audiences === undefined ? {} : { audiences: d.audiences }), ...(d.expirationSeconds === undefined ? {} : { expirationSeconds: d.expirationSeconds }) } }));
}

/**
 * A CertificateSigningRequest for one of `requests` (base64 PEM PKCS#10 requests, e.g. from
 * `sim.createCertificateRequest` — a key cannot be made inside an arbitrary), with a signer and
 * usages it accepts and a lifetime of at least 600 s.
 */
export function certificateSigningRequest(fc: Fc, requests: readonly string[], groupDomain: 'platform.io' | 'k8s.io' = 'platform.io'): Arb<Body> {
  const signers = groupDomain === 'k8s.io' ? ['kubernetes.io/kube-apiserver-client', 'example.com/custom'] : ['platform.io/apiserver-client', 'example.com/custom'];
  return fc
    .record({ name: dnsLabel(fc, 12), request: fc.constantFrom(...requests), signerName: fc.constantFrom(...signers), expirationSeconds: fc.option(fc.integer({ min: 600, max: 86_400 }), { nil: undefined }) })
    .map((d) => ({
      apiVersion: `certificates.${groupDomain === 'k8s.io' ? 'k8s.io' : 'platform.io'}/v1`,
      kind: 'CertificateSigningRequest',
      metadata: { name: d.name },
      spec: { request: d.request, signerName: d.signerName, usages: ['digital signature', 'client auth'], ...(d.expirationSeconds === undefined ? {} : { expirationSeconds: d.expirationSeconds }) },
    }));
}

/**
 * A ClusterTrustBundle of some of `caPems` (CA certificates in PEM, e.g. `await sim.caCertificate()`),
 * unlinked or linked to a signer `example.com/<name>` (then named with the signer's prefix).
 */
export function clusterTrustBundle(fc: Fc, caPems: readonly string[]): Arb<Body> {
  return fc
    .record({ suffix: dnsLabel(fc, 10), signer: fc.option(dnsLabel(fc, 10), { nil: undefined }), pems: fc.uniqueArray(fc.constantFrom(...caPems), { minLength: 1, maxLength: caPems.length }) })
    .map((d) => ({
      apiVersion: 'certificates.platform.io/v1beta1',
      kind: 'ClusterTrustBundle',
      metadata: { name: d.signer === undefined ? d.suffix : `example.com:${d.signer}:${d.suffix}` },
      spec: { ...(d.signer === undefined ? {} : { signerName: `example.com/${d.signer}` }), trustBundle: d.pems.map((p) => (p.endsWith('\n') ? p : `${p}\n`)).join('') },
    }));
}
