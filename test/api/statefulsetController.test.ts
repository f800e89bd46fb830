/**
 * The StatefulSet controller observed through the API, rule by rule (spec document 3 and
 * reference/statefulset.md §5–§9): which pods and claims exist, with which revision and state,
 * after each step of virtual time.
 */
import { describe, expect, it } from 'vitest';
import type { Simulation } from '../../src/index.ts';
import { sim, type Body } from '../helpers.ts';

const sets = '/apis/apps/v1/namespaces/default/statefulsets';
const podsPath = '/api/v1/namespaces/default/pods';
const claimsPath = '/api/v1/namespaces/default/persistentvolumeclaims';
const revisionsPath = '/apis/apps/v1/namespaces/default/controllerrevisions';

function setBody(name: string, spec: Body = {}, annotations: Record<string, string> = {}, image = 'nginx:1'): Body {
  const { template, ...rest } = spec;
  return {
    metadata: { name },
    spec: {
      replicas: 3,
      serviceName: name,
      selector: { matchLabels: { app: name } },
      template: template ?? { metadata: { labels: { app: name }, annotations }, spec: { containers: [{ name: 'app', image }] } },
      ...rest,
    },
  };
}

async function create(s: Simulation, name: string, spec: Body = {}, annotations: Record<string, string> = {}): Promise<Body> {
  const res = await s.request({ method: 'POST', path: sets, body: setBody(name, spec, annotations) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as Body;
}

async function get(s: Simulation, path: string): Promise<Body> {
  return (await s.request({ method: 'GET', path })).body as Body;
}

const ready = (p: Body): boolean => p.status?.phase === 'Running' && (p.status.conditions ?? []).some((c: Body) => c.type === 'Ready' && c.status === 'True');

/** The set's pods as `name` (ready) / `name~` (not ready) / `name†` (terminating), by ordinal. */
async function pods(s: Simulation, set = 'web'): Promise<string[]> {
  const items = ((await get(s, `${podsPath}?labelSelector=app%3D${set}`)).items as Body[]).sort((a, b) => Number(a.metadata.name.split('-').at(-1)) - Number(b.metadata.name.split('-').at(-1)));
  return items.map((p) => `${p.metadata.name}${p.metadata.deletionTimestamp !== undefined ? '†' : ready(p) ? '' : '~'}`);
}

async function revisionsOfPods(s: Simulation, set = 'web'): Promise<string[]> {
  const items = (await get(s, `${podsPath}?labelSelector=app%3D${set}`)).items as Body[];
  return items.map((p) => p.metadata.labels['controller-revision-hash']);
}

async function status(s: Simulation, name = 'web'): Promise<Body> {
  return (await get(s, `${sets}/${name}`)).status as Body;
}

async function patchSet(s: Simulation, name: string, patch: Body): Promise<void> {
  const res = await s.request({ method: 'PATCH', path: `${sets}/${name}`, headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify(patch) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function setImage(s: Simulation, name: string, image: string): Promise<void> {
  await patchSet(s, name, { spec: { template: { spec: { containers: [{ name: 'app', image }] } } } });
}

const slow = { podReadyAfter: '10s' };

describe('StatefulSet pods', () => {
  it('names, labels, owns and places pods as the real controller does', async () => {
    const s = await sim({ groupDomain: 'k8s.io' });
    const set = await create(s, 'web', { replicas: 2 });
    const pod = await get(s, `${podsPath}/web-1`);
    const st = await status(s);
    expect(pod.metadata.labels).toEqual({
      app: 'web',
      'statefulset.kubernetes.io/pod-name': 'web-1',
      'apps.kubernetes.io/pod-index': '1',
      'controller-revision-hash': st.updateRevision,
    });
    expect(pod.metadata.generateName).toBe('web-');
    expect(pod.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: set.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expect(pod.spec.hostname).toBe('web-1');
    expect(pod.spec.subdomain).toBe('web');
    expect(st.updateRevision).toMatch(/^web-[4-9bcdf]{1,10}$/);
    const revision = await get(s, `${revisionsPath}/${st.updateRevision}`);
    expect(revision.revision).toBe(1);
    expect(revision.metadata.labels['controller.kubernetes.io/hash']).toBe(st.updateRevision.slice(4));
    expect(revision.data.spec.template.$patch).toBe('replace');
  });

  it('uses the platform.io labels by default', async () => {
    const s = await sim();
    await create(s, 'web', { replicas: 1 });
    const pod = await get(s, `${podsPath}/web-0`);
    expect(Object.keys(pod.metadata.labels).sort()).toEqual(['app', 'apps.platform.io/pod-index', 'controller-revision-hash', 'statefulset.platform.io/pod-name']);
  });

  it('OrderedReady: creates in ascending order, each once the lower ones are ready, and halts on an unready pod', async () => {
    const s = await sim(slow);
    await create(s, 'web');
    expect(await pods(s)).toEqual(['web-0~']);
    await s.advance('9s');
    expect(await pods(s)).toEqual(['web-0~']);
    await s.advance('1s');
    expect(await pods(s)).toEqual(['web-0', 'web-1~']);
    // web-1 never becomes ready: web-2 is never created.
    await s.request({ method: 'PATCH', path: `${podsPath}/web-1`, headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ metadata: { annotations: { 'sim.platform.io/never-ready': 'true' } } }) });
    await s.advance('1m');
    expect(await pods(s)).toEqual(['web-0', 'web-1~']);
    expect(await status(s)).toMatchObject({ replicas: 2, readyReplicas: 1 });
  });

  it('OrderedReady: scales down from the highest ordinal, one at a time, each gone before the next', async () => {
    const s = await sim({ podReadyAfter: '1s' });
    await create(s, 'web', { replicas: 4, template: { metadata: { labels: { app: 'web' }, annotations: { 'sim.platform.io/terminate-after': '5s' } }, spec: { containers: [{ name: 'app', image: 'nginx:1' }] } } });
    await s.advance('4s');
    expect(await pods(s)).toEqual(['web-0', 'web-1', 'web-2', 'web-3']);
    await patchSet(s, 'web', { spec: { replicas: 1 } });
    expect(await pods(s)).toEqual(['web-0', 'web-1', 'web-2', 'web-3†']);
    await s.advance('5s');
    expect(await pods(s)).toEqual(['web-0', 'web-1', 'web-2†']);
    await s.advance('5s');
    expect(await pods(s)).toEqual(['web-0', 'web-1†']);
    await s.advance('5s');
    expect(await pods(s)).toEqual(['web-0']);
  });

  it('Parallel: creates and deletes all at once, whatever their health', async () => {
    const s = await sim(slow);
    await create(s, 'web', { replicas: 4, podManagementPolicy: 'Parallel' });
    expect(await pods(s)).toEqual(['web-0~', 'web-1~', 'web-2~', 'web-3~']);
    await patchSet(s, 'web', { spec: { replicas: 1 } });
    expect(await pods(s)).toEqual(['web-0~']);
  });

  it('deletes a failed pod and recreates it under the same name', async () => {
    const s = await sim({ podReadyAfter: '1s' });
    await create(s, 'web', { replicas: 2 });
    await s.advance('2s');
    const before = await get(s, `${podsPath}/web-0`);
    await s.request({ method: 'PUT', path: `${podsPath}/web-0/status`, body: { ...before, status: { ...before.status, phase: 'Failed' } } });
    const after = await get(s, `${podsPath}/web-0`);
    expect(after.metadata.uid).not.toBe(before.metadata.uid);
    const reasons = ((await get(s, '/api/v1/namespaces/default/events')).items as Body[]).map((e) => `${e.type} ${e.reason} ${e.message}`);
    // v1.31 dropped the RecreatingFailedPod event: the delete is reported like any other.
    expect(reasons.filter((r) => r.includes('RecreatingFailedPod'))).toEqual([]);
    expect(reasons).toContain('Normal SuccessfulDelete delete Pod web-0 in StatefulSet web successful');
  });

  it('repairs a pod whose identity label was removed', async () => {
    const s = await sim();
    await create(s, 'web', { replicas: 1 });
    await s.request({ method: 'PATCH', path: `${podsPath}/web-0`, headers: { 'content-type': 'application/json-patch+json' }, body: JSON.stringify([{ op: 'remove', path: '/metadata/labels/statefulset.platform.io~1pod-name' }]) });
    expect((await get(s, `${podsPath}/web-0`)).metadata.labels['statefulset.platform.io/pod-name']).toBe('web-0');
  });
});

describe('StatefulSet claims', () => {
  const claimTemplate = [{ metadata: { name: 'data', labels: { tier: 'db' } }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }];
  const claims = async (s: Simulation): Promise<string[]> => ((await get(s, claimsPath)).items as Body[]).map((c) => `${c.metadata.name}${(c.metadata.ownerReferences ?? []).map((r: Body) => `<${r.kind}`).join('')}`).sort();

  it('creates one claim per template and ordinal before the pod, labelled with the selector, wins over a same-named volume', async () => {
    const s = await sim();
    const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1' }], volumes: [{ name: 'data', emptyDir: {} }, { name: 'scratch', emptyDir: {} }] } };
    await create(s, 'web', { replicas: 2, volumeClaimTemplates: claimTemplate, template });
    expect(await claims(s)).toEqual(['data-web-0', 'data-web-1']);
    const claim = await get(s, `${claimsPath}/data-web-0`);
    expect(claim.metadata.labels).toEqual({ tier: 'db', app: 'web' });
    const pod = await get(s, `${podsPath}/web-0`);
    expect(pod.spec.volumes).toEqual([{ name: 'data', persistentVolumeClaim: { claimName: 'data-web-0' } }, { name: 'scratch', emptyDir: {} }]);
    const writes = s.trace().flatMap((e) => (e.type === 'write' && e.change === 'ADDED' && (e.name === 'data-web-0' || e.name === 'web-0') ? [e.name] : []));
    expect(writes).toEqual(['data-web-0', 'web-0']);
  });

  it('makes no pod whose claim was refused: FailedCreate, status still written, retried with backoff, never a livelock', async () => {
    const s = await sim();
    // A template without a name: the claim `-web-0` is not a valid name, as in Kubernetes.
    await create(s, 'web', { replicas: 2, volumeClaimTemplates: [{ spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] });
    expect(await pods(s)).toEqual([]);
    expect(await claims(s)).toEqual([]);
    expect((await status(s)).observedGeneration).toBe(1);
    const failed = ((await get(s, '/api/v1/namespaces/default/events')).items as Body[]).filter((e) => e.reason === 'FailedCreate');
    expect(failed.map((e) => e.message.split(' failed error: ')[0])).toEqual(['create Claim -web-0 for Pod web-0 in StatefulSet web']);
    await s.advance('10m');
    expect(await pods(s)).toEqual([]);
  });

  it('Retain/Retain: claims stay on scale-down and on delete, and are reused when the ordinal comes back', async () => {
    const s = await sim();
    await create(s, 'web', { replicas: 2, volumeClaimTemplates: claimTemplate, podManagementPolicy: 'Parallel' });
    const uid = (await get(s, `${claimsPath}/data-web-1`)).metadata.uid;
    await patchSet(s, 'web', { spec: { replicas: 1 } });
    expect(await claims(s)).toEqual(['data-web-0', 'data-web-1']);
    await patchSet(s, 'web', { spec: { replicas: 2 } });
    expect((await get(s, `${claimsPath}/data-web-1`)).metadata.uid).toBe(uid);
    await s.request({ method: 'DELETE', path: `${sets}/web` });
    await s.settle();
    expect(await claims(s)).toEqual(['data-web-0', 'data-web-1']);
    expect(await pods(s)).toEqual([]);
  });

  it('whenScaled Delete: a condemned pod owns its claims, which go with it', async () => {
    const s = await sim();
    await create(s, 'web', { replicas: 2, volumeClaimTemplates: claimTemplate, podManagementPolicy: 'Parallel', persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete' } });
    expect(await claims(s)).toEqual(['data-web-0', 'data-web-1']);
    await patchSet(s, 'web', { spec: { replicas: 1 } });
    await s.settle();
    expect(await claims(s)).toEqual(['data-web-0']);
    await s.request({ method: 'DELETE', path: `${sets}/web` });
    await s.settle();
    expect(await claims(s)).toEqual(['data-web-0']);
  });

  it('whenDeleted Delete: the set owns the claims, which go with it; whenScaled Retain keeps scaled-down ones until then', async () => {
    const s = await sim();
    await create(s, 'web', { replicas: 2, volumeClaimTemplates: claimTemplate, podManagementPolicy: 'Parallel', persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete' } });
    expect(await claims(s)).toEqual(['data-web-0<StatefulSet', 'data-web-1<StatefulSet']);
    await patchSet(s, 'web', { spec: { replicas: 1 } });
    expect(await claims(s)).toEqual(['data-web-0<StatefulSet', 'data-web-1<StatefulSet']);
    await s.request({ method: 'DELETE', path: `${sets}/web` });
    await s.settle();
    expect(await claims(s)).toEqual([]);
  });

  it('Delete/Delete: in-range claims owned by the set, condemned ones by their pod only', async () => {
    const s = await sim({ podReadyAfter: '1s' });
    await create(s, 'web', { replicas: 2, volumeClaimTemplates: claimTemplate, persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Delete' }, template: { metadata: { labels: { app: 'web' }, annotations: { 'sim.platform.io/terminate-after': '5s' } }, spec: { containers: [{ name: 'app', image: 'nginx:1' }] } } });
    await s.advance('2s');
    await patchSet(s, 'web', { spec: { replicas: 1 } });
    expect(await claims(s)).toEqual(['data-web-0<StatefulSet', 'data-web-1<Pod']);
    await s.advance('5s');
    expect(await claims(s)).toEqual(['data-web-0<StatefulSet']);
  });
});

describe('StatefulSet rolling update', () => {
  it('replaces pods from the highest ordinal down, one at a time, each once the one above is available', async () => {
    const s = await sim({ podReadyAfter: '1s' });
    await create(s, 'web');
    await s.advance('3s');
    const first = (await status(s)).updateRevision as string;
    await setImage(s, 'web', 'nginx:2');
    const second = (await status(s)).updateRevision as string;
    expect(second).not.toBe(first);
    const revs = async (): Promise<string> => (await revisionsOfPods(s)).map((r) => (r === first ? 'old' : r === second ? 'new' : '?')).join(' ');
    // web-2 went; it is recreated at the new revision at once, ready a second later.
    expect(await pods(s)).toEqual(['web-0', 'web-1', 'web-2~']);
    expect(await revs()).toBe('old old new');
    await s.advance('1s');
    expect(await revs()).toBe('old new new');
    await s.advance('1s');
    expect(await revs()).toBe('new new new');
    await s.advance('1s');
    expect(await status(s)).toMatchObject({ replicas: 3, readyReplicas: 3, updatedReplicas: 3, currentReplicas: 3, currentRevision: second, updateRevision: second });
  });

  it('partition: a canary above it, then a phased rollout; pods below come back at the old revision when deleted', async () => {
    const s = await sim({ podReadyAfter: '1s' });
    await create(s, 'web', { replicas: 4, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 3 } } });
    await s.advance('5s');
    const first = (await status(s)).updateRevision as string;
    await setImage(s, 'web', 'nginx:2');
    await s.advance('5s');
    const second = (await status(s)).updateRevision as string;
    const revs = async (): Promise<string> => (await revisionsOfPods(s)).map((r) => (r === first ? 'old' : 'new')).join(' ');
    expect(await revs()).toBe('old old old new');
    expect(await status(s)).toMatchObject({ currentRevision: first, updateRevision: second, currentReplicas: 3, updatedReplicas: 1 });
    await s.request({ method: 'DELETE', path: `${podsPath}/web-0` });
    await s.advance('2s');
    expect(await revs()).toBe('old old old new');
    await patchSet(s, 'web', { spec: { updateStrategy: { rollingUpdate: { partition: 1 } } } });
    await s.advance('5s');
    expect(await revs()).toBe('old new new new');
    await patchSet(s, 'web', { spec: { updateStrategy: { rollingUpdate: { partition: 0 } } } });
    await s.advance('5s');
    expect(await revs()).toBe('new new new new');
    expect(await status(s)).toMatchObject({ currentRevision: second, updateRevision: second, currentReplicas: 4 });
  });

  it('maxUnavailable: 2 replaces two pods at a time (a percentage rounds down, then at least 1)', async () => {
    const s = await sim({ podReadyAfter: '1s' });
    await create(s, 'web', { replicas: 5, podManagementPolicy: 'Parallel', updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '50%' } } });
    await s.advance('2s');
    const first = (await status(s)).updateRevision as string;
    await setImage(s, 'web', 'nginx:2');
    const revs = async (): Promise<string> => (await revisionsOfPods(s)).map((r) => (r === first ? 'o' : 'n')).join('');
    // 50% of 5 is 2.5: two pods at a time.
    expect(await revs()).toBe('ooonn');
    await s.advance('1s');
    expect(await revs()).toBe('onnnn');
    await s.advance('1s');
    expect(await revs()).toBe('nnnnn');
  });

  it('OnDelete: only deleted pods get the new revision; currentRevision stays', async () => {
    const s = await sim({ podReadyAfter: '1s' });
    await create(s, 'web', { replicas: 2, updateStrategy: { type: 'OnDelete' } });
    await s.advance('2s');
    const first = (await status(s)).updateRevision as string;
    await setImage(s, 'web', 'nginx:2');
    await s.advance('5s');
    expect(new Set(await revisionsOfPods(s))).toEqual(new Set([first]));
    await s.request({ method: 'DELETE', path: `${podsPath}/web-1` });
    await s.advance('2s');
    const st = await status(s);
    expect(await revisionsOfPods(s)).toEqual([first, st.updateRevision]);
    expect(st).toMatchObject({ currentRevision: first, currentReplicas: 1, updatedReplicas: 1 });
  });

  it('rolls back to the earlier revision, reusing its name with the next number', async () => {
    const s = await sim({ podReadyAfter: '1s' });
    await create(s, 'web', { replicas: 2 });
    await s.advance('2s');
    const first = (await status(s)).updateRevision as string;
    await setImage(s, 'web', 'nginx:2');
    await s.advance('5s');
    await setImage(s, 'web', 'nginx:1');
    await s.advance('5s');
    const st = await status(s);
    expect(st.updateRevision).toBe(first);
    expect(st.currentRevision).toBe(first);
    expect((await get(s, `${revisionsPath}/${first}`)).revision).toBe(3);
  });

  it('prunes revisions beyond revisionHistoryLimit, never a live one', async () => {
    const s = await sim({ podReadyAfter: '1s' });
    await create(s, 'web', { replicas: 1, revisionHistoryLimit: 1 });
    for (const v of ['2', '3', '4']) {
      await s.advance('2s');
      await setImage(s, 'web', `nginx:${v}`);
    }
    await s.advance('3s');
    const names = ((await get(s, revisionsPath)).items as Body[]).map((r) => r.revision as number).sort();
    expect(names).toEqual([3, 4]);
  });
});

describe('StatefulSet ordinals and time', () => {
  it('ordinals.start shifts the names; a changed start migrates pods (new range first, then old ones down)', async () => {
    const s = await sim({ podReadyAfter: '1s' });
    await create(s, 'web', { replicas: 2, ordinals: { start: 5 } });
    await s.advance('2s');
    expect(await pods(s)).toEqual(['web-5', 'web-6']);
    expect((await get(s, `${podsPath}/web-5`)).metadata.labels['apps.platform.io/pod-index']).toBe('5');
    await patchSet(s, 'web', { spec: { ordinals: { start: 6 } } });
    await s.advance('10s');
    expect(await pods(s)).toEqual(['web-6', 'web-7']);
  });

  it('minReadySeconds: available exactly that long after Ready, and OrderedReady waits for it', async () => {
    const s = await sim({ podReadyAfter: '1s' });
    await create(s, 'web', { replicas: 2, minReadySeconds: 10 });
    await s.advance('1s');
    expect(await status(s)).toMatchObject({ readyReplicas: 1 });
    expect((await status(s)).availableReplicas).toBe(0);
    await s.advance('9s');
    expect((await status(s)).availableReplicas).toBe(0);
    expect(await pods(s)).toEqual(['web-0']);
    await s.advance('1s');
    expect(await status(s)).toMatchObject({ availableReplicas: 1 });
    expect(await pods(s)).toEqual(['web-0', 'web-1~']);
  });

  it('status counts terminating and condemned pods as the real controller does', async () => {
    const s = await sim({ podReadyAfter: '1s' });
    await create(s, 'web', { replicas: 3, podManagementPolicy: 'Parallel', template: { metadata: { labels: { app: 'web' }, annotations: { 'sim.platform.io/terminate-after': '5s' } }, spec: { containers: [{ name: 'app', image: 'nginx:1' }] } } });
    await s.advance('2s');
    await patchSet(s, 'web', { spec: { replicas: 1 } });
    await s.advance('1s');
    const st = await status(s);
    // Terminating pods are still created pods and still ready; they are neither current nor updated.
    expect(st).toMatchObject({ replicas: 3, readyReplicas: 3, currentReplicas: 1, updatedReplicas: 1 });
    await s.advance('5s');
    expect(await status(s)).toMatchObject({ replicas: 1, readyReplicas: 1, currentReplicas: 1, updatedReplicas: 1, availableReplicas: 1 });
  });
  it('a ControllerRevision a client wrote with data that is not an object is compared, not a crash', async () => {
    const s = await sim();
    const set = await create(s, 'web', { replicas: 1 });
    const ref = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: set.metadata.uid, controller: true };
    const res = await s.request({ method: 'POST', path: revisionsPath, body: { metadata: { name: 'web-x', labels: { app: 'web' }, ownerReferences: [ref] }, data: 'x', revision: 5 } });
    expect(res.status).toBe(201);
    await setImage(s, 'web', 'nginx:2');
    expect((await pods(s)).length).toBe(1);
  });
});

describe('StatefulSet deletion and adoption', () => {
  it('Background: pods and revisions go with the set', async () => {
    const s = await sim();
    await create(s, 'web', { replicas: 2 });
    await s.request({ method: 'DELETE', path: `${sets}/web` });
    await s.settle();
    expect(await pods(s)).toEqual([]);
    expect((await get(s, revisionsPath)).items).toEqual([]);
  });

  it('Foreground: the set waits for its pods', async () => {
    const s = await sim();
    await create(s, 'web', { replicas: 2, template: { metadata: { labels: { app: 'web' }, annotations: { 'sim.platform.io/terminate-after': '5s' } }, spec: { containers: [{ name: 'app', image: 'nginx:1' }] } } });
    const res = await s.request({ method: 'DELETE', path: `${sets}/web`, body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground' } });
    expect(res.status).toBe(200);
    expect((await s.request({ method: 'GET', path: `${sets}/web` })).status).toBe(200);
    await s.advance('5s');
    expect((await s.request({ method: 'GET', path: `${sets}/web` })).status).toBe(404);
    expect(await pods(s)).toEqual([]);
  });

  it('Orphan: pods stay, and a new set with a matching selector adopts them', async () => {
    const s = await sim();
    await create(s, 'web', { replicas: 2 });
    const uids = ((await get(s, podsPath)).items as Body[]).map((p) => p.metadata.uid);
    await s.request({ method: 'DELETE', path: `${sets}/web`, body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Orphan' } });
    await s.settle();
    expect(((await get(s, podsPath)).items as Body[]).map((p) => p.metadata.ownerReferences)).toEqual([undefined, undefined]);
    const set = await create(s, 'web', { replicas: 2 });
    const after = (await get(s, podsPath)).items as Body[];
    expect(after.map((p) => p.metadata.uid)).toEqual(uids);
    expect(after.map((p) => p.metadata.ownerReferences[0].uid)).toEqual([set.metadata.uid, set.metadata.uid]);
  });

  it('releases a pod whose labels stop matching the selector', async () => {
    const s = await sim();
    await create(s, 'web', { replicas: 1 });
    await s.request({ method: 'PATCH', path: `${podsPath}/web-0`, headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ metadata: { labels: { app: 'other' } } }) });
    const released = await get(s, `${podsPath}/web-0`);
    expect(released.metadata.ownerReferences).toBeUndefined();
    // Its name is taken: the controller cannot create web-0 and says so.
    const events = ((await get(s, '/api/v1/namespaces/default/events')).items as Body[]).filter((e) => e.reason === 'FailedCreate');
    expect(events[0]).toMatchObject({ type: 'Warning', message: 'create Pod web-0 in StatefulSet web failed error: pods "web-0" already exists', involvedObject: { kind: 'StatefulSet', name: 'web' } });
  });
});

describe('StatefulSet events', () => {
  it('records SuccessfulCreate per pod, as the recorder writes them', async () => {
    const s = await sim();
    await create(s, 'web', { replicas: 1 });
    const events = (await get(s, '/api/v1/namespaces/default/events')).items as Body[];
    expect(events.map((e) => `${e.type} ${e.reason} ${e.message}`)).toEqual(['Normal SuccessfulCreate create Pod web-0 in StatefulSet web successful']);
    expect(events[0]!).toMatchObject({ source: { component: 'statefulset-controller' }, count: 1, involvedObject: { kind: 'StatefulSet', apiVersion: 'apps/v1', name: 'web', namespace: 'default' } });
    expect(events[0]!.metadata.name).toMatch(/^web\.[0-9a-f]+$/);
  });

  it('records FailedCreate and backs off when the template makes an invalid pod', async () => {
    const s = await sim();
    const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'Bad_Name', image: 'nginx:1' }] } };
    await create(s, 'web', { replicas: 1, template });
    const failed = () => s.request({ method: 'GET', path: '/api/v1/namespaces/default/events' }).then((r) => ((r.body as Body).items as Body[]).filter((e) => e.reason === 'FailedCreate'));
    const first = await failed();
    expect(first).toHaveLength(1);
    expect(first[0]!.message).toMatch(/^create Pod web-0 in StatefulSet web failed error: Pod "web-0" is invalid: /);
    await s.advance('1s');
    // Retried with backoff (5 ms, 10 ms, … doubling): the same event counted, not repeated.
    const later = await failed();
    expect(later).toHaveLength(1);
    expect(later[0]!.count).toBeGreaterThan(5);
    expect(later[0]!.count).toBeLessThan(12);
  });
});
