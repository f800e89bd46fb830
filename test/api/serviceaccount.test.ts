/**
 * ServiceAccount end to end through `sim.request`: the eight operations of the spec with the
 * real status codes, Status bodies and messages, and the kind's own rules (secrets reduced to
 * names, the deprecated enforce-mountable-secrets warning).
 */
import { describe, expect, it } from 'vitest';
import { createSA, saPath, sim, type Body } from '../helpers.ts';

describe('ServiceAccount', () => {
  it('creates with server-set metadata and reads it back', async () => {
    const s = await sim();
    const res = await createSA(s, 'builder', { metadata: { labels: { app: 'ci' } } });
    expect(res.status).toBe(201);
    const sa = res.body as Body;
    expect(sa.kind).toBe('ServiceAccount');
    expect(sa.apiVersion).toBe('v1');
    expect(sa.metadata.name).toBe('builder');
    expect(sa.metadata.namespace).toBe('default');
    expect(sa.metadata.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(sa.metadata.creationTimestamp).toBe('2026-01-01T00:00:00Z');
    expect(sa.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(sa.metadata.generation).toBeUndefined();
    expect(sa.metadata.managedFields).toEqual([
      { manager: 'unknown', operation: 'Update', apiVersion: 'v1', time: '2026-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } } },
    ]);
    const got = await s.request({ method: 'GET', path: saPath('default', 'builder') });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(sa);
  });

  it('answers 404 with the real Status for a missing object', async () => {
    const s = await sim();
    const res = await s.request({ method: 'GET', path: saPath('default', 'ghost') });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'serviceaccounts "ghost" not found',
      reason: 'NotFound',
      details: { name: 'ghost', kind: 'serviceaccounts' },
      code: 404,
    });
  });

  it('refuses a second create of the same name with AlreadyExists', async () => {
    const s = await sim();
    await createSA(s, 'builder');
    const res = await createSA(s, 'builder');
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ reason: 'AlreadyExists', message: 'serviceaccounts "builder" already exists', details: { name: 'builder', kind: 'serviceaccounts' }, code: 409 });
  });

  it('refuses content in a namespace that does not exist', async () => {
    const s = await sim();
    const res = await createSA(s, 'builder', {}, 'nope');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ reason: 'NotFound', message: 'namespaces "nope" not found', details: { name: 'nope', kind: 'namespaces' } });
  });

  it('has the system namespaces and a default ServiceAccount in each', async () => {
    const s = await sim();
    const ns = (await s.request({ method: 'GET', path: '/api/v1/namespaces' })).body as Body;
    expect(ns.items.map((n: Body) => n.metadata.name)).toEqual(['default', 'platform-node-lease', 'platform-public', 'platform-system']);
    const sas = (await s.request({ method: 'GET', path: '/api/v1/serviceaccounts' })).body as Body;
    expect(sas.items.map((x: Body) => `${x.metadata.namespace}/${x.metadata.name}`)).toEqual([
      'default/default',
      'platform-node-lease/default',
      'platform-public/default',
      'platform-system/default',
    ]);
  });

  it('uses the k8s.io names in compatibility mode', async () => {
    const s = await sim({ groupDomain: 'k8s.io' });
    const ns = (await s.request({ method: 'GET', path: '/api/v1/namespaces' })).body as Body;
    expect(ns.items.map((n: Body) => n.metadata.name)).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    expect(ns.items[0].metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'default' });
  });

  it('replaces with optimistic concurrency: a stale resourceVersion is a Conflict', async () => {
    const s = await sim();
    const sa = (await createSA(s, 'builder')).body as Body;
    const first = await s.request({ method: 'PUT', path: saPath('default', 'builder'), body: { ...sa, automountServiceAccountToken: false } });
    expect(first.status).toBe(200);
    expect(Number((first.body as Body).metadata.resourceVersion)).toBeGreaterThan(Number(sa.metadata.resourceVersion));
    const before = s.hash();
    const stale = await s.request({ method: 'PUT', path: saPath('default', 'builder'), body: { ...sa, automountServiceAccountToken: true } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on serviceaccounts "builder": the object has been modified; please apply your changes to the latest version and try again',
      details: { name: 'builder', kind: 'serviceaccounts' },
    });
    expect(s.hash()).toBe(before);
  });

  it('allows an unconditional update (no resourceVersion): last write wins', async () => {
    const s = await sim();
    await createSA(s, 'builder');
    const res = await s.request({ method: 'PUT', path: saPath('default', 'builder'), body: { metadata: { name: 'builder' }, automountServiceAccountToken: false } });
    expect(res.status).toBe(200);
    expect((res.body as Body).automountServiceAccountToken).toBe(false);
  });

  it('checks the URL against the body on update', async () => {
    const s = await sim();
    await createSA(s, 'builder');
    const res = await s.request({ method: 'PUT', path: saPath('default', 'builder'), body: { metadata: { name: 'other' } } });
    expect(res.status).toBe(400);
    expect((res.body as Body).message).toBe('the name of the object (other) does not match the name on the URL (builder)');
    const ns = await s.request({ method: 'PUT', path: saPath('default', 'builder'), body: { metadata: { name: 'builder', namespace: 'x' } } });
    expect(ns.status).toBe(400);
    expect((ns.body as Body).message).toBe('the namespace of the provided object does not match the namespace sent on the request');
  });

  it('reduces every secrets entry to its name', async () => {
    const s = await sim();
    const res = await createSA(s, 'builder', { secrets: [{ name: 's1', namespace: 'other', kind: 'Secret', uid: 'u' }, { name: 's2' }, { kind: 'Secret' }] });
    // An entry without a name is left empty: ObjectReference's name is `omitempty`.
    expect(JSON.stringify((res.body as Body).secrets)).toBe('[{"name":"s1"},{"name":"s2"},{}]');
  });

  it('warns once when the deprecated enforce-mountable-secrets annotation is set', async () => {
    const s = await sim();
    const res = await createSA(s, 'builder', { metadata: { annotations: { 'platform.io/enforce-mountable-secrets': 'true' } } });
    expect(res.status).toBe(201);
    expect(res.headers['warning']).toEqual([
      '299 - "metadata.annotations[platform.io/enforce-mountable-secrets]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets"',
    ]);
    const again = await s.request({ method: 'PUT', path: saPath('default', 'builder'), body: { ...(res.body as Body), automountServiceAccountToken: true } });
    expect(again.headers['warning']).toBeUndefined();
  });

  it('deletes, answering the object with the deletion resourceVersion', async () => {
    const s = await sim();
    const sa = (await createSA(s, 'builder')).body as Body;
    const res = await s.request({ method: 'DELETE', path: saPath('default', 'builder') });
    expect(res.status).toBe(200);
    const body = res.body as Body;
    expect(body.kind).toBe('ServiceAccount');
    expect(body.metadata.uid).toBe(sa.metadata.uid);
    expect(Number(body.metadata.resourceVersion)).toBeGreaterThan(Number(sa.metadata.resourceVersion));
    expect((await s.request({ method: 'GET', path: saPath('default', 'builder') })).status).toBe(404);
    expect((await s.request({ method: 'DELETE', path: saPath('default', 'builder') })).status).toBe(404);
  });

  it('lists without kind and apiVersion on items, with the list resourceVersion', async () => {
    const s = await sim();
    await createSA(s, 'a');
    await createSA(s, 'b');
    const res = await s.request({ method: 'GET', path: saPath('default') });
    const list = res.body as Body;
    expect(list.kind).toBe('ServiceAccountList');
    expect(list.apiVersion).toBe('v1');
    expect(list.items.map((i: Body) => i.metadata.name)).toEqual(['a', 'b', 'default']);
    expect(list.items[0].kind).toBeUndefined();
    expect(list.metadata.resourceVersion).toBe(String(s.world.revision));
  });

  it('deletes a collection by label selector and answers 200 Status, as the spec says (divergence: the real server answers the list)', async () => {
    const s = await sim();
    await createSA(s, 'a', { metadata: { labels: { team: 'x' } } });
    await createSA(s, 'b', { metadata: { labels: { team: 'y' } } });
    const res = await s.request({ method: 'DELETE', path: `${saPath('default')}?labelSelector=team%3Dx` });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' });
    const left = (await s.request({ method: 'GET', path: saPath('default') })).body as Body;
    expect(left.items.map((i: Body) => i.metadata.name)).toEqual(['b', 'default']);
  });

  it('serves 405 for a verb the route does not have', async () => {
    const s = await sim();
    const res = await s.request({ method: 'POST', path: '/api/v1/serviceaccounts', body: { metadata: { name: 'x' } } });
    expect(res.status).toBe(405);
    expect(res.body).toMatchObject({ reason: 'MethodNotAllowed', message: 'the server does not allow this method on the requested resource', details: {}, code: 405 });
    expect(res.headers['allow']).toBe('GET');
  });
});
