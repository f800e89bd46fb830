/**
 * The authenticator chain: static and service-account bearer tokens, client certificates from
 * the simulation's CA (checked at virtual time), front-proxy headers behind the request-header
 * CA, anonymous requests, and the 401 body on every kind of path.
 */
import { describe, expect, it } from 'vitest';
import { createSA, sim, type Body } from '../../helpers.ts';
import { bearer, tokenFor } from './helpers.ts';

const whoami = '/apis/authentication.platform.io/v1/selfsubjectreviews';
const unauthorized = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };

async function selfReview(s: Awaited<ReturnType<typeof sim>>, extra: Record<string, unknown>) {
  return s.request({ method: 'POST', path: whoami, body: {}, ...extra });
}

describe('authentication', () => {
  it('answers 401 with the same Status on every group and on non-resource paths', async () => {
    const s = await sim();
    for (const path of ['/api/v1/namespaces/default/serviceaccounts', whoami, '/apis', '/version', '/openid/v1/jwks', '/api/v1/nothing-here']) {
      const res = await s.request({ method: 'GET', path, headers: bearer('wrong') });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(unauthorized);
    }
    const none = await s.request({ method: 'GET', path: '/api/v1/serviceaccounts', transport: 'http' });
    expect(none.status).toBe(401);
  });

  it('reads the bearer scheme case-insensitively and warns about an extra space', async () => {
    const s = await sim({ users: [{ token: 't1', user: 'alice' }] });
    const res = await selfReview(s, { headers: { authorization: 'BEARER t1' } });
    expect((res.body as Body).status.userInfo.username).toBe('alice');
    const spaced = await s.request({ method: 'GET', path: '/version', headers: { authorization: 'Bearer  t1' }, transport: 'http' });
    expect(spaced.status).toBe(401);
    expect(spaced.headers['warning']).toEqual(['299 - "the provided Authorization header contains extra space before the bearer token, and is ignored"']);
  });

  it('lets anonymous requests in when enabled, but never a bad credential', async () => {
    const s = await sim({ anonymousAuth: true });
    const anon = await s.request({ method: 'GET', path: '/version', transport: 'http' });
    expect(anon.status).toBe(200);
    const review = await s.request({ method: 'POST', path: whoami, body: {}, transport: 'http' });
    expect(review.status).toBe(403);
    expect((review.body as Body).message).toBe('selfsubjectreviews.authentication.platform.io is forbidden: User "system:anonymous" cannot create resource "selfsubjectreviews" in API group "authentication.platform.io" at the cluster scope');
    expect((await s.request({ method: 'GET', path: '/version', headers: bearer('wrong') })).status).toBe(401);
  });

  it('authenticates service-account tokens as their account', async () => {
    const s = await sim();
    await createSA(s, 'builder');
    const token = await tokenFor(s, 'builder');
    const res = await selfReview(s, { headers: bearer(token) });
    expect(res.status).toBe(201);
    expect((res.body as Body).status.userInfo).toMatchObject({
      username: 'system:serviceaccount:default:builder',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
    });
    // An audience the API server is not: the token does not log in.
    const vault = await tokenFor(s, 'builder', { audiences: ['vault'] });
    expect((await selfReview(s, { headers: bearer(vault) })).status).toBe(401);
  });

  it('authenticates client certificates from the simulation CA at virtual time', async () => {
    const s = await sim();
    const cert = await s.issueClientCertificate({ user: 'carol', groups: ['ops', 'dev'], notBefore: '2026-01-01T00:00:00Z', notAfter: '2026-01-02T00:00:00Z' });
    const res = await selfReview(s, { clientCertificate: cert.certificate });
    expect(res.status).toBe(201);
    expect((res.body as Body).status.userInfo).toEqual({
      username: 'carol',
      groups: ['ops', 'dev', 'system:authenticated'],
      extra: { 'authentication.platform.io/credential-id': [expect.stringMatching(/^X509SHA256=[0-9a-f]{64}$/)] },
    });
    await s.advance('24h');
    expect((await selfReview(s, { clientCertificate: cert.certificate })).status).toBe(201);
    await s.advance('1s');
    expect((await selfReview(s, { clientCertificate: cert.certificate })).status).toBe(401);
  });

  it('refuses certificates of other CAs unless trusted through clientCA', async () => {
    const other = await sim({ seed: 9 });
    const foreign = await other.issueClientCertificate({ user: 'mallory' });
    const s = await sim();
    expect((await selfReview(s, { clientCertificate: foreign.certificate })).status).toBe(401);
    const trusting = await sim({ clientCA: await other.caCertificate() });
    const res = await selfReview(trusting, { clientCertificate: foreign.certificate });
    expect((res.body as Body).status.userInfo.username).toBe('mallory');
  });

  it('reads front-proxy headers only behind a certificate of the request-header CA', async () => {
    const proxyCa = await sim({ seed: 'front-proxy' });
    const proxy = await proxyCa.issueClientCertificate({ user: 'front-proxy' });
    const stranger = await proxyCa.issueClientCertificate({ user: 'stranger' });
    const s = await sim({ requestHeader: { clientCA: await proxyCa.caCertificate(), allowedNames: ['front-proxy'], uidHeaders: ['X-Remote-Uid'] } });
    const headers = {
      'x-remote-user': 'dana',
      'x-remote-uid': 'u-7',
      'x-remote-group': ['one', 'two,three'],
      'X-Remote-Extra-Acme.com%2FProject': 'Foo',
      'x-remote-extra-scopes': ['a', 'b'],
    };
    const res = await selfReview(s, { clientCertificate: proxy.certificate, headers });
    expect((res.body as Body).status.userInfo).toEqual({
      username: 'dana',
      uid: 'u-7',
      groups: ['one', 'two,three', 'system:authenticated'],
      extra: { 'acme.com/project': ['Foo'], scopes: ['a', 'b'] },
    });
    // Not an allowed name, or no certificate: the headers mean nothing.
    expect((await selfReview(s, { clientCertificate: stranger.certificate, headers, transport: 'http' })).status).toBe(401);
    expect((await selfReview(s, { headers, transport: 'http' })).status).toBe(401);
  });
});
