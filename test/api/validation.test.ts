/**
 * Bad input: every mistake is a 4xx Status that says what is wrong, and the world is unchanged
 * (same `sim.hash()`); nothing throws to the caller.
 */
import { describe, expect, it } from 'vitest';
import { createSA, saPath, sim, type Body } from '../helpers.ts';

async function rejected(s: Awaited<ReturnType<typeof sim>>, req: Parameters<Awaited<ReturnType<typeof sim>>['request']>[0]) {
  const before = s.hash();
  const res = await s.request(req);
  expect(s.hash()).toBe(before);
  return res;
}

describe('bad input changes nothing', () => {
  it('rejects a name that breaks DNS rules with the real message', async () => {
    const s = await sim();
    const res = await rejected(s, { method: 'POST', path: saPath(), body: { metadata: { name: 'Bad_Name' } } });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      reason: 'Invalid',
      message:
        'ServiceAccount "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')',
      details: { name: 'Bad_Name', kind: 'ServiceAccount', causes: [{ reason: 'FieldValueInvalid', field: 'metadata.name' }] },
    });
  });

  it('requires a name or generateName', async () => {
    const s = await sim();
    const res = await rejected(s, { method: 'POST', path: saPath(), body: { metadata: {} } });
    expect(res.status).toBe(422);
    expect((res.body as Body).message).toBe('ServiceAccount "" is invalid: metadata.name: Required value: name or generateName is required');
  });

  it('rejects oversized labels', async () => {
    const s = await sim();
    const res = await rejected(s, { method: 'POST', path: saPath(), body: { metadata: { name: 'a', labels: { k: 'v'.repeat(64) } } } });
    expect(res.status).toBe(422);
    expect((res.body as Body).details.causes[0]).toMatchObject({ reason: 'FieldValueInvalid', field: 'metadata.labels' });
    expect((res.body as Body).message).toContain('must be no more than 63 ');
  });

  it('rejects malformed JSON with 400', async () => {
    const s = await sim();
    const res = await rejected(s, { method: 'POST', path: saPath(), headers: { 'content-type': 'application/json' }, body: '{"metadata": {"name": "a"' });
    expect(res.status).toBe(400);
    expect((res.body as Body).reason).toBe('BadRequest');
  });

  it('rejects malformed YAML with 400', async () => {
    const s = await sim();
    const res = await rejected(s, { method: 'POST', path: saPath(), headers: { 'content-type': 'application/yaml' }, body: 'metadata:\n  name: [a\n' });
    expect(res.status).toBe(400);
  });

  it('rejects wrong types with the Go decoder message', async () => {
    const s = await sim();
    const res = await rejected(s, { method: 'POST', path: saPath(), body: { metadata: { name: 'a' }, automountServiceAccountToken: 'yes' } });
    expect(res.status).toBe(400);
    expect((res.body as Body).message).toBe(
      'ServiceAccount in version "v1" cannot be handled as a ServiceAccount: json: cannot unmarshal string into Go struct field ServiceAccount.automountServiceAccountToken of type bool',
    );
  });

  it('warns about unknown fields by default and refuses them under Strict', async () => {
    const s = await sim();
    const warned = await s.request({ method: 'POST', path: saPath(), body: { metadata: { name: 'a' }, bogus: 1 } });
    expect(warned.status).toBe(201);
    expect(warned.headers['warning']).toEqual(['299 - "unknown field \\"bogus\\""']);
    expect((warned.body as Body).bogus).toBeUndefined();
    const strict = await rejected(s, { method: 'POST', path: `${saPath()}?fieldValidation=Strict`, body: { metadata: { name: 'b' }, bogus: 1 } });
    expect(strict.status).toBe(400);
    expect((strict.body as Body).message).toBe('ServiceAccount in version "v1" cannot be handled as a ServiceAccount: strict decoding error: unknown field "bogus"');
    const ignored = await s.request({ method: 'POST', path: `${saPath()}?fieldValidation=Ignore`, body: { metadata: { name: 'c' }, bogus: 1 } });
    expect(ignored.status).toBe(201);
    expect(ignored.headers['warning']).toBeUndefined();
  });

  it('treats __proto__ and constructor as ordinary (unknown) field names', async () => {
    const s = await sim();
    const res = await s.request({ method: 'POST', path: saPath(), headers: { 'content-type': 'application/json' }, body: '{"metadata":{"name":"p"},"__proto__":{"polluted":1},"constructor":{"x":1}}' });
    expect(res.status).toBe(201);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(res.headers['warning']).toEqual(['299 - "unknown field \\"__proto__\\""', '299 - "unknown field \\"constructor\\""']);
    const label = await rejected(s, { method: 'POST', path: saPath(), headers: { 'content-type': 'application/json' }, body: '{"metadata":{"name":"q","labels":{"__proto__":"x"}}}' });
    expect(label.status).toBe(422);
  });

  it('rejects bad patches and patch content types', async () => {
    const s = await sim();
    await createSA(s, 'a');
    const badType = await rejected(s, { method: 'PATCH', path: saPath('default', 'a'), headers: { 'content-type': 'text/plain' }, body: '{}' });
    expect(badType.status).toBe(415);
    expect(badType.body).toMatchObject({ reason: 'UnsupportedMediaType', message: '415: Unsupported Media Type', details: {} });
    const notJson = await rejected(s, { method: 'PATCH', path: saPath('default', 'a'), headers: { 'content-type': 'application/merge-patch+json' }, body: '{nope' });
    expect(notJson.status).toBe(400);
    const failedOp = await rejected(s, {
      method: 'PATCH',
      path: saPath('default', 'a'),
      headers: { 'content-type': 'application/json-patch+json' },
      body: JSON.stringify([{ op: 'test', path: '/automountServiceAccountToken', value: true }]),
    });
    expect(failedOp.status).toBe(422);
    expect(failedOp.body).toMatchObject({ reason: 'Invalid', message: 'the server rejected our request due to an error in our request', details: {} });
    const proto = await s.request({
      method: 'PATCH',
      path: saPath('default', 'a'),
      headers: { 'content-type': 'application/merge-patch+json' },
      body: '{"__proto__":{"polluted":1}}',
    });
    expect(proto.status).toBe(200);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('rejects invalid options with the meta.k8s.io messages', async () => {
    const s = await sim();
    const dry = await rejected(s, { method: 'POST', path: `${saPath()}?dryRun=Bogus`, body: { metadata: { name: 'a' } } });
    expect(dry.status).toBe(422);
    expect((dry.body as Body).message).toBe('CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Bogus"]: supported values: "All"');
    const fv = await rejected(s, { method: 'POST', path: `${saPath()}?fieldValidation=Loose`, body: { metadata: { name: 'a' } } });
    expect((fv.body as Body).message).toBe('CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Loose": supported values: "", "Ignore", "Strict", "Warn"');
    await createSA(s, 'b');
    const force = await rejected(s, { method: 'PATCH', path: `${saPath('default', 'b')}?force=false`, headers: { 'content-type': 'application/merge-patch+json' }, body: '{}' });
    expect((force.body as Body).message).toBe('PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
    const fm = await rejected(s, { method: 'PATCH', path: saPath('default', 'b'), headers: { 'content-type': 'application/apply-patch+yaml' }, body: 'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: b\n' });
    expect((fm.body as Body).message).toBe('PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
  });

  it('rejects an unsupported body content type with 415 and an unsupported Accept with 406', async () => {
    const s = await sim();
    const ct = await rejected(s, { method: 'POST', path: saPath(), headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect(ct.status).toBe(415);
    expect((ct.body as Body).message).toBe('the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf');
    const acc = await rejected(s, { method: 'GET', path: saPath(), headers: { accept: 'application/vnd.kubernetes.protobuf' } });
    expect(acc.status).toBe(406);
    expect((acc.body as Body).message).toBe('only the following media types are accepted: application/json, application/yaml');
  });

  it('rejects a body over 3 MiB with 413', async () => {
    const s = await sim();
    const res = await rejected(s, { method: 'POST', path: saPath(), headers: { 'content-type': 'application/json' }, body: `{"metadata":{"name":"a"},"x":"${'a'.repeat(3 * 1024 * 1024)}"}` });
    expect(res.status).toBe(413);
    expect((res.body as Body).message).toBe('Request entity too large: limit is 3145728');
  });

  it('answers 404 for unknown paths', async () => {
    const s = await sim();
    const plain = await s.request({ method: 'GET', path: '/apis/nope/v1/things' });
    expect(plain.status).toBe(404);
    expect(plain.body).toBe('404 page not found\n');
    const status = await s.request({ method: 'GET', path: '/api/v1/namespaces/default/things' });
    expect(status.status).toBe(404);
    expect(status.body).toMatchObject({ message: 'the server could not find the requested resource', reason: 'NotFound', details: {} });
  });

  it('refuses bad credentials with 401', async () => {
    const s = await sim();
    const res = await rejected(s, { method: 'GET', path: saPath(), headers: { authorization: 'Bearer nope' } });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ reason: 'Unauthorized', message: 'Unauthorized', code: 401 });
  });
});
