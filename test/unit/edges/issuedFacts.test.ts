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

type Ca = Awaited<ReturnType<typeof clusterCa>>;

describe('facts established with an issued certificate', () => {
  // A CA of another seed has the same subject and another key: trusting it would be a mistake.
  it.each([
    ['the signing CA trusted for clients', (ca: Ca) => ({ client: [ca.certificate], requestHeader: [] })],
    ['another CA of the same name trusted for clients, the signing CA for the front proxy', (ca: Ca, other: Ca) => ({ client: [other.certificate], requestHeader: [other.certificate, ca.certificate] })],
  ])('are the chain and parsed-DER facts of that certificate, as asked for later: %s', async (_, rootsOf) => {
    const [key] = await serviceAccountKeys('5', undefined);
    const ca = await clusterCa('5', Date.parse('2026-01-01T00:00:00Z'));
    const other = await clusterCa('6', Date.parse('2026-01-01T00:00:00Z'));
    expect(other.certificate.subject).toBe(ca.certificate.subject);
    const roots = rootsOf(ca, other);
    const make = () =>
      createFactResolver([key!], () => Promise.resolve(roots), {
        ca: () => Promise.resolve({ certificate: ca.certificate, privateKey: ca.keys.privateKey }),
        seed: '5',
      });
    const { request } = await createCertificateRequest('5', { commonName: 'u', organizations: ['g'] });
    // Extended key usages written or not (none: any usage, clientAuth true).
    for (const usages of [['client auth'], ['digital signature', 'key encipherment'], ['server auth', 'any']]) {
      const issue: Need = { kind: 'issuedCertificate', issue: { request, usages, notBefore: Date.parse('2026-01-01T00:00:00Z'), notAfter: Date.parse('2026-06-01T00:00:00Z'), serialSeed: `uid-${usages.join()}` } };
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
      expect((fresh.facts.get(factKey(later[0]!)) as { trustedBy: string[] }).trustedBy).toEqual(roots.client.includes(ca.certificate) ? ['client'] : ['requestHeader']);
    }
  });
});
