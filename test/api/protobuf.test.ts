/**
 * Protobuf request bodies through the API (kubectl's typed commands send them): the same result
 * as the JSON body, and a 400 for bytes that are not a protobuf message of the kind.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sim, type Body } from '../helpers.ts';

const fixture = (name: string): Uint8Array => new Uint8Array(Buffer.from(readFileSync(join(import.meta.dirname, '..', 'unit', 'decode', 'fixtures', `${name}.b64`), 'utf8').trim(), 'base64'));
const proto = { 'content-type': 'application/vnd.kubernetes.protobuf', accept: 'application/vnd.kubernetes.protobuf,application/json' };

describe('protobuf request bodies', () => {
  it('create a ServiceAccount and request a token, answered in JSON', async () => {
    const s = await sim({ groupDomain: 'k8s.io' });
    const sa = await s.request({ method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts?fieldValidation=Strict', headers: proto, body: fixture('serviceaccount') });
    expect(sa.status).toBe(201);
    expect(sa.headers['content-type']).toBe('application/json');
    expect((sa.body as Body).metadata.name).toBe('sa1');
    const tr = await s.request({ method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts/sa1/token', headers: proto, body: fixture('tokenrequest') });
    expect(tr.status).toBe(201);
    expect((tr.body as Body).spec).toEqual({ audiences: ['x'], expirationSeconds: 1200 });
  });

  it('refuses bytes that are not a protobuf message', async () => {
    const s = await sim();
    const res = await s.request({ method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts', headers: proto, body: new TextEncoder().encode('{"metadata":{"name":"x"}}') });
    expect(res.status).toBe(400);
    expect((res.body as Body).message).toBe('the object provided is unrecognized (must be of type ServiceAccount): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
    const wrongKind = await s.request({ method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts', headers: proto, body: fixture('configmap') });
    expect(wrongKind.status).toBe(400);
    expect((wrongKind.body as Body).message).toContain('ConfigMap in version "v1" cannot be handled as a ServiceAccount');
  });
});
