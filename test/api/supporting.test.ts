/**
 * Supporting kinds: Secret (stringData, type, immutable), ConfigMap (keys, immutable) and the
 * basic Pod (defaults, spec immutability, graceful deletion of a pod bound to a node).
 */
import { describe, expect, it } from 'vitest';
import { sim, type Body } from '../helpers.ts';

const ns = '/api/v1/namespaces/default';

describe('Secret and ConfigMap', () => {
  it('freezes data once immutable is set', async () => {
    const s = await sim();
    const sec = (await s.request({ method: 'POST', path: `${ns}/secrets`, body: { metadata: { name: 's' }, immutable: true, data: { a: 'YQ==' } } })).body as Body;
    const res = await s.request({ method: 'PUT', path: `${ns}/secrets/s`, body: { ...sec, data: { a: 'Yg==' } } });
    expect(res.status).toBe(422);
    expect((res.body as Body).message).toBe('Secret "s" is invalid: data: Forbidden: field is immutable when `immutable` is set');
    const type = await s.request({ method: 'PUT', path: `${ns}/secrets/s`, body: { ...sec, type: 'other' } });
    expect((type.body as Body).message).toContain('type: Invalid value: "other": field is immutable');
    const cm = (await s.request({ method: 'POST', path: `${ns}/configmaps`, body: { metadata: { name: 'c' }, immutable: true, data: { k: 'v' } } })).body as Body;
    const cmRes = await s.request({ method: 'PUT', path: `${ns}/configmaps/c`, body: { ...cm, data: { k: 'w' } } });
    expect((cmRes.body as Body).message).toBe('ConfigMap "c" is invalid: data: Forbidden: field is immutable when `immutable` is set');
  });

  it('validates data keys', async () => {
    const s = await sim();
    const res = await s.request({ method: 'POST', path: `${ns}/configmaps`, body: { metadata: { name: 'c' }, data: { 'bad key': 'v' } } });
    expect(res.status).toBe(422);
    expect((res.body as Body).details.causes[0].field).toBe('data[bad key]');
  });
});

