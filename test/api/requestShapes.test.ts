/**
 * The shapes `sim.request` takes and gives: header names case-insensitive, names differing only
 * in case combined in order like repeated header lines, a header named like an Object.prototype
 * member an ordinary header; every JSON answer parsed, `application/*+json` included.
 */
import { describe, expect, it } from 'vitest';
import { isJsonMediaType } from '../../src/edges/simulation/bodies.ts';
import { saPath, sim, type Body } from './../helpers.ts';

const whoami = '/apis/authentication.platform.io/v1/selfsubjectreviews';

describe('sim.request headers', () => {
  it('combines names that differ only in case, in order, like repeated lines', async () => {
    const s = await sim();
    const headers = { 'Impersonate-User': 'jane', 'Impersonate-Group': 'a', 'impersonate-group': ['b', 'c'], 'IMPERSONATE-GROUP': 'd', 'impersonate-extra-Scopes': 'x', 'Impersonate-Extra-scopes': ['y'] };
    const res = await s.request({ method: 'POST', path: whoami, body: {}, headers });
    expect(res.status).toBe(201);
    expect((res.body as Body).status.userInfo).toEqual({ username: 'jane', groups: ['a', 'b', 'c', 'd', 'system:authenticated'], extra: { scopes: ['x', 'y'] } });
  });

  it('reads Content-Type, Accept and Authorization in any case', async () => {
    const s = await sim({ users: [{ token: 't1', user: 'alice' }] });
    const yaml = await s.request({ method: 'POST', path: saPath(), headers: { 'Content-Type': 'application/yaml', ACCEPT: 'application/yaml' }, body: 'metadata:\n  name: y\n' });
    expect(yaml.status).toBe(201);
    expect(yaml.headers['content-type']).toBe('application/yaml');
    expect(yaml.body).toContain('name: "y"'); // quoted, as go-yaml v2: a YAML 1.1 reader takes a bare y for true
    // An object body with a Content-Type already named (in another case) is not given a second one.
    const patched = await s.request({ method: 'PATCH', path: saPath('default', 'y'), headers: { 'Content-Type': 'application/merge-patch+json' }, body: { metadata: { labels: { a: 'b' } } } });
    expect(patched.status).toBe(200);
    const alice = await s.request({ method: 'POST', path: whoami, body: {}, headers: { AUTHORIZATION: 'Bearer t1' } });
    expect((alice.body as Body).status.userInfo.username).toBe('alice');
  });

  it('takes headers named __proto__ or constructor as ordinary headers', async () => {
    const s = await sim();
    const headers = JSON.parse('{"__proto__": ["x"], "Constructor": "y", "constructor": "z", "accept": "application/json"}') as Record<string, string>;
    const res = await s.request({ method: 'GET', path: '/version', headers });
    expect(res.status).toBe(200);
    expect((res.body as Body).gitVersion).toMatch(/^v1\.35\./);
    expect(({} as Body)['x']).toBeUndefined();
  });
});

describe('sim.request bodies', () => {
  it('parses every application/*+json answer: the JWKS document comes back parsed', async () => {
    const s = await sim();
    const jwks = await s.request({ method: 'GET', path: '/openid/v1/jwks' });
    expect(jwks.headers['content-type']).toBe('application/jwk-set+json');
    const keys = (jwks.body as Body).keys as Body[];
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ use: 'sig', alg: 'EdDSA', kty: 'OKP', crv: 'Ed25519' });
    expect(JSON.stringify(jwks.body)).toBe((await s.respond({ method: 'GET', path: '/openid/v1/jwks' })).body);
  });

  it('knows JSON media types by their type and suffix, not by a prefix', () => {
    for (const t of ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/jwk-set+json', 'application/merge-patch+json', 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList']) expect(isJsonMediaType(t)).toBe(true);
    for (const t of ['application/jsonx', 'application/yaml', 'text/json', 'application/+json', 'application/x+json/y', 'text/plain', '']) expect(isJsonMediaType(t)).toBe(false);
  });
});
