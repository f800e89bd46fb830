/**
 * The simulated node agent: a registered Node, pods bound and moved through their life in
 * virtual time by their annotations, removal after terminate-after, a test's own status writes
 * left alone, and nothing at all with nodeAgent: false.
 */
import { describe, expect, it } from 'vitest';
import { sim, type Body } from '../helpers.ts';

const pods = '/api/v1/namespaces/default/pods';
const pod = (name: string, annotations: Record<string, string> = {}) => ({ metadata: { name, annotations }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } });
const get = async (s: Awaited<ReturnType<typeof sim>>, name: string) => (await s.request({ method: 'GET', path: `${pods}/${name}` })).body as Body;
const ready = (p: Body): string | undefined => p.status.conditions?.find((c: Body) => c.type === 'Ready')?.status;

describe('simulated node agent', () => {
  it('registers a Ready node and runs a pod at once by default', async () => {
    const s = await sim();
    const node = (await s.request({ method: 'GET', path: '/api/v1/nodes/node-1' })).body as Body;
    expect(node.status.conditions[0]).toMatchObject({ type: 'Ready', status: 'True' });
    expect(node.metadata.labels['platform.io/hostname']).toBe('node-1');
    await s.request({ method: 'POST', path: pods, body: pod('web') });
    const p = await get(s, 'web');
    expect(p.spec.nodeName).toBe('node-1');
    expect(p.status).toMatchObject({ phase: 'Running', hostIP: '10.0.0.1', podIP: '10.244.0.2', startTime: '2026-01-01T00:00:00Z' });
    expect(ready(p)).toBe('True');
    expect(p.status.containerStatuses[0]).toMatchObject({ name: 'app', ready: true, restartCount: 0, state: { running: { startedAt: '2026-01-01T00:00:00Z' } } });
    const table = (await s.request({ method: 'GET', path: pods, headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } })).body as Body;
    expect(table.rows[0].cells.slice(0, 3)).toEqual(['web', '1/1', 'Running']);
  });

  it('becomes Ready after ready-after (or podReadyAfter), at that moment', async () => {
    const s = await sim({ podReadyAfter: '10s' });
    await s.request({ method: 'POST', path: pods, body: pod('slow', { 'sim.platform.io/ready-after': '30s' }) });
    await s.request({ method: 'POST', path: pods, body: pod('default') });
    expect((await get(s, 'slow')).status.phase).toBe('Running');
    expect(ready(await get(s, 'slow'))).toBe('False');
    await s.advance('10s');
    expect(ready(await get(s, 'default'))).toBe('True');
    expect(ready(await get(s, 'slow'))).toBe('False');
    await s.advance('20s');
    expect(ready(await get(s, 'slow'))).toBe('True');
  });

  it('keeps never-ready pods unready and fails fail-after pods', async () => {
    const s = await sim();
    await s.request({ method: 'POST', path: pods, body: pod('never', { 'sim.platform.io/never-ready': 'true' }) });
    await s.request({ method: 'POST', path: pods, body: pod('doomed', { 'sim.platform.io/fail-after': '1m' }) });
    await s.advance('1h');
    expect(ready(await get(s, 'never'))).toBe('False');
    const doomed = await get(s, 'doomed');
    expect(doomed.status.phase).toBe('Failed');
    expect(doomed.status.containerStatuses[0].state.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
  });

  it('removes a deleted pod after terminate-after', async () => {
    const s = await sim();
    await s.request({ method: 'POST', path: pods, body: pod('quick') });
    await s.request({ method: 'POST', path: pods, body: pod('lingering', { 'sim.platform.io/terminate-after': '45s' }) });
    await s.request({ method: 'DELETE', path: `${pods}/quick` });
    expect((await s.request({ method: 'GET', path: `${pods}/quick` })).status).toBe(404);
    await s.request({ method: 'DELETE', path: `${pods}/lingering` });
    expect((await get(s, 'lingering')).metadata.deletionTimestamp).toBe('2026-01-01T00:00:30Z');
    await s.advance('44s');
    expect((await s.request({ method: 'GET', path: `${pods}/lingering` })).status).toBe(200);
    await s.advance('1s');
    expect((await s.request({ method: 'GET', path: `${pods}/lingering` })).status).toBe(404);
  });

  it('never reverts a status a test wrote', async () => {
    const s = await sim({ podReadyAfter: '1m' });
    await s.request({ method: 'POST', path: pods, body: pod('web') });
    await s.advance('1m');
    const p = await get(s, 'web');
    await s.request({ method: 'PUT', path: `${pods}/web/status`, body: { ...p, status: { ...p.status, phase: 'Succeeded' } } });
    await s.advance('1h');
    expect((await get(s, 'web')).status.phase).toBe('Succeeded');
  });

  it('does nothing with nodeAgent: false', async () => {
    const s = await sim({ nodeAgent: false });
    expect((await s.request({ method: 'GET', path: '/api/v1/nodes/node-1' })).status).toBe(404);
    await s.request({ method: 'POST', path: pods, body: pod('web') });
    await s.advance('1h');
    const p = await get(s, 'web');
    expect(p.spec.nodeName).toBeUndefined();
    expect(p.status.phase).toBe('Pending');
  });
});
