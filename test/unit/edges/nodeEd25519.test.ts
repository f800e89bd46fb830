/**
 * The synchronous Ed25519 path gives exactly the tokens jose writes (Ed25519 is deterministic),
 * and verifies exactly what jose verifies.
 */
import { CompactSign, compactVerify, exportJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { createFactResolver } from '../../../src/edges/crypto/factResolver.ts';
import { serviceAccountKeys } from '../../../src/edges/crypto/serviceAccountKeys.ts';
import { clusterCa } from '../../../src/edges/crypto/clusterCa.ts';
import { factKey } from '../../../src/sim/factBook.ts';
import { seededEd25519Keys } from '../../../src/edges/crypto/webKeys.ts';

const signing = async () => {
  const ca = await clusterCa('7', 0);
  return { ca: () => Promise.resolve({ certificate: ca.certificate, privateKey: ca.keys.privateKey }), seed: '7' };
};

const claims = '{"aud":["https://platform-sim.local"],"exp":1767229200,"sub":"system:serviceaccount:default:a"}';

describe('fast Ed25519', () => {
  it('signs the same bytes as jose', async () => {
    const [key] = await serviceAccountKeys('7', undefined);
    expect(key!.fast).toBeDefined();
    const resolver = createFactResolver([key!], () => Promise.resolve({ client: [], requestHeader: [] }), await signing());
    await resolver.resolve([{ kind: 'serviceAccountToken', claims }]);
    const fast = resolver.facts.get(factKey({ kind: 'serviceAccountToken', claims })) as string;
    const jose = await new CompactSign(new TextEncoder().encode(claims)).setProtectedHeader({ alg: 'EdDSA', kid: key!.kid }).sign((await key!.cryptoKeys()).privateKey);
    expect(fast).toBe(jose);
    await expect(compactVerify(fast, (await key!.cryptoKeys()).publicKey)).resolves.toBeDefined();
  });

  it('verifies what jose verifies and nothing else', async () => {
    const [key] = await serviceAccountKeys('7', undefined);
    const resolver = createFactResolver([key!], () => Promise.resolve({ client: [], requestHeader: [] }), await signing());
    const jose = await new CompactSign(new TextEncoder().encode(claims)).setProtectedHeader({ alg: 'EdDSA', kid: key!.kid }).sign((await key!.cryptoKeys()).privateKey);
    const [h, p, s] = jose.split('.') as [string, string, string];
    const crit = `${Buffer.from(JSON.stringify({ alg: 'EdDSA', kid: key!.kid, crit: ['x'] })).toString('base64url')}.${p}.${s}`;
    const cases: [string, string][] = [
      [jose, 'valid'],
      [`${h}.${p}.${s.slice(0, 10)}${s[10] === 'A' ? 'B' : 'A'}${s.slice(11)}`, 'invalid'],
      [`${h}.${p}.${s}!`, 'invalid'],
      [`${h}.${Buffer.from('{"sub":"x"}').toString('base64url')}.${s}`, 'invalid'],
      [crit, 'invalid'],
    ];
    await resolver.resolve(cases.map(([token]) => ({ kind: 'jwsSignature', token })));
    for (const [token, expected] of cases) expect([token, resolver.facts.get(factKey({ kind: "jwsSignature", token }))]).toEqual([token, expected]);
  });

  it('names the key as WebCrypto would: the same kid and the same JWK, members in the same order', async () => {
    const [key] = await serviceAccountKeys('7', undefined);
    const web = await seededEd25519Keys('7', 'service-account-signing');
    const spki = await crypto.subtle.exportKey('spki', web.publicKey);
    expect(key!.kid).toBe(Buffer.from(await crypto.subtle.digest('SHA-256', spki)).toString('base64url'));
    expect(JSON.stringify(key!.jwk)).toBe(JSON.stringify(await exportJWK(web.publicKey)));
  });
});

