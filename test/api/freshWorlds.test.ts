/**
 * Fresh simulations of one seed and settings start from one shared, immutable world and share
 * their key material, and stay independent: what one does is not seen by another.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation } from '../../src/index.ts';

const accounts = '/api/v1/namespaces/default/serviceaccounts';

describe('fresh worlds', () => {
  it('share the starting world of a seed, and nothing written after it', async () => {
    const a = await createSimulation({ seed: 7 });
    const b = await createSimulation({ seed: 7 });
    const c = await createSimulation({ seed: 8 });
    expect(a.world).toBe(b.world);
    expect(a.world).not.toBe(c.world);
    expect(await a.caCertificate()).toBe(await b.caCertificate());
    expect(await a.caCertificate()).not.toBe(await c.caCertificate());
    expect((await a.request({ method: 'POST', path: accounts, body: { metadata: { name: 'only-in-a' } } })).status).toBe(201);
    expect((await b.request({ method: 'GET', path: `${accounts}/only-in-a` })).status).toBe(404);
    expect(a.hash()).not.toBe(b.hash());
    // The same requests on another fresh one give the same world as on the first.
    const d = await createSimulation({ seed: 7 });
    await d.request({ method: 'POST', path: accounts, body: { metadata: { name: 'only-in-a' } } });
    expect(d.hash()).toBe(a.hash());
  });

  it('differ by every setting that makes the world', async () => {
    const base = await createSimulation({ seed: 7 });
    expect((await createSimulation({ seed: 7, startTime: '2026-01-01T00:00:00Z' })).world).not.toBe(base.world);
    expect((await createSimulation({ seed: 7, groupDomain: 'k8s.io' })).world).not.toBe(base.world);
    expect((await createSimulation({ seed: 7, podReadyAfter: '1s' })).world).not.toBe(base.world);
    expect((await createSimulation({ seed: 7, settle: 'manual' })).world).toBe(base.world);
  });
});

describe('the seeded CA, made on first use', () => {
  it('expires when the signers were told it would, to the second', async () => {
    const { seededCaNotAfter } = await import('../../src/edges/crypto/caValidity.ts');
    const { clusterCa } = await import('../../src/edges/crypto/clusterCa.ts');
    for (const start of [Date.parse('2026-01-01T00:00:00Z'), Date.parse('2026-01-01T00:00:00.750Z')]) {
      expect(seededCaNotAfter(start)).toBe((await clusterCa('9', start)).certificate.notAfter.getTime());
    }
  });
});
