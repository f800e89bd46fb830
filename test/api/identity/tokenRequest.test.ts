/**
 * TokenRequest (serviceaccounts/<name>/token): defaults, the real claims layout, validation and
 * the bound-object rules, in the order and wording of the real handler.
 */
import { describe, expect, it } from 'vitest';
import { createSA, sim, type Body } from '../../helpers.ts';
import { claimsOf, createPod, headerOf, requestToken, tokenPath } from './helpers.ts';

describe('TokenRequest', () => {
  it('issues a token with the defaults and the real claims layout', async () => {
    const s = await sim();
    const sa = (await createSA(s, 'builder')).body as Body;
    const res = await requestToken(s, 'builder');
    expect(res.status).toBe(201);
    const tr = res.body as Body;
    expect(tr.kind).toBe('TokenRequest');
    expect(tr.apiVersion).toBe('authentication.platform.io/v1');
    expect(tr.metadata).toEqual({ name: 'builder', namespace: 'default', uid: sa.metadata.uid, creationTimestamp: '2026-01-01T00:00:00Z' });
    expect(tr.spec).toEqual({ audiences: ['https://platform-sim.local'], expirationSeconds: 3600 });
    expect(tr.status.expirationTimestamp).toBe('2026-01-01T01:00:00Z');
    const token = tr.status.token as string;
    expect(headerOf(token)).toEqual({ alg: 'EdDSA', kid: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    const iat = Date.parse('2026-01-01T00:00:00Z') / 1000;
    const claims = claimsOf(token);
    expect(Object.keys(claims)).toEqual(['aud', 'exp', 'iat', 'iss', 'jti', 'nbf', 'platform.io', 'sub']);
    expect(claims).toEqual({
      aud: ['https://platform-sim.local'],
      exp: iat + 3600,
      iat,
      iss: 'https://platform-sim.local',
      jti: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      nbf: iat,
      'platform.io': { namespace: 'default', serviceaccount: { name: 'builder', uid: sa.metadata.uid } },
      sub: 'system:serviceaccount:default:builder',
    });
  });

  it('uses the kubernetes.io private claim in k8s.io mode', async () => {
    const s = await sim({ groupDomain: 'k8s.io' });
    await createSA(s, 'builder');
    const res = await s.request({ method: 'POST', path: tokenPath('builder'), body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} } });
    expect(res.status).toBe(201);
    expect(claimsOf((res.body as Body).status.token)['kubernetes.io'].namespace).toBe('default');
  });

  it('keeps the requested audiences and lifetime', async () => {
    const s = await sim();
    await createSA(s, 'builder');
    const tr = (await requestToken(s, 'builder', { audiences: ['vault', 'api'], expirationSeconds: 600 })).body as Body;
    expect(tr.spec).toEqual({ audiences: ['vault', 'api'], expirationSeconds: 600 });
    expect(claimsOf(tr.status.token).aud).toEqual(['vault', 'api']);
    expect(tr.status.expirationTimestamp).toBe('2026-01-01T00:10:00Z');
  });

  it('validates expirationSeconds: at least 10 minutes, at most 2^32 seconds', async () => {
    const s = await sim();
    await createSA(s, 'builder');
    const short = await requestToken(s, 'builder', { expirationSeconds: 599 });
    expect(short.status).toBe(422);
    expect(short.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'TokenRequest.authentication.platform.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
      reason: 'Invalid',
      details: { group: 'authentication.platform.io', kind: 'TokenRequest', causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: 599: may not specify a duration less than 10 minutes', field: 'spec.expirationSeconds' }] },
      code: 422,
    });
    expect((await requestToken(s, 'builder', { expirationSeconds: 600 })).status).toBe(201);
    expect((await requestToken(s, 'builder', { expirationSeconds: 2 ** 32 })).status).toBe(201);
    const long = await requestToken(s, 'builder', { expirationSeconds: 2 ** 32 + 1 });
    expect((long.body as Body).message).toBe('TokenRequest.authentication.platform.io "" is invalid: spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds');
  });

  it('answers 404 for a missing ServiceAccount before validating the body', async () => {
    const s = await sim();
    const res = await requestToken(s, 'ghost', { expirationSeconds: 1 });
    expect(res.status).toBe(404);
    expect((res.body as Body).message).toBe('serviceaccounts "ghost" not found');
  });

  it('checks the body name, namespace and uid against the URL and the account', async () => {
    const s = await sim();
    const sa = (await createSA(s, 'builder')).body as Body;
    const name = await s.request({ method: 'POST', path: tokenPath('builder'), body: { metadata: { name: 'other' }, spec: {} } });
    expect(name.status).toBe(422);
    expect((name.body as Body).message).toBe('TokenRequest.authentication.platform.io "builder" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified');
    const ns = await s.request({ method: 'POST', path: tokenPath('builder'), body: { metadata: { namespace: 'elsewhere' }, spec: {} } });
    expect(ns.status).toBe(400);
    expect((ns.body as Body).message).toBe('the namespace of the provided object does not match the namespace sent on the request');
    const uid = await s.request({ method: 'POST', path: tokenPath('builder'), body: { metadata: { uid: 'not-it' }, spec: {} } });
    expect(uid.status).toBe(409);
    expect(uid.body).toMatchObject({
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on TokenRequest.authentication.platform.io "builder": the UID in the token request (not-it) does not match the UID of the service account (${sa.metadata.uid})`,
      details: { name: 'builder', group: 'authentication.platform.io', kind: 'TokenRequest' },
    });
    expect((await s.request({ method: 'POST', path: tokenPath('builder'), body: { metadata: { name: 'builder', uid: sa.metadata.uid }, spec: {} } })).status).toBe(201);
  });

  it('binds to a Pod: name, uid and its node in the claims', async () => {
    const s = await sim({ nodeAgent: false });
    await createSA(s, 'builder');
    const pod = (await createPod(s, 'web', { serviceAccountName: 'builder', nodeName: 'node-a' })).body as Body;
    const tr = (await requestToken(s, 'builder', { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web' } })).body as Body;
    expect(tr.spec.boundObjectRef).toEqual({ kind: 'Pod', apiVersion: 'v1', name: 'web' });
    const priv = claimsOf(tr.status.token)['platform.io'];
    expect(priv.pod).toEqual({ name: 'web', uid: pod.metadata.uid });
    // The Node object does not exist: only its name is recorded.
    expect(priv.node).toEqual({ name: 'node-a' });
  });

  it('refuses bound objects that do not fit', async () => {
    const s = await sim({ nodeAgent: false });
    await createSA(s, 'builder');
    await createPod(s, 'web');
    const other = await requestToken(s, 'builder', { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web' } });
    expect(other.status).toBe(400);
    expect((other.body as Body).message).toBe('cannot bind token for serviceaccount "builder" to pod running with different serviceaccount name.');
    const missing = await requestToken(s, 'builder', { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'nope' } });
    expect(missing.status).toBe(404);
    expect((missing.body as Body).message).toBe('secrets "nope" not found');
    const kind = await requestToken(s, 'builder', { boundObjectRef: { kind: 'ConfigMap', apiVersion: 'v1', name: 'x' } });
    expect(kind.status).toBe(400);
    expect((kind.body as Body).message).toBe('cannot bind token to object of type /v1, Kind=ConfigMap');
    const node = await requestToken(s, 'builder', { boundObjectRef: { kind: 'Node', apiVersion: 'v1', name: 'n' } });
    expect((node.body as Body).message).toBe('cannot bind token to object of type /v1, Kind=Node');
    const group = await requestToken(s, 'builder', { boundObjectRef: { kind: 'Pod', apiVersion: 'apps/v1', name: 'web' } });
    expect((group.body as Body).message).toBe('cannot bind token to object of type apps/v1, Kind=Pod');
    await s.request({ method: 'POST', path: '/api/v1/namespaces/default/secrets', body: { metadata: { name: 'sec' } } });
    const uid = await requestToken(s, 'builder', { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'sec', uid: 'old' } });
    expect(uid.status).toBe(409);
    expect(uid.body).toMatchObject({
      message: 'Operation cannot be fulfilled on Secret "sec": the UID in the bound object reference (old) does not match the UID in record. The object might have been deleted and then recreated',
      details: { name: 'sec', kind: 'Secret' },
    });
  });

  it('shortens a request above the server maximum, with a warning', async () => {
    const s = await sim({ serviceAccountMaxTokenExpiration: '1h' });
    await createSA(s, 'builder');
    const res = await requestToken(s, 'builder', { expirationSeconds: 7200 });
    expect(res.status).toBe(201);
    expect(res.headers['warning']).toEqual(['299 - "requested expiration of 7200 seconds shortened to 3600 seconds"']);
    expect((res.body as Body).spec.expirationSeconds).toBe(3600);
    const c = claimsOf((res.body as Body).status.token);
    expect(c.exp - c.iat).toBe(3600);
  });

  it('extends 3607-second pod-bound API tokens to a year with warnafter', async () => {
    const s = await sim({ nodeAgent: false });
    await createSA(s, 'builder');
    await createPod(s, 'web', { serviceAccountName: 'builder' });
    const tr = (await requestToken(s, 'builder', { expirationSeconds: 3607, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web' } })).body as Body;
    const c = claimsOf(tr.status.token);
    expect(c.exp - c.iat).toBe(365 * 24 * 3600);
    expect(c['platform.io'].warnafter).toBe(c.iat + 3607);
    expect(tr.status.expirationTimestamp).toBe('2026-01-01T01:00:07Z');
    const other = claimsOf(((await requestToken(s, 'builder', { expirationSeconds: 3607, audiences: ['vault'], boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web' } })).body as Body).status.token);
    expect(other.exp - other.iat).toBe(3607);
    const noExtend = await sim({ nodeAgent: false, serviceAccountExtendTokenExpiration: false });
    await createSA(noExtend, 'builder');
    await createPod(noExtend, 'web', { serviceAccountName: 'builder' });
    const plain = claimsOf(((await requestToken(noExtend, 'builder', { expirationSeconds: 3607, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web' } })).body as Body).status.token);
    expect(plain.exp - plain.iat).toBe(3607);
  });

  it('is deterministic: same seed, same token bytes', async () => {
    const run = async () => {
      const s = await sim();
      await createSA(s, 'builder');
      return ((await requestToken(s, 'builder')).body as Body).status.token as string;
    };
    expect(await run()).toBe(await run());
  });

  it('refuses a body that is not a TokenRequest', async () => {
    const s = await sim();
    await createSA(s, 'builder');
    const res = await s.request({ method: 'POST', path: tokenPath('builder'), body: { apiVersion: 'v1', kind: 'ServiceAccount' } });
    expect(res.status).toBe(400);
    const strict = await s.request({ method: 'POST', path: `${tokenPath('builder')}?fieldValidation=Strict`, body: { spec: { audience: ['x'] } } });
    expect(strict.status).toBe(400);
    expect((strict.body as Body).message).toContain('unknown field "spec.audience"');
  });
});

describe('TokenRequest under concurrency', () => {
  it('gives concurrent requests distinct tokens and loses no write', async () => {
    const s = await sim();
    await createSA(s, 'builder');
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? requestToken(s, 'builder') : createSA(s, `sa-${i}`))));
    const tokens = results.filter((_, i) => i % 2 === 0).map((r) => (r.body as Body).status.token as string);
    expect(new Set(tokens.map((t) => claimsOf(t).jti)).size).toBe(10);
    const list = (await s.request({ method: 'GET', path: '/api/v1/namespaces/default/serviceaccounts' })).body as Body;
    expect(list.items.length).toBe(12);
    for (const t of tokens) expect((await s.request({ method: 'POST', path: '/apis/authentication.platform.io/v1/tokenreviews', body: { spec: { token: t } } })).body).toMatchObject({ status: { authenticated: true } });
  });
});
