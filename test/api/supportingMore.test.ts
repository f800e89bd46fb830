/**
 * Supporting kinds used by StatefulSets and the node agent: Node, Service,
 * PersistentVolumeClaim and Event: CRUD, defaults, the main validation rules with their real
 * messages, the status split, field selectors and kubectl's Table columns.
 */
import { describe, expect, it } from 'vitest';
import { sim, type Body } from '../helpers.ts';

const ns = '/api/v1/namespaces/default';
const table = { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };
const message = (res: { body: unknown }): string => (res.body as Body).message;

describe('Node', () => {
  const node = (name: string, extra: Body = {}) => ({
    metadata: { name, labels: { 'node-role.platform.io/worker': '' } },
    status: { capacity: { cpu: '4', pods: '110' }, conditions: [{ type: 'Ready', status: 'True' }], nodeInfo: { kubeletVersion: 'v1.35.0' } },
    ...extra,
  });

  it('keeps status given on create, defaults allocatable and deletes with a Status', async () => {
    const s = await sim({ nodeAgent: false });
    const res = await s.request({ method: 'POST', path: '/api/v1/nodes', body: node('node-1') });
    expect(res.status).toBe(201);
    const n = res.body as Body;
    expect(n.status.allocatable).toEqual({ cpu: '4', pods: '110' });
    expect(n.metadata.generation).toBeUndefined();
    expect((await s.request({ method: 'GET', path: '/api/v1/nodes/node-1' })).status).toBe(200);
    const del = await s.request({ method: 'DELETE', path: '/api/v1/nodes/node-1' });
    expect((del.body as Body).kind).toBe('Status');
  });

  it('splits spec and status writes', async () => {
    const s = await sim({ nodeAgent: false });
    const n = (await s.request({ method: 'POST', path: '/api/v1/nodes', body: node('node-1') })).body as Body;
    const main = await s.request({ method: 'PUT', path: '/api/v1/nodes/node-1', body: { ...n, spec: { unschedulable: true }, status: { capacity: { cpu: '8' } } } });
    expect((main.body as Body).spec.unschedulable).toBe(true);
    expect((main.body as Body).status.capacity.cpu).toBe('4');
    const st = await s.request({ method: 'PUT', path: '/api/v1/nodes/node-1/status', body: { ...(main.body as Body), spec: {}, status: { capacity: { cpu: '8' } } } });
    expect((st.body as Body).status.capacity.cpu).toBe('8');
    expect((st.body as Body).spec.unschedulable).toBe(true);
  });

  it('validates taints and podCIDR, which may only be set once', async () => {
    const s = await sim({ nodeAgent: false });
    const bad = await s.request({ method: 'POST', path: '/api/v1/nodes', body: { metadata: { name: 'n' }, spec: { podCIDR: '10.244.1.1/24', taints: [{ key: 'a', effect: 'Sometimes' }] } } });
    expect(bad.status).toBe(422);
    expect(message(bad)).toBe(
      'Node "n" is invalid: [metadata.taints[0].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute", spec.podCIDRs[0]: Invalid value: "10.244.1.1/24": must not have bits set beyond the prefix length]',
    );
    const n = (await s.request({ method: 'POST', path: '/api/v1/nodes', body: { metadata: { name: 'n' }, spec: { podCIDR: '10.244.1.0/24' } } })).body as Body;
    expect(n.spec.podCIDRs).toEqual(['10.244.1.0/24']);
    const change = await s.request({ method: 'PUT', path: '/api/v1/nodes/n', body: { ...n, spec: { podCIDR: '10.244.2.0/24', podCIDRs: ['10.244.2.0/24'] } } });
    expect(message(change)).toBe('Node "n" is invalid: spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid');
  });

  it('selects by spec.unschedulable and prints kubectl columns', async () => {
    const s = await sim({ nodeAgent: false });
    await s.request({ method: 'POST', path: '/api/v1/nodes', body: node('a') });
    await s.request({ method: 'POST', path: '/api/v1/nodes', body: node('b', { spec: { unschedulable: true } }) });
    const list = await s.request({ method: 'GET', path: '/api/v1/nodes?fieldSelector=spec.unschedulable%3Dtrue' });
    expect((list.body as Body).items.map((i: Body) => i.metadata.name)).toEqual(['b']);
    const bad = await s.request({ method: 'GET', path: '/api/v1/nodes?fieldSelector=spec.providerID%3Dx' });
    expect(bad.status).toBe(400);
    const t = (await s.request({ method: 'GET', path: '/api/v1/nodes', headers: table })).body as Body;
    expect(t.columnDefinitions.filter((c: Body) => c.priority === 0).map((c: Body) => c.name)).toEqual(['Name', 'Status', 'Roles', 'Age', 'Version']);
    expect(t.rows[1].cells.slice(0, 5)).toEqual(['b', 'Ready,SchedulingDisabled', 'worker', '0s', 'v1.35.0']);
  });
});