// The API's own behaviour, without the simulated node agent moving pods along.
describe('Pod', () => {
  const pod = (name: string, extra: Body = {}) => ({ metadata: { name }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...extra } });

  it('fills the defaults the real API server applies and starts Pending', async () => {
    const s = await sim({ nodeAgent: false });
    const res = await s.request({ method: 'POST', path: `${ns}/pods`, body: pod('p') });
    expect(res.status).toBe(201);
    const p = res.body as Body;
    expect(p.spec).toMatchObject({ restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', serviceAccountName: 'default', schedulerName: 'default-scheduler' });
    expect(p.spec.containers[0]).toMatchObject({ imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log' });
    expect(p.status.phase).toBe('Pending');
    expect(p.metadata.generation).toBe(1);
  });

  it('defaults a container port without a protocol to TCP, and keeps a given one', async () => {
    const s = await sim({ nodeAgent: false });
    const ports = [{ name: 'http', containerPort: 80 }, { containerPort: 53, protocol: 'UDP' }];
    const res = await s.request({ method: 'POST', path: `${ns}/pods`, body: { metadata: { name: 'p' }, spec: { containers: [{ name: 'app', image: 'nginx:1.27', ports }] } } });
    expect((res.body as Body).spec.containers[0].ports).toEqual([{ name: 'http', containerPort: 80, protocol: 'TCP' }, { containerPort: 53, protocol: 'UDP' }]);
  });

  it("validates container ports as validateContainerPorts: a containerPort each, numbers 1–65535, IANA names unique in the container, a known protocol", async () => {
    const s = await sim({ nodeAgent: false });
    const ports = [{}, { name: 'http', containerPort: 70000, hostPort: -1 }, { name: 'http', containerPort: 81 }, { name: 'Bad--', containerPort: 82 }, { containerPort: 83, protocol: 'ICMP' }];
    const res = await s.request({ method: 'POST', path: `${ns}/pods`, body: { metadata: { name: 'p' }, spec: { containers: [{ name: 'app', image: 'nginx:1.27', ports }, { name: 'app', image: 'nginx:1.27', ports: [{ name: 'http', containerPort: 80 }] }] } } });
    expect(res.status).toBe(422);
    const at = 'spec.containers[0].ports';
    expect((res.body as Body).message).toBe(
      `Pod "p" is invalid: [${at}[0].containerPort: Required value, ${at}[1].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive, ${at}[1].hostPort: Invalid value: -1: must be between 1 and 65535, inclusive, ${at}[2].name: Duplicate value: "http", ${at}[3].name: Invalid value: "Bad--": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-), ${at}[3].name: Invalid value: "Bad--": must not contain consecutive hyphens, ${at}[3].name: Invalid value: "Bad--": must not begin or end with a hyphen, ${at}[4].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP", spec.containers[1].name: Duplicate value: "app"]`,
    );
    expect((await s.request({ method: 'GET', path: `${ns}/pods/p` })).status).toBe(404);
  });

  it('refuses spec changes other than images', async () => {
    const s = await sim({ nodeAgent: false });
    const p = (await s.request({ method: 'POST', path: `${ns}/pods`, body: pod('p') })).body as Body;
    const image = await s.request({ method: 'PUT', path: `${ns}/pods/p`, body: { ...p, spec: { ...p.spec, containers: [{ ...p.spec.containers[0], image: 'nginx:1.28' }] } } });
    expect(image.status).toBe(200);
    const other = await s.request({ method: 'PUT', path: `${ns}/pods/p`, body: { ...(image.body as Body), spec: { ...p.spec, restartPolicy: 'Never' } } });
    expect(other.status).toBe(422);
    expect((other.body as Body).message).toMatch(/^Pod "p" is invalid: spec: Forbidden: pod updates may not change fields other than/);
  });

  it('deletes an unbound pod at once and a bound one gracefully', async () => {
    const s = await sim({ nodeAgent: false });
    await s.request({ method: 'POST', path: `${ns}/pods`, body: pod('free') });
    await s.request({ method: 'DELETE', path: `${ns}/pods/free` });
    expect((await s.request({ method: 'GET', path: `${ns}/pods/free` })).status).toBe(404);
    await s.request({ method: 'POST', path: `${ns}/pods`, body: pod('bound', { nodeName: 'node-1' }) });
    const del = (await s.request({ method: 'DELETE', path: `${ns}/pods/bound` })).body as Body;
    expect(del.metadata.deletionTimestamp).toBe('2026-01-01T00:00:30Z');
    expect(del.metadata.deletionGracePeriodSeconds).toBe(30);
    const now = await s.request({ method: 'DELETE', path: `${ns}/pods/bound`, body: { gracePeriodSeconds: 0 } });
    expect(now.status).toBe(200);
    expect((await s.request({ method: 'GET', path: `${ns}/pods/bound` })).status).toBe(404);
  });

  it('stores and answers timestamps in UTC with Z, whatever offset they came with (metav1.Time drops fractions)', async () => {
    const s = await sim({ nodeAgent: false });
    await s.request({ method: 'POST', path: `${ns}/pods`, body: pod('t') });
    const st = await s.request({
      method: 'PATCH',
      path: `${ns}/pods/t/status`,
      headers: { 'content-type': 'application/merge-patch+json' },
      body: { status: { startTime: '2026-01-01T02:00:00.5+02:00', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2025-12-31T19:00:07-05:00' }] } },
    });
    expect((st.body as Body).status.startTime).toBe('2026-01-01T00:00:00Z');
    expect((st.body as Body).status.conditions[0].lastTransitionTime).toBe('2026-01-01T00:00:07Z');
    expect(((await s.request({ method: 'GET', path: `${ns}/pods/t` })).body as Body).status.startTime).toBe('2026-01-01T00:00:00Z');
  });

  it.each(['Failed', 'Succeeded'])('deletes a bound pod whose phase is %s at once', async (phase) => {
    const s = await sim({ nodeAgent: false });
    await s.request({ method: 'POST', path: `${ns}/pods`, body: pod('done', { nodeName: 'node-1' }) });
    const st = await s.request({ method: 'PATCH', path: `${ns}/pods/done/status`, headers: { 'content-type': 'application/merge-patch+json' }, body: { status: { phase } } });
    expect(st.status).toBe(200);
    expect((await s.request({ method: 'DELETE', path: `${ns}/pods/done` })).status).toBe(200);
    expect((await s.request({ method: 'GET', path: `${ns}/pods/done` })).status).toBe(404);
  });

  it('writes status through /status only', async () => {
    const s = await sim({ nodeAgent: false });
    const p = (await s.request({ method: 'POST', path: `${ns}/pods`, body: pod('p') })).body as Body;
    const main = await s.request({ method: 'PUT', path: `${ns}/pods/p`, body: { ...p, status: { phase: 'Running' } } });
    expect((main.body as Body).status.phase).toBe('Pending');
    const st = await s.request({ method: 'PUT', path: `${ns}/pods/p/status`, body: { ...(main.body as Body), status: { phase: 'Running' }, metadata: { ...(main.body as Body).metadata, labels: { x: 'y' } } } });
    expect(st.status).toBe(200);
    expect((st.body as Body).status.phase).toBe('Running');
    // As the real pod status strategy: metadata changes are kept; spec and owner references are not.
    expect((st.body as Body).metadata.labels).toEqual({ x: 'y' });
  });
});
