/**
 * Identity extra keys, user names and groups that name Object.prototype members (`constructor`,
 * `__proto__`, `toString`) are ordinary strings on every path that builds an identity:
 * impersonation headers, front-proxy headers, static token users, the `as` identity of
 * `sim.request`. Never a 500, never a throw; SelfSubjectReview and a CSR echo them as sent.
 */
import { describe, expect, it } from 'vitest';
import { bytesToBase64, utf8Encode } from '../../../src/core/base64.ts';
import { parseTokenAuthCsv } from '../../../src/edges/fs/tokenAuthFile.ts';
import { x509 } from '../../../src/edges/crypto/x509.ts';
import { sim, type Body } from '../../helpers.ts';

const whoami = '/apis/authentication.platform.io/v1/selfsubjectreviews';
const prototypeKeys = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

async function userInfo(s: Awaited<ReturnType<typeof sim>>, extra: Record<string, unknown>): Promise<Body> {
  const res = await s.request({ method: 'POST', path: whoami, body: {}, ...extra });
  expect(res.status).toBe(201);
  return (res.body as Body).status.userInfo as Body;
}

/** `{ [key]: values }` with the key as an own property, even `__proto__`. */
function own(key: string, values: string[]): Record<string, string[]> {
  return JSON.parse(JSON.stringify({ [key === '__proto__' ? '\u0000' : key]: values }).replace('"\\u0000"', JSON.stringify(key))) as Record<string, string[]>;
}

describe('Object.prototype names in identities', () => {
  it('impersonation: Impersonate-Extra-<key> for every such key, alone and repeated in any case', async () => {
    const s = await sim();
    for (const key of prototypeKeys) {
      const headers = { 'impersonate-user': 'jane', [`Impersonate-Extra-${key}`]: 'x', [`impersonate-extra-${key.toLowerCase()}`]: ['y'] };
      // Names differing only in case are two lines of one header: one key, values in order.
      expect(await userInfo(s, { headers })).toEqual({ username: 'jane', groups: ['system:authenticated'], extra: own(key.toLowerCase(), ['x', 'y']) });
    }
    const all = await userInfo(s, { headers: { 'impersonate-user': 'jane', 'impersonate-group': ['constructor', '__proto__'], 'impersonate-extra-constructor': 'a', 'impersonate-extra-__proto__': 'b' } });
    expect(all).toEqual({ username: 'jane', groups: ['constructor', '__proto__', 'system:authenticated'], extra: { ...own('__proto__', ['b']), constructor: ['a'] } });
    expect(Object.keys(all.extra)).toEqual(['__proto__', 'constructor']);
  });

  it('impersonation: the 403 and the "without a user" 400 name such keys plainly', async () => {
    const s = await sim();
    const denied = await s.request({ method: 'POST', path: whoami, body: {}, as: { user: 'bob' }, headers: { 'impersonate-user': 'jane', 'impersonate-extra-constructor': 'x' } });
    expect(denied.status).toBe(403);
    const noUser = await s.request({ method: 'POST', path: whoami, body: {}, headers: { 'impersonate-extra-__proto__': 'x', 'impersonate-extra-constructor': 'y' } });
    expect(noUser.status).toBe(400);
    expect((noUser.body as Body).message).toBe('requested [extra __proto__ extra constructor] without impersonating a user');
  });

  it('front proxy: X-Remote-Extra-<key> for every such key', async () => {
    const proxyCa = await sim({ seed: 'front-proxy' });
    const proxy = await proxyCa.issueClientCertificate({ user: 'front-proxy' });
    const s = await sim({ requestHeader: { clientCA: await proxyCa.caCertificate(), allowedNames: ['front-proxy'] } });
    for (const key of prototypeKeys) {
      const headers = { 'x-remote-user': 'dana', 'x-remote-group': key, [`X-Remote-Extra-${key}`]: 'y', [`x-remote-extra-${key.toLowerCase()}`]: 'z' };
      expect(await userInfo(s, { clientCertificate: proxy.certificate, headers })).toEqual({ username: 'dana', groups: [key, 'system:authenticated'], extra: own(key.toLowerCase(), ['y', 'z']) });
    }
  });

  it('static token users named like prototype members, from a token file', async () => {
    const parsed = parseTokenAuthCsv('t1,constructor,__proto__,"__proto__,constructor,toString"\nt2,__proto__\n');
    const s = await sim({ users: parsed.ok ? parsed.users : [] });
    expect(await userInfo(s, { headers: { authorization: 'Bearer t1' } })).toEqual({ username: 'constructor', uid: '__proto__', groups: ['__proto__', 'constructor', 'toString', 'system:authenticated'] });
    expect(await userInfo(s, { headers: { authorization: 'Bearer t2' } })).toEqual({ username: '__proto__', groups: ['system:authenticated'] });
    // Authorization treats them as any other user: a 403 naming them, no 500.
    const list = await s.request({ method: 'GET', path: '/api/v1/namespaces/default/serviceaccounts', headers: { authorization: 'Bearer t1' } });
    expect(list.status).toBe(403);
    expect((list.body as Body).message).toBe('serviceaccounts is forbidden: User "constructor" cannot list resource "serviceaccounts" in API group "" in the namespace "default"');
  });

  it('the `as` identity: own keys only, values as sent; SelfSubjectReview echoes them', async () => {
    const s = await sim();
    for (const key of prototypeKeys) {
      expect(await userInfo(s, { as: { user: 'u', extra: own(key, ['x']) } })).toEqual({ username: 'u', groups: ['system:authenticated'], extra: own(key, ['x']) });
    }
    // A literal `{ constructor: [...] }` is an own key; inherited members are no keys at all.
    expect(await userInfo(s, { as: { user: 'u', extra: { constructor: ['x'] } } })).toEqual({ username: 'u', groups: ['system:authenticated'], extra: { constructor: ['x'] } });
    expect(await userInfo(s, { as: { user: 'u', extra: Object.create({ inherited: ['x'] }) as Record<string, string[]> } })).toEqual({ username: 'u', groups: ['system:authenticated'] });
    // Whatever a JavaScript caller puts in the values: no throw, one string is one value.
    const loose = { constructor: undefined, toString: 'one' } as unknown as Record<string, string[]>;
    expect(await userInfo(s, { as: { user: 'u', extra: loose } })).toEqual({ username: 'u', groups: ['system:authenticated'], extra: { constructor: [], toString: ['one'] } });
    // The synchronous form never throws either.
    expect(s.requestSync({ method: 'POST', path: whoami, body: {}, as: { user: 'u', extra: own('__proto__', ['y']) } }).status).toBe(201);
  });

  it('a CSR records such extra keys in spec.extra', async () => {
    const s = await sim();
    const keys = (await globalThis.crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
    const pem = (await x509.Pkcs10CertificateRequestGenerator.create({ name: 'CN=jane', keys, signingAlgorithm: { name: 'Ed25519' } })).toString('pem');
    const res = await s.request({
      method: 'POST',
      path: '/apis/certificates.platform.io/v1/certificatesigningrequests',
      body: { metadata: { name: 'c' }, spec: { request: bytesToBase64(utf8Encode(pem)), signerName: 'example.com/signer', usages: ['client auth'] } },
      headers: { 'impersonate-user': 'jane', 'impersonate-group': 'system:masters', 'impersonate-extra-constructor': 'a', 'impersonate-extra-__proto__': 'b' },
    });
    expect(res.status).toBe(201);
    expect((res.body as Body).spec.extra).toEqual({ ...own('__proto__', ['b']), constructor: ['a'] });
  });
});