describe('Service', () => {
  const svc = (name: string, spec: Body) => ({ metadata: { name }, spec });

  it('applies the real defaults and allocates a stable cluster IP', async () => {
    const s = await sim();
    const res = await s.request({ method: 'POST', path: `${ns}/services`, body: svc('web', { selector: { app: 'web' }, ports: [{ port: 80 }] }) });
    expect(res.status).toBe(201);
    const spec = (res.body as Body).spec;
    expect(spec).toMatchObject({ type: 'ClusterIP', sessionAffinity: 'None', ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack', internalTrafficPolicy: 'Cluster' });
    expect(spec.ports).toEqual([{ port: 80, protocol: 'TCP', targetPort: 80 }]);
    expect(spec.clusterIP).toMatch(/^10\.(9[6-9]|10\d|11[01])\.\d+\.\d+$/);
    expect(spec.clusterIPs).toEqual([spec.clusterIP]);
    expect((res.body as Body).status).toEqual({ loadBalancer: {} });
    const again = await sim();
    const same = await again.request({ method: 'POST', path: `${ns}/services`, body: svc('web', { ports: [{ port: 80 }] }) });
    expect((same.body as Body).spec.clusterIP).toBe(spec.clusterIP);
  });

  it('keeps a headless service headless and returns the object on delete', async () => {
    const s = await sim();
    const res = await s.request({ method: 'POST', path: `${ns}/services`, body: svc('db', { clusterIP: 'None', selector: { app: 'db' } }) });
    expect(res.status).toBe(201);
    expect((res.body as Body).spec).toMatchObject({ clusterIP: 'None', clusterIPs: ['None'], ipFamilyPolicy: 'SingleStack' });
    const del = await s.request({ method: 'DELETE', path: `${ns}/services/db` });
    expect((del.body as Body).kind).toBe('Service');
  });

  it('rejects bad ports, names and selectors with the real messages', async () => {
    const s = await sim();
    const none = await s.request({ method: 'POST', path: `${ns}/services`, body: svc('web', {}) });
    expect(message(none)).toBe('Service "web" is invalid: spec.ports: Required value');
    const range = await s.request({ method: 'POST', path: `${ns}/services`, body: svc('web', { ports: [{ name: 'a', port: 70000 }, { name: 'a', port: 80 }] }) });
    expect(message(range)).toBe('Service "web" is invalid: [spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive, spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive, spec.ports[1].name: Duplicate value: "a"]');
    const dup = await s.request({ method: 'POST', path: `${ns}/services`, body: svc('web', { ports: [{ name: 'a', port: 80 }, { name: 'b', port: 80 }] }) });
    expect(message(dup)).toBe('Service "web" is invalid: spec.ports[1]: Duplicate value: {"Name":"","Protocol":"TCP","AppProtocol":null,"Port":80,"TargetPort":0,"NodePort":0}');
    const name = await s.request({ method: 'POST', path: `${ns}/services`, body: svc('1web', { ports: [{ port: 80 }] }) });
    expect(message(name)).toBe(
      `Service "1web" is invalid: metadata.name: Invalid value: "1web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
    );
    const sel = await s.request({ method: 'POST', path: `${ns}/services`, body: svc('web', { ports: [{ port: 80 }], selector: { app: 'a b' } }) });
    expect((sel.body as Body).details.causes[0].field).toBe('spec.selector');
    const ip = await s.request({ method: 'POST', path: `${ns}/services`, body: svc('web', { clusterIP: '1.1.1.1', ports: [{ port: 80 }] }) });
    expect(message(ip)).toBe('Service "web" is invalid: spec.clusterIPs: Invalid value: ["1.1.1.1"]: failed to allocate IP 1.1.1.1: the provided IP (1.1.1.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12');
  });

  it('keeps the cluster IP across a PUT that leaves it out and refuses to change it', async () => {
    const s = await sim();
    const created = (await s.request({ method: 'POST', path: `${ns}/services`, body: svc('web', { ports: [{ port: 80 }] }) })).body as Body;
    const { clusterIP: _ip, clusterIPs: _ips, ...rest } = created.spec;
    const put = await s.request({ method: 'PUT', path: `${ns}/services/web`, body: { ...created, spec: { ...rest, ports: [{ port: 8080 }] } } });
    expect(put.status).toBe(200);
    expect((put.body as Body).spec.clusterIP).toBe(created.spec.clusterIP);
    const change = await s.request({ method: 'PUT', path: `${ns}/services/web`, body: { ...(put.body as Body), spec: { ...(put.body as Body).spec, clusterIP: '10.96.0.10' } } });
    expect(message(change)).toBe('Service "web" is invalid: spec.clusterIPs[0]: Invalid value: ["10.96.0.10"]: may not change once set');
  });

  it('merges ports by port under strategic merge patch', async () => {
    const s = await sim();
    await s.request({ method: 'POST', path: `${ns}/services`, body: svc('web', { ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443 }] }) });
    const res = await s.request({
      method: 'PATCH',
      path: `${ns}/services/web`,
      headers: { 'content-type': 'application/strategic-merge-patch+json' },
      body: JSON.stringify({ spec: { ports: [{ port: 443, targetPort: 8443 }] } }),
    });
    expect(res.status).toBe(200);
    // Order is the patch module's business; what matters here is the merge by `port`.
    const merged = (res.body as Body).spec.ports.map((p: Body) => [p.name, p.targetPort]).sort();
    expect(merged).toEqual([
      ['http', 80],
      ['https', 8443],
    ]);
  });

  it('writes status through /status only, selects by spec.clusterIP and prints kubectl columns', async () => {
    const s = await sim();
    const created = (await s.request({ method: 'POST', path: `${ns}/services`, body: svc('lb', { type: 'LoadBalancer', ports: [{ port: 80 }] }) })).body as Body;
    expect(created.spec.ports[0].nodePort).toBeGreaterThanOrEqual(30000);
    expect(created.spec).toMatchObject({ externalTrafficPolicy: 'Cluster', allocateLoadBalancerNodePorts: true });
    const ingress = { loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } };
    const main = await s.request({ method: 'PUT', path: `${ns}/services/lb`, body: { ...created, status: ingress } });
    expect((main.body as Body).status).toEqual({ loadBalancer: {} });
    const st = await s.request({ method: 'PUT', path: `${ns}/services/lb/status`, body: { ...(main.body as Body), spec: {}, status: ingress } });
    expect((st.body as Body).status).toEqual(ingress);
    expect((st.body as Body).spec.type).toBe('LoadBalancer');
    await s.request({ method: 'POST', path: `${ns}/services`, body: svc('db', { clusterIP: 'None', selector: { app: 'db' } }) });
    const headless = await s.request({ method: 'GET', path: `${ns}/services?fieldSelector=spec.clusterIP%3DNone` });
    expect((headless.body as Body).items.map((i: Body) => i.metadata.name)).toEqual(['db']);
    const t = (await s.request({ method: 'GET', path: `${ns}/services`, headers: table })).body as Body;
    expect(t.columnDefinitions.filter((c: Body) => c.priority === 0).map((c: Body) => c.name)).toEqual(['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age']);
    expect(t.rows[0].cells.slice(0, 5)).toEqual(['db', 'ClusterIP', 'None', '<none>', '<none>']);
    expect(t.rows[1].cells.slice(0, 5)).toEqual(['lb', 'LoadBalancer', created.spec.clusterIP, '203.0.113.7', `80:${created.spec.ports[0].nodePort}/TCP`]);
  });
});

describe('PersistentVolumeClaim', () => {
  const pvc = (name: string, spec: Body = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } }) => ({ metadata: { name }, spec });

  it('defaults volumeMode and phase and returns the object on delete', async () => {
    const s = await sim();
    const res = await s.request({ method: 'POST', path: `${ns}/persistentvolumeclaims`, body: { ...pvc('data-web-0'), status: { phase: 'Bound' } } });
    expect(res.status).toBe(201);
    expect((res.body as Body).spec.volumeMode).toBe('Filesystem');
    expect((res.body as Body).status).toEqual({ phase: 'Pending' });
    const del = await s.request({ method: 'DELETE', path: `${ns}/persistentvolumeclaims/data-web-0` });
    expect((del.body as Body).kind).toBe('PersistentVolumeClaim');
  });

  it('requires access modes and a storage request', async () => {
    const s = await sim();
    const res = await s.request({ method: 'POST', path: `${ns}/persistentvolumeclaims`, body: pvc('c', {}) });
    expect(res.status).toBe(422);
    expect(message(res)).toBe('PersistentVolumeClaim "c" is invalid: [spec.accessModes: Required value: at least 1 access mode is required, spec.resources[storage]: Required value]');
    const mode = await s.request({ method: 'POST', path: `${ns}/persistentvolumeclaims`, body: pvc('c', { accessModes: ['ReadWriteSometimes'], resources: { requests: { storage: '0' } } }) });
    expect(message(mode)).toBe(
      'PersistentVolumeClaim "c" is invalid: [spec.accessModes: Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod", spec.resources[storage]: Invalid value: "0": must be greater than zero]',
    );
  });

  it('keeps the spec immutable except expansion of a bound claim', async () => {
    const s = await sim();
    const c = (await s.request({ method: 'POST', path: `${ns}/persistentvolumeclaims`, body: pvc('c') })).body as Body;
    const grow = { ...c, spec: { ...c.spec, resources: { requests: { storage: '2Gi' } } } };
    const pending = await s.request({ method: 'PUT', path: `${ns}/persistentvolumeclaims/c`, body: grow });
    expect(message(pending)).toBe('PersistentVolumeClaim "c" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims');
    const bind = await s.request({
      method: 'PUT',
      path: `${ns}/persistentvolumeclaims/c/status`,
      body: { ...c, status: { phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' } } },
    });
    expect((bind.body as Body).status.phase).toBe('Bound');
    const volume = await s.request({ method: 'PUT', path: `${ns}/persistentvolumeclaims/c`, body: { ...(bind.body as Body), spec: { ...c.spec, volumeName: 'pv-1' } } });
    expect(volume.status).toBe(200);
    const bound = volume.body as Body;
    const expanded = await s.request({ method: 'PUT', path: `${ns}/persistentvolumeclaims/c`, body: { ...bound, spec: { ...bound.spec, resources: { requests: { storage: '2Gi' } } } } });
    expect(expanded.status).toBe(200);
    const modes = await s.request({ method: 'PUT', path: `${ns}/persistentvolumeclaims/c`, body: { ...(expanded.body as Body), spec: { ...bound.spec, accessModes: ['ReadWriteMany'] } } });
    expect(message(modes)).toContain('spec: Forbidden: spec is immutable after creation');
    const shrink = await s.request({ method: 'PUT', path: `${ns}/persistentvolumeclaims/c`, body: { ...(expanded.body as Body), spec: { ...bound.spec, resources: { requests: { storage: '512Mi' } } } } });
    expect(message(shrink)).toBe('PersistentVolumeClaim "c" is invalid: spec.resources.requests.storage: Forbidden: field can not be less than status.capacity');
  });

  it('refuses field selectors beyond metadata and prints kubectl columns', async () => {
    const s = await sim();
    await s.request({ method: 'POST', path: `${ns}/persistentvolumeclaims`, body: pvc('c', { accessModes: ['ReadWriteOnce', 'ReadOnlyMany'], storageClassName: 'fast', resources: { requests: { storage: '1Gi' } } }) });
    const byName = await s.request({ method: 'GET', path: `${ns}/persistentvolumeclaims?fieldSelector=metadata.name%3Dc` });
    expect((byName.body as Body).items).toHaveLength(1);
    const bad = await s.request({ method: 'GET', path: `${ns}/persistentvolumeclaims?fieldSelector=status.phase%3DBound` });
    expect(bad.status).toBe(400);
    const t = (await s.request({ method: 'GET', path: `${ns}/persistentvolumeclaims/c`, headers: table })).body as Body;
    expect(t.columnDefinitions.filter((c: Body) => c.priority === 0).map((c: Body) => c.name)).toEqual(['Name', 'Status', 'Volume', 'Capacity', 'Access Modes', 'StorageClass', 'VolumeAttributesClass', 'Age']);
    expect(t.rows[0].cells).toEqual(['c', 'Pending', '', '', '', 'fast', '<unset>', '0s', 'Filesystem']);
  });
});

describe('Event', () => {
  const event = (name: string, extra: Body = {}) => ({
    metadata: { name },
    involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-0', apiVersion: 'v1' },
    reason: 'SuccessfulCreate',
    message: 'create Pod web-0 in StatefulSet web successful',
    type: 'Normal',
    source: { component: 'statefulset-controller' },
    firstTimestamp: '2026-01-01T00:00:00Z',
    lastTimestamp: '2026-01-01T00:00:00Z',
    count: 1,
    ...extra,
  });

  it('is created, updated and deleted as is', async () => {
    const s = await sim();
    const res = await s.request({ method: 'POST', path: `${ns}/events`, body: event('web.1') });
    expect(res.status).toBe(201);
    const put = await s.request({ method: 'PUT', path: `${ns}/events/web.1`, body: { ...(res.body as Body), count: 2 } });
    expect((put.body as Body).count).toBe(2);
    const del = await s.request({ method: 'DELETE', path: `${ns}/events/web.1` });
    expect((del.body as Body).kind).toBe('Status');
  });

  it('requires the involved object in the event namespace', async () => {
    const s = await sim();
    await s.request({ method: 'POST', path: '/api/v1/namespaces', body: { metadata: { name: 'other' } } });
    const res = await s.request({ method: 'POST', path: '/api/v1/namespaces/other/events', body: event('web.1') });
    expect(message(res)).toBe('Event "web.1" is invalid: involvedObject.namespace: Invalid value: "default": does not match event.namespace');
    const node = await s.request({ method: 'POST', path: `${ns}/events`, body: event('node.1', { involvedObject: { kind: 'Node', name: 'node-1' } }) });
    expect(node.status).toBe(201);
  });

  it('checks the reporting fields and lengths of new-style events', async () => {
    const s = await sim();
    const res = await s.request({ method: 'POST', path: `${ns}/events`, body: event('e', { eventTime: '2026-01-01T00:00:00.000000Z', reason: 'r'.repeat(129), message: 'm'.repeat(1025) }) });
    expect(message(res)).toBe(
      'Event "e" is invalid: [reportingController: Required value, reportingController: Invalid value: "": name part must be non-empty, reportingController: Invalid value: "": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\'), reportingInstance: Required value, action: Required value, reason: Invalid value: "": can have at most 128 characters, message: Invalid value: "": can have at most 1024 characters]',
    );
    const ok = await s.request({ method: 'POST', path: `${ns}/events`, body: event('e', { eventTime: '2026-01-01T00:00:00.000000Z', reportingComponent: 'platform.io/statefulset-controller', reportingInstance: 'sim', action: 'Create' }) });
    expect(ok.status).toBe(201);
  });

  it('selects by involved object, reason, type and source, and prints kubectl columns', async () => {
    const s = await sim();
    await s.request({ method: 'POST', path: `${ns}/events`, body: event('a') });
    await s.request({ method: 'POST', path: `${ns}/events`, body: event('b', { involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-1' }, type: 'Warning', reason: 'FailedCreate', source: {}, reportingComponent: 'sim' }) });
    const names = async (selector: string) =>
      ((await s.request({ method: 'GET', path: `${ns}/events?fieldSelector=${encodeURIComponent(selector)}` })).body as Body).items.map((i: Body) => i.metadata.name);
    expect(await names('involvedObject.name=web-0')).toEqual(['a']);
    expect(await names('involvedObject.kind=Pod,type=Warning')).toEqual(['b']);
    expect(await names('reason=SuccessfulCreate')).toEqual(['a']);
    expect(await names('source=sim')).toEqual(['b']);
    expect(await names('reportingComponent=sim')).toEqual(['b']);
    await s.advance('90s');
    const t = (await s.request({ method: 'GET', path: `${ns}/events`, headers: table })).body as Body;
    expect(t.columnDefinitions.filter((c: Body) => c.priority === 0).map((c: Body) => c.name)).toEqual(['Last Seen', 'Type', 'Reason', 'Object', 'Message']);
    expect(t.rows[0].cells).toEqual(['90s', 'Normal', 'SuccessfulCreate', 'pod/web-0', '', 'statefulset-controller', 'create Pod web-0 in StatefulSet web successful', '90s', 1, 'a']);
  });
});
