/**
 * Every status code of the request pipeline over raw HTTP, with the exact Status body the API
 * server sends: 404 (plain and Status), 405 with Allow, 406, 413, 415 for a body and for a patch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/server.ts';
import { failure } from '../helpers.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await serve({ port: 0, clock: 'manual', tls: false });
});
afterAll(async () => {
  await server.close();
});

const sa = '/api/v1/namespaces/default/serviceaccounts';
async function call(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const res = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${server.adminToken}`, ...headers }, ...(body === undefined ? {} : { body }) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

describe('status codes over HTTP', () => {
  it('404: plain text outside the API, a Status inside a served group-version', async () => {
    const plain = await call('GET', '/nowhere');
    expect(plain.status).toBe(404);
    expect(plain.text).toBe('404 page not found\n');
    const status = await call('GET', '/api/v1/things');
    expect(status.json()).toEqual(failure(404, 'NotFound', 'the server could not find the requested resource', {}));
  });

  it('405 with the Allow header', async () => {
    const res = await call('POST', '/api/v1/serviceaccounts', { 'content-type': 'application/json' }, '{}');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(res.json()).toEqual(failure(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {}));
  });

  it('406 for an Accept the server cannot satisfy', async () => {
    const res = await call('GET', sa, { accept: 'application/vnd.kubernetes.protobuf' });
    expect(res.status).toBe(406);
    expect(res.json()).toEqual(failure(406, 'NotAcceptable', 'only the following media types are accepted: application/json, application/yaml'));
  });

  it('413 above 3 MiB', async () => {
    const res = await call('POST', sa, { 'content-type': 'application/json' }, `{"x":"${'a'.repeat(3 * 1024 * 1024)}"}`);
    expect(res.status).toBe(413);
    expect(res.json()).toEqual(failure(413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728'));
  });

  it('415 for an unknown body type and for an unknown patch type', async () => {
    const body = await call('POST', sa, { 'content-type': 'text/plain' }, 'x');
    expect(body.json()).toEqual(failure(415, 'UnsupportedMediaType', 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf'));
    const patch = await call('PATCH', `${sa}/default`, { 'content-type': 'text/plain' }, '{}');
    expect(patch.json()).toEqual(failure(415, 'UnsupportedMediaType', '415: Unsupported Media Type', {}));
  });
});
