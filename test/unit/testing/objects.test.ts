/**
 * The kit's arbitraries hold their promise against the simulation: every valid body is created
 * (201), every near-valid one is refused with 422 and a cause for the named field and reason, and
 * a refusal changes nothing (the same world digest).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSimulation, type Simulation } from '../../../src/index.ts';
import { certificateSigningRequest, clusterTrustBundle, configMap, statefulSet, tokenRequest } from '../../../src/testing/objects.ts';
import { rejectedCertificateSigningRequest, rejectedConfigMap, rejectedServiceAccount, rejectedStatefulSet, rejectedTokenRequest, rejectedClusterTrustBundle, type Rejected } from '../../../src/testing/rejections.ts';

type Body = Record<string, any>;

const paths = {
  StatefulSet: '/apis/apps/v1/namespaces/default/statefulsets',
  ConfigMap: '/api/v1/namespaces/default/configmaps',
  ServiceAccount: '/api/v1/namespaces/default/serviceaccounts',
  CertificateSigningRequest: '/apis/certificates.platform.io/v1/certificatesigningrequests',
  ClusterTrustBundle: '/apis/certificates.platform.io/v1beta1/clustertrustbundles',
} as const;
const tokenPath = '/api/v1/namespaces/default/serviceaccounts/default/token';
const pathOf = (body: Body): string => (body['spec'] !== undefined && body['kind'] === undefined ? tokenPath : paths[(body['kind'] ?? 'ServiceAccount') as keyof typeof paths]);

const fresh = (): Promise<Simulation> => createSimulation({ seed: 1, startTime: '2026-01-01T00:00:00Z', checkInvariants: true });

let requests: string[] | undefined;
/** Two real PKCS#10 requests (made once: keys cannot be made inside an arbitrary). */
async function csrRequests(): Promise<string[]> {
  if (requests !== undefined) return requests;
  const s = await fresh();
  const made = await Promise.all(['alice', 'bob'].map((cn) => s.createCertificateRequest({ commonName: cn, organizations: ['dev'] })));
  requests = made.map((m) => btoa(m.request));
  return requests;
}

async function acceptsValid(arb: fc.Arbitrary<Body>): Promise<void> {
  await fc.assert(
    fc.asyncProperty(arb, async (body) => {
      const s = await fresh();
      const res = await s.request({ method: 'POST', path: pathOf(body), body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }),
    { numRuns: 40 },
  );
}

async function refusesNearValid(arb: fc.Arbitrary<Rejected>): Promise<void> {
  await fc.assert(
    fc.asyncProperty(arb, async (r) => {
      const s = await fresh();
      const before = s.hash();
      const res = await s.request({ method: 'POST', path: pathOf(r.body), body: r.body });
      expect(res.status, `${r.mistake}: ${JSON.stringify(res.body)}`).toBe(422);
      const causes = ((res.body as Body).details?.causes ?? []) as { field: string; reason: string }[];
      expect(causes, r.mistake).toContainEqual(expect.objectContaining({ field: r.field, reason: r.reason }));
      expect(s.hash()).toBe(before);
    }),
    { numRuns: 60 },
  );
}

let cas: string[] | undefined;
/** CA certificates of two seeds: bundles take real CA PEMs. */
async function caPems(): Promise<string[]> {
  cas ??= await Promise.all([1, 2].map(async (seed) => (await createSimulation({ seed })).caCertificate()));
  return cas;
}

describe('valid bodies are created', () => {
  it('ClusterTrustBundle', async () => acceptsValid(clusterTrustBundle(fc, await caPems())));
  it('StatefulSet', () => acceptsValid(statefulSet(fc)));
  it('ConfigMap', () => acceptsValid(configMap(fc)));
  it('TokenRequest', () => acceptsValid(tokenRequest(fc)));
  it('CertificateSigningRequest', async () => acceptsValid(certificateSigningRequest(fc, await csrRequests())));
});

describe('near-valid bodies are refused for the named reason and change nothing', () => {
  it('StatefulSet', () => refusesNearValid(rejectedStatefulSet(fc)));
  it('ConfigMap', () => refusesNearValid(rejectedConfigMap(fc)));
  it('ServiceAccount', () => refusesNearValid(rejectedServiceAccount(fc)));
  it('TokenRequest', () => refusesNearValid(rejectedTokenRequest(fc)));
  it('CertificateSigningRequest', async () => refusesNearValid(rejectedCertificateSigningRequest(fc, await csrRequests())));
  it('ClusterTrustBundle', async () => refusesNearValid(rejectedClusterTrustBundle(fc, await caPems())));
});
