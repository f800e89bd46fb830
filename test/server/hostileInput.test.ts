/**
 * Fuzzing defects over raw HTTP: bodies nested thousands deep are 400s and the server keeps
 * answering; identity extra keys named like Object.prototype members are ordinary keys; aggregated
 * discovery's ETag and 304 reach the client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await serve({ port: 0, clock: 'manual', tls: false, users: [{ token: 'proto-token', user: '__proto__', uid: 'constructor', groups: ['toString'] }] });
});
afterAll(async () => {
  await server.close();
});

async function call(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const res = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${server.adminToken}`, ...headers }, ...(body === undefined ? {} : { body }) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text };
}
const sa = '/api/v1/namespaces/default/serviceaccounts';
const whoami = '/apis/authentication.platform.io/v1/selfsubjectreviews';

describe('hostile input over HTTP', () => {
  it('refuses YAML and JSON bodies nested thousands deep with a 400 and keeps serving', async () => {
    const bodies: [string, string][] = [
      ['application/yaml', '['.repeat(100_000)],
      ['application/yaml', Array.from({ length: 1700 }, (_, i) => `${' '.repeat(2 * i)}a:`).join('\n')],
      ['application/json', '['.repeat(100_000)],
    ];
    for (const [type, body] of bodies) {
      const res = await call('POST', sa, { 'content-type': type }, body);
      expect(res.status).toBe(400);
      const status = JSON.parse(res.text) as { reason: string; message: string };
      expect(status.reason).toBe('BadRequest');
      expect(status.message).toContain('exceeded max depth of 100');
    }
    const apply = await call('PATCH', `${sa}/x?fieldManager=m`, { 'content-type': 'application/apply-patch+yaml' }, '{a: '.repeat(100_000));
    expect(JSON.parse(apply.text)).toMatchObject({ code: 400, message: 'error decoding patch: error converting YAML to JSON: exceeded max depth of 100' });
    expect((await call('GET', '/version')).status).toBe(200);
  });

  it('echoes impersonated extras named constructor and __proto__, and a static user named __proto__', async () => {
    const res = await call('POST', whoami, { 'content-type': 'application/json', 'impersonate-user': 'jane', 'Impersonate-Extra-constructor': 'x', 'Impersonate-Extra-__proto__': 'y' }, '{}');
    expect(res.status).toBe(201);
    expect(res.text).toContain('"extra":{"__proto__":["y"],"constructor":["x"]}');
    const proto = await fetch(`${server.url}${whoami}`, { method: 'POST', headers: { authorization: 'Bearer proto-token', 'content-type': 'application/json' }, body: '{}' });
    expect(proto.status).toBe(201);
    expect(await proto.text()).toContain('"userInfo":{"username":"__proto__","uid":"constructor","groups":["toString","system:authenticated"]}');
  });

  it('sends aggregated discovery with its ETag and answers If-None-Match with 304 and no body', async () => {
    const accept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';
    const first = await call('GET', '/apis', { accept });
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[0-9A-F]{128}"$/);
    const cached = await call('GET', '/apis', { accept, 'if-none-match': etag! });
    expect(cached.status).toBe(304);
    expect(cached.text).toBe('');
    expect(cached.headers.get('etag')).toBe(etag);
  });
});
