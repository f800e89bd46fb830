/**
 * TokenReview: the token authenticators run at virtual time against the world. Each rule of
 * reference/identity.md §7–8: audiences, the 60 s leeway, bound objects, the service account,
 * tampering — with the real error texts in status.error.
 */
import { describe, expect, it } from 'vitest';
import { createSA, sim, type Body } from '../../helpers.ts';
import { createPod, review, reviewPath, tokenFor } from './helpers.ts';

describe('TokenReview', () => {
  it('authenticates a fresh token: the service-account user with its groups and extra', async () => {
    const s = await sim();
    const sa = (await createSA(s, 'builder')).body as Body;
    const token = await tokenFor(s, 'builder');
    const res = await s.request({ method: 'POST', path: reviewPath, body: { spec: { token } } });
    expect(res.status).toBe(201);
    const body = res.body as Body;
    expect(body.kind).toBe('TokenReview');
    expect(body.spec).toEqual({ token });
    expect(body.status).toEqual({
      authenticated: true,
      user: {
        username: 'system:serviceaccount:default:builder',
        uid: sa.metadata.uid,
        groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
        extra: { 'authentication.platform.io/credential-id': [expect.stringMatching(/^JTI=[0-9a-f-]{36}$/)] },
      },
      audiences: ['https://platform-sim.local'],
    });
  });

  it('needs a token', async () => {
    const s = await sim();
    const res = await s.request({ method: 'POST', path: reviewPath, body: { spec: {} } });
    expect(res.status).toBe(400);
    expect((res.body as Body).message).toBe('token is required for TokenReview in authentication');
  });

  it('intersects audiences in the order of the review', async () => {
    const s = await sim();
    await createSA(s, 'builder');
    const token = await tokenFor(s, 'builder', { audiences: ['a', 'b', 'c'] });
    expect((await review(s, token, ['c', 'x', 'a'])).audiences).toEqual(['c', 'a']);
    const miss = await review(s, token, ['x']);
    expect(miss).toEqual({ user: {}, error: '[invalid bearer token, token audiences ["a" "b" "c"] is invalid for the target audiences ["x"]]' });
    // No spec.audiences: the API server's audiences, which this token lacks.
    expect((await review(s, token)).error).toBe('[invalid bearer token, token audiences ["a" "b" "c"] is invalid for the target audiences ["https://platform-sim.local"]]');
  });

  it('expires with the 60 s leeway: valid at exp+60 s, not at exp+61 s', async () => {
    const s = await sim();
    await createSA(s, 'builder');
    const token = await tokenFor(s, 'builder', { expirationSeconds: 600 });
    await s.advance('660s');
    expect((await review(s, token)).authenticated).toBe(true);
    await s.advance('1s');
    expect(await review(s, token)).toEqual({ user: {}, error: '[invalid bearer token, service account token has expired]' });
  });

  it('stops validating when the bound pod goes, or comes back with a new uid', async () => {
    const s = await sim({ nodeAgent: false });
    await createSA(s, 'builder');
    const pod = (await createPod(s, 'web', { serviceAccountName: 'builder' })).body as Body;
    const token = await tokenFor(s, 'builder', { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web' } });
    const ok = await review(s, token);
    expect(ok.user.extra).toMatchObject({ 'authentication.platform.io/pod-name': ['web'], 'authentication.platform.io/pod-uid': [pod.metadata.uid] });
    await s.request({ method: 'DELETE', path: '/api/v1/namespaces/default/pods/web' });
    expect((await review(s, token)).error).toBe('[invalid bearer token, service account token has been invalidated]');
    const again = (await createPod(s, 'web', { serviceAccountName: 'builder' })).body as Body;
    expect((await review(s, token)).error).toBe(`[invalid bearer token, pod UID (${again.metadata.uid}) does not match service account pod ref claim (${pod.metadata.uid})]`);
  });

  it('keeps a terminating bound pod valid until its deletion time plus the leeway', async () => {
    const s = await sim({ nodeAgent: false });
    await createSA(s, 'builder');
    await createPod(s, 'web', { serviceAccountName: 'builder', nodeName: 'n1' });
    const token = await tokenFor(s, 'builder', { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web' } });
    await s.request({ method: 'DELETE', path: '/api/v1/namespaces/default/pods/web' });
    // Graceful deletion: deletionTimestamp is 30 s ahead; the token holds until then + 60 s.
    await s.advance('90s');
    expect((await review(s, token)).authenticated).toBe(true);
    await s.advance('1s');
    expect((await review(s, token)).error).toBe('[invalid bearer token, service account token has been invalidated]');
  });

  it('follows a bound secret', async () => {
    const s = await sim();
    await createSA(s, 'builder');
    const sec = (await s.request({ method: 'POST', path: '/api/v1/namespaces/default/secrets', body: { metadata: { name: 'sec' } } })).body as Body;
    const token = await tokenFor(s, 'builder', { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'sec' } });
    expect((await review(s, token)).user.extra).toEqual({ 'authentication.platform.io/credential-id': [expect.any(String)] });
    await s.request({ method: 'DELETE', path: '/api/v1/namespaces/default/secrets/sec' });
    expect((await review(s, token)).error).toBe('[invalid bearer token, service account token has been invalidated]');
    const again = (await s.request({ method: 'POST', path: '/api/v1/namespaces/default/secrets', body: { metadata: { name: 'sec' } } })).body as Body;
    expect((await review(s, token)).error).toBe(`[invalid bearer token, secret UID (${again.metadata.uid}) does not match service account secret ref claim (${sec.metadata.uid})]`);
  });

  it('stops validating when the service account is deleted or recreated', async () => {
    const s = await sim();
    const sa = (await createSA(s, 'builder')).body as Body;
    const token = await tokenFor(s, 'builder');
    await s.request({ method: 'DELETE', path: '/api/v1/namespaces/default/serviceaccounts/builder' });
    expect((await review(s, token)).error).toBe('[invalid bearer token, serviceaccounts "builder" not found]');
    const again = (await createSA(s, 'builder')).body as Body;
    expect((await review(s, token)).error).toBe(`[invalid bearer token, service account UID (${again.metadata.uid}) does not match claim (${sa.metadata.uid})]`);
  });

  it('rejects tampered, foreign, unsigned and truncated tokens', async () => {
    const s = await sim();
    await createSA(s, 'builder');
    const token = await tokenFor(s, 'builder');
    const [h, p, sig] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Body;
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'system:serviceaccount:default:admin' })).toString('base64url')}.${sig}`;
    expect((await review(s, tampered)).error).toBe('[invalid bearer token, go-jose/go-jose: error in cryptographic primitive]');
    const other = await sim({ seed: 2 });
    await createSA(other, 'builder');
    const foreign = await tokenFor(other, 'builder');
    expect((await review(s, foreign)).error).toBe('[invalid bearer token, invalid signature, no keys found]');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${p}.`;
    expect((await review(s, none)).error).toBe('invalid bearer token');
    expect((await review(s, token.slice(0, -10))).error).toBe('[invalid bearer token, go-jose/go-jose: error in cryptographic primitive]');
    expect((await review(s, `${h}.${p}`)).error).toBe('invalid bearer token');
    expect((await review(s, 'not-a-token')).error).toBe('invalid bearer token');
    expect(await review(s, 'not-a-token')).toEqual({ user: {}, error: 'invalid bearer token' });
  });

  it('reviews static tokens for the API audiences only', async () => {
    const s = await sim({ users: [{ token: 't-alice', user: 'alice', uid: '1001', groups: ['dev'] }] });
    expect(await review(s, 't-alice')).toEqual({ authenticated: true, user: { username: 'alice', uid: '1001', groups: ['dev', 'system:authenticated'] }, audiences: ['https://platform-sim.local'] });
    expect((await review(s, 't-alice', ['vault'])).error).toBe('invalid bearer token');
  });

  it('is forbidden to users without create on tokenreviews', async () => {
    const s = await sim();
    const res = await s.request({ method: 'POST', path: reviewPath, body: { spec: { token: 'x' } }, as: { user: 'bob' } });
    expect(res.status).toBe(403);
    expect((res.body as Body).message).toBe('tokenreviews.authentication.platform.io is forbidden: User "bob" cannot create resource "tokenreviews" in API group "authentication.platform.io" at the cluster scope');
  });
});
