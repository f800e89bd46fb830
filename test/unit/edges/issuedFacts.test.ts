/**
 * Issuing a certificate establishes, with it, the facts the next steps ask of it — its chain and
 * its parsed DER — with the values asking for them later would give.
 */
import { describe, expect, it } from 'vitest';
import { createFactResolver } from '../../../src/edges/crypto/factResolver.ts';
import { serviceAccountKeys } from '../../../src/edges/crypto/serviceAccountKeys.ts';
import { clusterCa, createCertificateRequest } from '../../../src/edges/crypto/clusterCa.ts';
import { factKey, type Need } from '../../../src/sim/factBook.ts';
import { bytesToBase64 } from '../../../src/core/base64.ts';

describe('facts established with an issued certificate', () => {
  it('are the chain and parsed-DER facts of that certificate, as asked for later', async () => {
    const [key] = await serviceAccountKeys('5', undefined);
    const ca = await clusterCa('5', Date.parse('2026-01-01T00:00:00Z'));
    const make = () =>
      createFactResolver([key!], () => Promise.resolve({ client: [ca.certificate], requestHeader: [] }), {
        ca: () => Promise.resolve({ certificate: ca.certificate, privateKey: ca.keys.privateKey }),
        seed: '5',
      });
    const { request } = await createCertificateRequest('5', { commonName: 'u', organizations: ['g'] });
    const issue: Need = { kind: 'issuedCertificate', issue: { request, usages: ['client auth'], notBefore: Date.parse('2026-01-01T00:00:00Z'), notAfter: Date.parse('2026-06-01T00:00:00Z'), serialSeed: 'uid-1' } };
    const resolver = make();
    await resolver.resolve([issue]);
    const issued = resolver.facts.get(factKey(issue)) as { ok: true; pem: string };
    expect(issued.ok).toBe(true);
    const body = issued.pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
    const der = bytesToBase64(Uint8Array.from(atob(body), (c) => c.charCodeAt(0)));
    const later: Need[] = [
      { kind: 'certificateChain', pem: issued.pem },
      { kind: 'parsedCertificates', der },
    ];
    for (const need of later) expect(resolver.facts.has(factKey(need))).toBe(true);
    // The same values a resolver that was never asked to issue gives when asked for them.
    const fresh = make();
    await fresh.resolve(later);
    for (const need of later) expect(resolver.facts.get(factKey(need))).toEqual(fresh.facts.get(factKey(need)));
  });
});
