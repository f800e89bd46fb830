/**
 * PATCH through the API: the four patch types on ServiceAccounts, with the list semantics of the
 * spec (`secrets` merged on `name` by strategic merge patch, replaced by merge patch;
 * `imagePullSecrets` atomic), and server-side apply with managed fields and conflicts.
 */
import { describe, expect, it } from 'vitest';
import { createSA, saPath, sim, type Body } from '../helpers.ts';

const patchAs = (type: string) => ({ 'content-type': `application/${type}` });

describe('patch types', () => {
  it('strategic merge keeps existing secrets entries (merge key name), patch elements first', async () => {
    const s = await sim();
    await createSA(s, 'a', { secrets: [{ name: 's1' }, { name: 's2' }], imagePullSecrets: [{ name: 'p1' }, { name: 'p2' }] });
    const res = await s.request({ method: 'PATCH', path: saPath('default', 'a'), headers: patchAs('strategic-merge-patch+json'), body: { secrets: [{ name: 's3' }], imagePullSecrets: [{ name: 'p3' }] } });
    expect(res.status).toBe(200);
    expect((res.body as Body).secrets).toEqual([{ name: 's3' }, { name: 's1' }, { name: 's2' }]);
    expect((res.body as Body).imagePullSecrets).toEqual([{ name: 'p3' }]);
  });

  it('strategic merge directives: $patch delete and $setElementOrder', async () => {
    const s = await sim();
    await createSA(s, 'a', { secrets: [{ name: 's1' }, { name: 's2' }, { name: 's3' }] });
    const del = await s.request({ method: 'PATCH', path: saPath('default', 'a'), headers: patchAs('strategic-merge-patch+json'), body: { secrets: [{ name: 's1', $patch: 'delete' }] } });
    expect((del.body as Body).secrets).toEqual([{ name: 's2' }, { name: 's3' }]);
    const order = await s.request({ method: 'PATCH', path: saPath('default', 'a'), headers: patchAs('strategic-merge-patch+json'), body: { '$setElementOrder/secrets': [{ name: 's3' }, { name: 's2' }] } });
    expect((order.body as Body).secrets).toEqual([{ name: 's3' }, { name: 's2' }]);
  });

  it('a malformed strategic merge patch is a 400 with the real message, never a 5xx', async () => {
    const s = await sim();
    await createSA(s, 'a', { secrets: [{ name: 's1' }] });
    const badRequest = (message: string) => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 });
    const cases: [unknown, string][] = [
      [{ secrets: [{ namespace: 'x' }] }, 'map: map[namespace:x] does not contain declared merge key: name'],
      [{ secrets: [{ name: 's1', $patch: 'merge' }] }, 'merging lists cannot yet be specified in the patch'],
      [{ metadata: { labels: { $patch: 'bogus', a: 'b' } } }, 'unknown patch type: bogus in map: map[$patch:bogus a:b]'],
      [{ metadata: { $patch: 5 } }, 'unknown patch type: %!s(float64=5) in map: map[$patch:5]'],
    ];
    for (const [body, message] of cases) {
      const res = await s.request({ method: 'PATCH', path: saPath('default', 'a'), headers: patchAs('strategic-merge-patch+json'), body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(badRequest(message));
    }
    expect(((await s.request({ method: 'GET', path: saPath('default', 'a') })).body as Body).secrets).toEqual([{ name: 's1' }]);
  });

  it('merge patch replaces the secrets list and deletes with null', async () => {
    const s = await sim();
    await createSA(s, 'a', { secrets: [{ name: 's1' }, { name: 's2' }], automountServiceAccountToken: true });
    const res = await s.request({ method: 'PATCH', path: saPath('default', 'a'), headers: patchAs('merge-patch+json'), body: { secrets: [{ name: 's3' }], automountServiceAccountToken: null } });
    expect((res.body as Body).secrets).toEqual([{ name: 's3' }]);
    expect((res.body as Body).automountServiceAccountToken).toBeUndefined();
  });

  it('JSON patch applies operations in order', async () => {
    const s = await sim();
    await createSA(s, 'a', { secrets: [{ name: 's1' }] });
    const res = await s.request({
      method: 'PATCH',
      path: saPath('default', 'a'),
      headers: patchAs('json-patch+json'),
      body: [
        { op: 'add', path: '/secrets/-', value: { name: 's2' } },
        { op: 'add', path: '/metadata/labels', value: { 'a/b': 'c' } },
        { op: 'test', path: '/secrets/0/name', value: 's1' },
      ],
    });
    expect(res.status).toBe(200);
    expect((res.body as Body).secrets).toEqual([{ name: 's1' }, { name: 's2' }]);
    expect((res.body as Body).metadata.labels).toEqual({ 'a/b': 'c' });
  });

  it('a patch result carrying a stale resourceVersion is a Conflict; a missing object is 404', async () => {
    const s = await sim();
    const sa = (await createSA(s, 'a')).body as Body;
    await s.request({ method: 'PATCH', path: saPath('default', 'a'), headers: patchAs('merge-patch+json'), body: { automountServiceAccountToken: false } });
    const stale = await s.request({ method: 'PATCH', path: saPath('default', 'a'), headers: patchAs('merge-patch+json'), body: { metadata: { resourceVersion: sa.metadata.resourceVersion } } });
    expect(stale.status).toBe(409);
    expect((stale.body as Body).reason).toBe('Conflict');
    const missing = await s.request({ method: 'PATCH', path: saPath('default', 'ghost'), headers: patchAs('merge-patch+json'), body: {} });
    expect(missing.status).toBe(404);
  });

  it('a write that changes nothing keeps the resourceVersion', async () => {
    const s = await sim();
    const sa = (await createSA(s, 'a')).body as Body;
    const res = await s.request({ method: 'PATCH', path: saPath('default', 'a'), headers: patchAs('merge-patch+json'), body: {} });
    expect((res.body as Body).metadata.resourceVersion).toBe(sa.metadata.resourceVersion);
  });

  it('warns about unknown fields in a patch and refuses them under Strict', async () => {
    const s = await sim();
    await createSA(s, 'a');
    const warned = await s.request({ method: 'PATCH', path: saPath('default', 'a'), headers: patchAs('merge-patch+json'), body: { bogus: 1 } });
    expect(warned.status).toBe(200);
    expect(warned.headers['warning']).toEqual(['299 - "unknown field \\"bogus\\""']);
    const strict = await s.request({ method: 'PATCH', path: `${saPath('default', 'a')}?fieldValidation=Strict`, headers: patchAs('merge-patch+json'), body: { bogus: 1 } });
    expect(strict.status).toBe(422);
    expect((strict.body as Body).message).toMatch(/^ "" is invalid: patch: Invalid value: ".*": strict decoding error: unknown field "bogus"$/);
  });
});

