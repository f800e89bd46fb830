/**
 * `null` inside typed lists and maps decodes to the element's zero value, as Go's decoder leaves
 * it (and storage gives it back): `{}` for a struct, `""` for a string, `"0"` for a Quantity, an
 * empty list for a list value. The stored and answered object is the one the zero value makes, so
 * validation answers as it does for that value. A `null` field is left unset, as before.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation } from '../../../src/index.ts';
import { decodeTyped } from '../../../src/store/decode/typedDecode.ts';
import { userInfoSchema } from '../../../src/registry/authentication/schema.ts';

const ns = '/api/v1/namespaces/default';
const json = { 'content-type': 'application/json' };
const sim = () => createSimulation({ seed: 1, settle: 'manual', nodeAgent: false });

describe('null elements of typed lists', () => {
  it('stores a null struct element as the empty struct: ServiceAccount secrets and imagePullSecrets', async () => {
    const s = await sim();
    const create = (name: string, element: string) =>
      s.requestSync({ method: 'POST', path: `${ns}/serviceaccounts`, headers: json, body: `{"metadata":{"name":"${name}"},"secrets":[${element},{"name":"x"}],"imagePullSecrets":[${element}]}` });
    const fromNull = create('n', 'null');
    expect(fromNull.status).toBe(201);
    expect(fromNull.body.imagePullSecrets).toEqual([{}]);
    expect(fromNull.body.secrets).toHaveLength(2);
    const fromEmpty = create('e', '{}');
    expect([fromNull.body.secrets, fromNull.body.imagePullSecrets]).toEqual([fromEmpty.body.secrets, fromEmpty.body.imagePullSecrets]);
    const read = s.requestSync({ method: 'GET', path: `${ns}/serviceaccounts/n` });
    expect([read.body.secrets, read.body.imagePullSecrets]).toEqual([fromEmpty.body.secrets, [{}]]);
  });

  it('validates a null container as the empty container it decodes to', async () => {
    const s = await sim();
    const pod = (containers: string) => s.requestSync({ method: 'POST', path: `${ns}/pods`, headers: json, body: `{"metadata":{"name":"p"},"spec":{"containers":${containers}}}` });
    const fromNull = pod('[null]');
    expect(fromNull.status).toBe(422);
    expect(fromNull.body.message).toBe('Pod "p" is invalid: [spec.containers[0].name: Required value, spec.containers[0].image: Required value]');
    expect(pod('[{}]').body).toEqual(fromNull.body);
  });

  it('stores a StatefulSet template whose container is null as one whose container is {}', async () => {
    const s = await sim();
    const set = (name: string, containers: string) =>
      s.requestSync({
        method: 'POST',
        path: '/apis/apps/v1/namespaces/default/statefulsets',
        headers: json,
        body: `{"metadata":{"name":"${name}"},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":${containers}}}}}`,
      });
    const fromNull = set('n', '[null]');
    const fromEmpty = set('e', '[{}]');
    expect(fromNull.status).toBe(fromEmpty.status);
    expect(fromNull.body.spec.template.spec.containers).toEqual(fromEmpty.body.spec.template.spec.containers);
    expect(fromNull.body.spec.template.spec.containers[0]).not.toHaveProperty('name');
  });

  it('stores a null string element as "": finalizers then fail validation as "" does', async () => {
    const s = await sim();
    const res = s.requestSync({ method: 'POST', path: `${ns}/serviceaccounts`, headers: json, body: '{"metadata":{"name":"a","finalizers":[null]}}' });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/^ServiceAccount "a" is invalid: \[metadata\.finalizers: Invalid value: "": name part must be non-empty, /);
  });

  it('reads null audiences of a TokenRequest and a TokenReview as ""', async () => {
    const s = await sim();
    s.requestSync({ method: 'POST', path: `${ns}/serviceaccounts`, body: { metadata: { name: 'a' } } });
    const issued = await s.request({ method: 'POST', path: `${ns}/serviceaccounts/a/token`, headers: json, body: '{"spec":{"audiences":["x",null]}}' });
    expect(issued.status).toBe(201);
    expect(issued.body.spec.audiences).toEqual(['x', '']);
    // The token is for "x" and "": a review for [null] is one for "", which it passes.
    const review = await s.request({ method: 'POST', path: '/apis/authentication.platform.io/v1/tokenreviews', headers: json, body: JSON.stringify({ spec: { token: issued.body.status.token, audiences: [null] } }) });
    expect(review.body.spec.audiences).toEqual(['']);
    expect(review.body.status).toMatchObject({ authenticated: true, audiences: [''] });
  });
});

describe('null values of typed maps', () => {
  it('stores a null string value as "": labels, annotations, Secret data and stringData', async () => {
    const s = await sim();
    const sa = s.requestSync({ method: 'POST', path: `${ns}/serviceaccounts`, headers: json, body: '{"metadata":{"name":"a","labels":{"l":null},"annotations":{"n":null}}}' });
    expect(sa.status).toBe(201);
    expect([sa.body.metadata.labels, sa.body.metadata.annotations]).toEqual([{ l: '' }, { n: '' }]);
    const secret = s.requestSync({ method: 'POST', path: `${ns}/secrets`, headers: json, body: '{"metadata":{"name":"s"},"data":{"a":null},"stringData":{"b":null}}' });
    expect(secret.status).toBe(201);
    expect(secret.body.data).toEqual({ a: '', b: '' });
  });

  it('stores a null Quantity as the zero Quantity "0"', async () => {
    const s = await sim();
    const res = s.requestSync({ method: 'POST', path: `${ns}/pods`, headers: json, body: '{"metadata":{"name":"p"},"spec":{"containers":[{"name":"a","image":"b","resources":{"limits":{"cpu":null}}}]}}' });
    expect(res.status).toBe(201);
    expect(res.body.spec.containers[0].resources.limits).toEqual({ cpu: '0' });
  });

  it('reads a null list value as an empty list, and a null element in it as ""', () => {
    const r = decodeTyped({ extra: { k: null, l: [null, 'v'] } }, userInfoSchema, { kind: 'UserInfo', version: 'v1' });
    expect(r.ok && r.value).toEqual({ extra: { k: [], l: ['', 'v'] } });
  });
});

describe('null fields', () => {
  it('leaves a null field unset, as its zero value is stored: by its absence', async () => {
    const s = await sim();
    const res = s.requestSync({ method: 'POST', path: `${ns}/serviceaccounts`, headers: json, body: '{"metadata":{"name":"a","labels":null},"secrets":null,"automountServiceAccountToken":null}' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['apiVersion', 'kind', 'metadata']);
    expect(res.body.metadata).not.toHaveProperty('labels');
  });
});
