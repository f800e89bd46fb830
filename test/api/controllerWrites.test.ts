/**
 * One way in: every controller write is an API write, under the real component's field manager
 * and identity, visible in managedFields and in the trace; a write the API refuses is reported
 * (an InvariantError in tests, a `rejected` trace event always). Also the endpoints the
 * controllers write through: `pods/{name}/binding` and `namespaces/{name}/finalize`.
 */
import { describe, expect, it } from 'vitest';
import { bytesToBase64, utf8Encode } from '../../src/core/base64.ts';
import { InvariantError, controllerManagerActor, type Controller, type Intent } from '../../src/index.ts';
import { listObjects } from '../../src/store/objects.ts';
import { sim, type Body } from '../helpers.ts';
import { expectVerifies } from '../issuedCertificates.ts';

const csrs = '/apis/certificates.platform.io/v1/certificatesigningrequests';
const pods = '/api/v1/namespaces/default/pods';
const pod = (name: string): Body => ({ metadata: { name }, spec: { containers: [{ name: 'app', image: 'busybox' }] } });

const entries = (o: Body): Body[] => (o.metadata.managedFields as Body[]).map(({ fieldsV1: _f, fieldsType: _t, time: _time, ...rest }) => rest);

describe('controller writes are API writes', () => {
  it('records the approver on /approval and the signer on /status under kube-controller-manager', async () => {
    const s = await sim();
    const { request } = await s.createCertificateRequest({ commonName: 'system:node:n1', organizations: ['system:nodes'] });
    const spec = { request: bytesToBase64(utf8Encode(request)), signerName: 'platform.io/apiserver-client-nodeagent', usages: ['digital signature', 'client auth'] };
    expect((await s.request({ method: 'POST', path: csrs, body: { metadata: { name: 'n1' }, spec } })).status).toBe(201);
    const csr = (await s.request({ method: 'GET', path: `${csrs}/n1` })).body as Body;
    expect(csr.status.conditions.map((c: Body) => c.reason)).toEqual(['AutoApproved']);
    expect(csr.status.certificate).toBeTypeOf('string');
    expectVerifies(Buffer.from(csr.status.certificate, 'base64').toString('utf8'), await s.caCertificate(), s.now());
    expect(entries(csr)).toEqual([
      { manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'certificates.platform.io/v1', subresource: 'approval' },
      { manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'certificates.platform.io/v1', subresource: 'status' },
      { manager: 'unknown', operation: 'Update', apiVersion: 'certificates.platform.io/v1' },
    ]);
    const approval = csr.metadata.managedFields.find((m: Body) => m.subresource === 'approval');
    expect(approval).toMatchObject({ manager: 'kube-controller-manager', operation: 'Update' });
    expect(Object.keys(approval.fieldsV1['f:status'])).toContain('f:conditions');
    const status = csr.metadata.managedFields.find((m: Body) => m.subresource === 'status');
    expect(status).toMatchObject({ manager: 'kube-controller-manager', operation: 'Update' });
    expect(Object.keys(status.fieldsV1['f:status'])).toEqual(['f:certificate']);
    const writers = s.trace().flatMap((e) => (e.type === 'write' && e.name === 'n1' ? [e.by] : []));
    expect(writers).toEqual(['api', 'csr-approver', 'csr-signer']);
  });

  it('binds a pod through pods/binding as the scheduler and writes its status as the kubelet', async () => {
    const s = await sim();
    await s.request({ method: 'POST', path: pods, body: pod('p') });
    const p = (await s.request({ method: 'GET', path: `${pods}/p` })).body as Body;
    expect(p.spec.nodeName).toBe('node-1');
    expect(p.status.conditions.find((c: Body) => c.type === 'PodScheduled')).toMatchObject({ status: 'True' });
    // The binding writes storage directly (no entry); the kubelet's status writes are its own.
    expect(p.metadata.managedFields.map((m: Body) => [m.manager, m.subresource ?? ''])).toEqual([
      ['kubelet', 'status'],
      ['unknown', ''],
    ]);
    const writers = s.trace().flatMap((e) => (e.type === 'write' && e.name === 'p' ? [e.by] : []));
    expect(writers).toEqual(['api', 'scheduler', 'node-agent']);
  });

  it('fails a test run when the API refuses a controller write, naming the controller and the Status', async () => {
    const broken: Controller = {
      name: 'broken-controller',
      actor: controllerManagerActor('broken-controller'),
      reconcile: (world) =>
        listObjects(world, 'core/serviceaccounts', 'default').some((o) => o.metadata.name === 'trigger')
          ? [{ type: 'create', resource: 'core/configmaps', object: { metadata: { name: 'Not_A_Name', namespace: 'default' } } } satisfies Intent]
          : [],
      nextWakeup: () => null,
    };
    const s = await sim({ controllers: [broken] });
    const attempt = s.request({ method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts', body: { metadata: { name: 'trigger' } } });
    await expect(attempt).rejects.toThrow(InvariantError);
    await expect(attempt).rejects.toThrow(
      'broken-controller: create core/configmaps default/Not_A_Name: 422 Invalid: ConfigMap "Not_A_Name" is invalid: metadata.name: Invalid value: "Not_A_Name": a lowercase RFC 1123 subdomain',
    );
    // The step itself was complete: the request's write stands, and the refusal is in the trace.
    expect((await s.request({ method: 'GET', path: '/api/v1/namespaces/default/serviceaccounts/trigger' })).status).toBe(200);
    const rejected = s.trace().filter((e) => e.type === 'rejected');
    expect(rejected[0]).toMatchObject({ type: 'rejected', by: 'broken-controller', intent: 'create core/configmaps default/Not_A_Name', code: 422, reason: 'Invalid' });
  });

  it('reports refused writes in the trace without throwing outside the checkers mode', async () => {
    const broken: Controller = {
      name: 'stale-writer',
      actor: controllerManagerActor('stale-writer'),
      reconcile: (world) => {
        const sa = listObjects(world, 'core/serviceaccounts', 'default').find((o) => o.metadata.name === 'default');
        return sa === undefined || sa.metadata.labels?.['seen'] === 'yes' ? [] : [{ type: 'update', resource: 'core/serviceaccounts', subresource: '', object: { ...sa, metadata: { ...sa.metadata, resourceVersion: '1', labels: { seen: 'yes' } } } }];
      },
      nextWakeup: () => null,
    };
    const s = await sim({ controllers: [broken], checkInvariants: false });
    await s.settle();
    const rejected = s.trace().filter((e) => e.type === 'rejected');
    expect(rejected.length).toBeGreaterThan(0);
    expect(rejected[0]).toMatchObject({ by: 'stale-writer', code: 409, reason: 'Conflict' });
  });
});

describe('pods/binding', () => {
  it('binds once (201 Success), then answers 409 with the real texts', async () => {
    const s = await sim({ nodeAgent: false });
    await s.request({ method: 'POST', path: pods, body: pod('p') });
    const bind = (node: string, name = 'p') => s.request({ method: 'POST', path: `${pods}/p/binding`, body: { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { kind: 'Node', name: node } } });
    const first = await bind('n1');
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    const p = (await s.request({ method: 'GET', path: `${pods}/p` })).body as Body;
    expect(p.spec.nodeName).toBe('n1');
    expect(p.status.conditions).toEqual([{ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:00Z' }]);
    const again = await bind('n2');
    expect(again.status).toBe(409);
    expect((again.body as Body).message).toBe('Operation cannot be fulfilled on pods/binding "p": pod p is already assigned to node "n1"');
    const hash = s.hash();
    expect((await bind('n1', 'q')).body).toMatchObject({ code: 400, reason: 'BadRequest', message: 'name in URL does not match name in Binding object' });
    const invalid = await s.request({ method: 'POST', path: `${pods}/p/binding`, body: { metadata: { name: 'p' }, target: { kind: 'Pod' } } });
    expect(invalid.status).toBe(422);
    expect((invalid.body as Body).message).toBe('Binding "p" is invalid: [target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>", target.name: Required value]');
    expect(s.hash()).toBe(hash);
  });
});

describe('namespaces/finalize', () => {
  it('lets the namespace controller remove its finalizer, which removes the namespace', async () => {
    const s = await sim({ settle: 'manual' });
    await s.request({ method: 'POST', path: '/api/v1/namespaces', body: { metadata: { name: 'team' } } });
    await s.request({ method: 'DELETE', path: '/api/v1/namespaces/team' });
    expect(((await s.request({ method: 'GET', path: '/api/v1/namespaces/team' })).body as Body).status.phase).toBe('Terminating');
    await s.settle();
    expect((await s.request({ method: 'GET', path: '/api/v1/namespaces/team' })).status).toBe(404);
    const writers = s.trace().flatMap((e) => (e.type === 'write' && e.resource === 'core/namespaces' && e.name === 'team' ? [`${e.change} ${e.by}`] : []));
    expect(writers).toEqual(['ADDED api', 'MODIFIED api', 'DELETED namespace-controller']);
  });

  it('validates spec finalizers written by a client', async () => {
    const s = await sim();
    const ns = (await s.request({ method: 'POST', path: '/api/v1/namespaces', body: { metadata: { name: 'team' } } })).body as Body;
    const res = await s.request({ method: 'PUT', path: '/api/v1/namespaces/team/finalize', body: { ...ns, spec: { finalizers: ['bad finalizer'] } } });
    expect(res.status).toBe(422);
    expect((res.body as Body).message).toContain('spec.finalizers[0]: Invalid value: "bad finalizer"');
  });
});

describe('a controller named like a built-in', () => {
  it('takes its place: a do-nothing csr-signer leaves an approved request unissued', async () => {
    const idle: Controller = { name: 'csr-signer', actor: controllerManagerActor('csr-signer'), reconcile: () => [], nextWakeup: () => null };
    const s = await sim({ controllers: [idle] });
    const { request } = await s.createCertificateRequest({ commonName: 'alice' });
    const csrs = '/apis/certificates.platform.io/v1/certificatesigningrequests';
    await s.request({ method: 'POST', path: csrs, body: { metadata: { name: 'a' }, spec: { request: btoa(request), signerName: 'platform.io/apiserver-client', usages: ['client auth'] } } });
    const csr = (await s.request({ method: 'GET', path: `${csrs}/a` })).body as Body;
    const approved = await s.request({ method: 'PUT', path: `${csrs}/a/approval`, body: { ...csr, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test' }] } } });
    expect(approved.status).toBe(200);
    await s.advance('1m');
    expect(((await s.request({ method: 'GET', path: `${csrs}/a` })).body as Body).status.certificate).toBeUndefined();
    expect(s.trace().some((e) => e.type === 'write' && e.by === 'csr-signer')).toBe(false);
  });
});