describe('server-side apply', () => {
  const apply = (s: Awaited<ReturnType<typeof sim>>, manager: string, yaml: string, extra = '') =>
    s.request({ method: 'PATCH', path: `${saPath('default', 'web')}?fieldManager=${manager}${extra}`, headers: patchAs('apply-patch+yaml'), body: yaml });

  it('creates a missing object (201) owned by the applier', async () => {
    const s = await sim();
    const res = await apply(s, 'alice', 'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: web\n  labels:\n    app: web\n');
    expect(res.status).toBe(201);
    const mf = (res.body as Body).metadata.managedFields;
    expect(mf).toHaveLength(1);
    expect(mf[0]).toMatchObject({ manager: 'alice', operation: 'Apply', apiVersion: 'v1' });
    expect(mf[0].fieldsV1).toEqual({ 'f:metadata': { 'f:labels': { 'f:app': {} } } });
  });

  it('reports a conflict with another manager and lets force take the field', async () => {
    const s = await sim();
    await apply(s, 'alice', 'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: web\n  labels:\n    app: web\n');
    const conflict = await apply(s, 'bob', 'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: web\n  labels:\n    app: other\n');
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({
      reason: 'Conflict',
      message: 'Apply failed with 1 conflict: conflict with "alice": .metadata.labels.app',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.metadata.labels.app' }] },
    });
    const forced = await apply(s, 'bob', 'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: web\n  labels:\n    app: other\n', '&force=true');
    expect(forced.status).toBe(200);
    expect((forced.body as Body).metadata.labels).toEqual({ app: 'other' });
  });

  it('removes a field the applier stops applying', async () => {
    const s = await sim();
    await apply(s, 'alice', 'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: web\n  labels:\n    app: web\n    tier: x\n');
    const res = await apply(s, 'alice', 'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: web\n  labels:\n    app: web\n');
    expect((res.body as Body).metadata.labels).toEqual({ app: 'web' });
  });

  it('refuses an apply body of the wrong kind or with managedFields', async () => {
    const s = await sim();
    const kind = await apply(s, 'alice', 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: web\n');
    expect(kind.status).toBe(400);
    expect((kind.body as Body).message).toBe('invalid object type: /v1, Kind=Secret');
    const mf = await apply(s, 'alice', 'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: web\n  managedFields: []\n');
    expect(mf.status).toBe(400);
    expect((mf.body as Body).message).toBe('metadata.managedFields must be nil');
  });
});
