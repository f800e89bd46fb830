/**
 * Typed answers: `sim.request<T>` types `body`, and the small helpers (`get`, `list`, `create`,
 * `update`, `patch`, `delete`) are `request` with the method filled in — same answers, typed.
 * The type assertions are checked by `tsc --noEmit`; the values by running.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { KubeList, KubeObject, SimResponse, Status } from '../../src/index.ts';
import { saPath, sim } from '../helpers.ts';

interface ServiceAccount extends KubeObject {
  automountServiceAccountToken?: boolean;
}

describe('typed requests', () => {
  it('types body by the caller: request<T>, and any by default', async () => {
    const s = await sim();
    const created = await s.request<ServiceAccount>({ method: 'POST', path: saPath(), body: { metadata: { name: 'builder' } } });
    expectTypeOf(created).toEqualTypeOf<SimResponse<ServiceAccount>>();
    expectTypeOf(created.body.metadata.uid).toEqualTypeOf<string | undefined>();
    expect(created.status).toBe(201);
    const loose = await s.request({ method: 'GET', path: saPath('default', 'builder') });
    expectTypeOf(loose.body).toBeAny();
    expect(loose.body.metadata.uid).toBe(created.body.metadata.uid);
    const missing = s.requestSync<Status>({ method: 'GET', path: saPath('default', 'nobody') });
    expect([missing.status, missing.body.reason]).toEqual([404, 'NotFound']);
  });

  it('get, list, create, update, patch and delete are request with the method filled in', async () => {
    const s = await sim();
    const created = await s.create<ServiceAccount>(saPath(), { metadata: { name: 'builder' } });
    expect(created.status).toBe(201);
    const got = await s.get<ServiceAccount>(saPath('default', 'builder'));
    expect(got.body).toEqual(created.body);
    const list = await s.list<ServiceAccount>(saPath());
    expectTypeOf(list.body).toEqualTypeOf<KubeList<ServiceAccount>>();
    expect(list.body.items.map((sa) => sa.metadata.name)).toEqual(['builder', 'default']);
    // A merge patch by default; `type` picks another; a content-type header of the caller wins.
    const merged = await s.patch<ServiceAccount>(saPath('default', 'builder'), { metadata: { labels: { team: 'a' } } });
    expect([merged.status, merged.body.metadata.labels]).toEqual([200, { team: 'a' }]);
    const json = await s.patch<ServiceAccount>(saPath('default', 'builder'), [{ op: 'add', path: '/automountServiceAccountToken', value: false }], { type: 'json' });
    expect([json.status, json.body.automountServiceAccountToken]).toEqual([200, false]);
    const strategic = await s.patch(saPath('default', 'builder'), { secrets: [{ name: 'x' }] }, { type: 'strategic' });
    expect(strategic.body.secrets).toEqual([{ name: 'x' }]);
    const named = await s.patch(saPath('default', 'builder'), '[{"op":"remove","path":"/secrets"}]', { headers: { 'Content-Type': 'application/json-patch+json' } });
    expect([named.status, named.body.secrets]).toEqual([200, undefined]);
    const applied = await s.patch(`${saPath('default', 'builder')}?fieldManager=docs&force=true`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder', labels: { team: 'b' } } }, { type: 'apply' });
    expect([applied.status, applied.body.metadata.labels]).toEqual([200, { team: 'b' }]);
    const replaced = await s.update<ServiceAccount>(saPath('default', 'builder'), { ...applied.body, automountServiceAccountToken: true });
    expect([replaced.status, replaced.body.automountServiceAccountToken]).toEqual([200, true]);
    const asAlice = await s.get<Status>(saPath('default', 'builder'), { as: { user: 'alice' } });
    expect([asAlice.status, asAlice.body.reason]).toEqual([403, 'Forbidden']);
    const dryRun = await s.delete(`${saPath('default', 'builder')}?dryRun=All`, { body: { preconditions: { uid: 'not-it' } } });
    expect([dryRun.status, dryRun.body.reason]).toEqual([409, 'Conflict']);
    expect((await s.delete(saPath('default', 'builder'))).status).toBe(200);
    expect((await s.get(saPath('default', 'builder'))).status).toBe(404);
  });
});
