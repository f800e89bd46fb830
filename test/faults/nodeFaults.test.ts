/**
 * `node` fault rules (docs/faults.md): a pod never ready, pods failing, a node lost — in virtual
 * time, keyed on the k-th matching pod or on its state, replayable from the seed — and what
 * Kubernetes v1.34 does about a lost node: Ready Unknown after the 50 s grace period, the
 * unreachable taints, pods marked unready, evicted after their 300 s toleration and stuck
 * Terminating until a force delete, replacements Pending; all of it undone when the kubelet returns.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation, type NodeFault, type Simulation, type SimulationOptions } from '../../src/index.ts';

type Body = Record<string, any>;

const start = '2026-01-01T00:00:00Z';
const sets = '/apis/apps/v1/namespaces/default/statefulsets';
const pods = '/api/v1/namespaces/default/pods';
const at = (seconds: number): string => new Date(Date.parse(start) + seconds * 1000).toISOString().replace('.000Z', 'Z');

async function sim(options: SimulationOptions = {}): Promise<Simulation> {
  return createSimulation({ seed: 1, startTime: start, checkInvariants: true, ...options });
}

async function createSet(s: Simulation, replicas: number, template: Body = {}): Promise<void> {
  const spec = { containers: [{ name: 'app', image: 'nginx:1.27' }], ...template };
  const body = { metadata: { name: 'web' }, spec: { replicas, serviceName: 'web', selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec } } };
  expect((await s.request({ method: 'POST', path: sets, body })).status).toBe(201);
}

const get = async (s: Simulation, path: string): Promise<Body> => (await s.request({ method: 'GET', path })).body as Body;
const pod = (s: Simulation, name: string): Promise<Body> => get(s, `${pods}/${name}`);
const podNames = async (s: Simulation): Promise<string[]> => (await get(s, pods)).items.map((p: Body) => p.metadata.name);
const condition = (o: Body, type: string): Body | undefined => o.status?.conditions?.find((c: Body) => c.type === type);
const ready = (o: Body): string | undefined => condition(o, 'Ready')?.status;
const memory = (s: Simulation): Body => (s.world.controllers['node-agent'] as Body).faults ?? {};
const events = async (s: Simulation, reason: string): Promise<Body[]> => (await get(s, '/api/v1/namespaces/default/events')).items.filter((e: Body) => e.reason === reason);

describe('podNeverReady', () => {
  it('stalls an OrderedReady StatefulSet at web-1 while installed, and lets it go on once cleared', async () => {
    const s = await sim({ podReadyAfter: '10s' });
    s.injectFaults([{ kind: 'node', action: 'podNeverReady', names: ['web-1'] }]);
    await createSet(s, 3);
    await s.advance('10s');
    expect(ready(await pod(s, 'web-0'))).toBe('True');
    await s.advance('5m');
    const held = await pod(s, 'web-1');
    expect(held.status.phase).toBe('Running');
    expect(ready(held)).toBe('False');
    expect(held.metadata.annotations).toBeUndefined();
    expect(await podNames(s)).toEqual(['web-0', 'web-1']);
    expect((await get(s, `${sets}/web`)).status.readyReplicas).toBe(1);
    expect(Object.values(memory(s))).toMatchObject([{ fired: 1, passed: 0 }]);

    s.clearFaults();
    await s.advance('1s');
    // Ready at the first step after the clear, as the agent would have made it then.
    expect(condition(await pod(s, 'web-1'), 'Ready')).toMatchObject({ status: 'True', lastTransitionTime: at(310) });
    expect(await podNames(s)).toEqual(['web-0', 'web-1', 'web-2']);
    await s.advance('10s');
    expect((await get(s, `${sets}/web`)).status.readyReplicas).toBe(3);
    expect(memory(s)).toEqual({});
  });

  it('keys on pod state (`when`) and lets the first pods through (`after`)', async () => {
    const s = await sim({ podReadyAfter: '5s' });
    s.injectFaults([{ kind: 'node', action: 'podNeverReady', when: { 'metadata.labels.tier': 'db' }, after: 1 }]);
    for (const [name, tier] of [['a', 'db'], ['b', 'web'], ['c', 'db'], ['d', 'db']] as const) {
      await s.request({ method: 'POST', path: pods, body: { metadata: { name, labels: { tier } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } } });
    }
    await s.advance('1m');
    // a: the first db pod, let through; b: not a db pod; c and d: held.
    expect(await Promise.all(['a', 'b', 'c', 'd'].map(async (n) => ready(await pod(s, n))))).toEqual(['True', 'True', 'False', 'False']);
    expect(Object.values(memory(s))).toMatchObject([{ fired: 2, passed: 1 }]);
  });

  it("keeps a held pod's later steps on time", async () => {
    const s = await sim();
    s.injectFaults([{ kind: 'node', action: 'podNeverReady' }]);
    await s.request({ method: 'POST', path: pods, body: { metadata: { name: 'doomed', annotations: { 'sim.platform.io/fail-after': '1m' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } } });
    await s.advance('2m');
    expect((await pod(s, 'doomed')).status.containerStatuses[0].state.terminated.finishedAt).toBe(at(60));
  });
});

describe('podFails', () => {
  it('fails a running pod with the fail-after status, and the StatefulSet controller replaces it', async () => {
    const s = await sim();
    await createSet(s, 2);
    const before = await pod(s, 'web-1');
    s.injectFaults([{ kind: 'node', action: 'podFails', names: ['web-1'], times: 1, from: '30s' }]);
    await s.advance('29s');
    expect((await pod(s, 'web-1')).metadata.uid).toBe(before.metadata.uid);
    const trace = s.trace().length;
    await s.advance('1s');
    const failed = s.trace().slice(trace).find((e) => e.type === 'write' && e.by === 'node-agent' && e.name === 'web-1' && e.change === 'MODIFIED');
    expect(failed).toMatchObject({ at: at(30) });
    const replaced = await pod(s, 'web-1');
    expect(replaced.metadata.uid).not.toBe(before.metadata.uid);
    expect(replaced.status.phase).toBe('Running');
    expect(ready(replaced)).toBe('True');
    expect((await events(s, 'SuccessfulDelete')).map((e) => e.message)).toEqual(['delete Pod web-1 in StatefulSet web successful']);
    expect(Object.values(memory(s))).toMatchObject([{ fired: 1 }]);
    // The counts the agent keeps are shown with the rule, as every kind's are.
    expect(s.faults()).toMatchObject([{ rule: { action: 'podFails' }, fired: 1 }]);
    expect(((await s.request({ method: 'GET', path: '/sim/v1/faults' })).body as Body).faults).toMatchObject([{ fired: 1 }]);
  });

  it('writes exactly the status of the fail-after path', async () => {
    const s = await sim();
    for (const [name, annotations] of [['annotated', { 'sim.platform.io/fail-after': '10s' }], ['faulted', {}]] as const) {
      await s.request({ method: 'POST', path: pods, body: { metadata: { name, annotations }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } } });
    }
    s.injectFaults([{ kind: 'node', action: 'podFails', names: ['faulted'], from: '10s' }]);
    await s.advance('10s');
    const faulted = await pod(s, 'faulted');
    expect(faulted.status.phase).toBe('Failed');
    expect(faulted.status.containerStatuses[0].state.terminated).toEqual({ exitCode: 1, reason: 'Error', finishedAt: at(10) });
    const shape = (p: Body) => ({ ...p.status, podIP: undefined, podIPs: undefined, containerStatuses: p.status.containerStatuses.map((c: Body) => ({ ...c, containerID: undefined })) });
    expect(shape(faulted)).toEqual(shape(await pod(s, 'annotated')));
  });

  it('fails a pod created later once it runs, each pod once', async () => {
    const s = await sim();
    s.injectFaults([{ kind: 'node', action: 'podFails', names: ['late'] }]);
    const trace = s.trace().length;
    await s.request({ method: 'POST', path: pods, body: { metadata: { name: 'late' }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } } });
    const phases = s
      .trace()
      .slice(trace)
      .filter((e) => e.type === 'write' && e.by === 'node-agent')
      .map((e) => (e.type === 'write' ? e.summary : ''));
    expect(phases).toEqual(['1/1 Running 0', '0/1 Error 0']);
    expect(Object.values(memory(s))).toMatchObject([{ fired: 1 }]);
  });

  it('draws `probability` per pod from the seed: the same seed fails the same pods', async () => {
    const run = async (seed: number): Promise<{ failed: string[]; hash: string }> => {
      const s = await sim({ seed });
      for (let i = 0; i < 12; i++) await s.request({ method: 'POST', path: pods, body: { metadata: { name: `p${i}` }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } } });
      s.injectFaults([{ kind: 'node', action: 'podFails', probability: 0.5 }]);
      await s.settle();
      const failed = (await get(s, pods)).items.filter((p: Body) => p.status.phase === 'Failed').map((p: Body) => p.metadata.name);
      return { failed, hash: s.hash() };
    };
    const a = await run(7);
    const b = await run(7);
    expect(b).toEqual(a);
    expect(a.failed.length).toBeGreaterThan(0);
    expect(a.failed.length).toBeLessThan(12);
    const others = await Promise.all([8, 9, 10].map(async (seed) => (await run(seed)).failed.join()));
    expect(new Set([a.failed.join(), ...others]).size).toBeGreaterThan(1);
  });
});

describe('nodeLost', () => {
  it('is refused with pod selections or occurrence counts: the whole node is lost, once', async () => {
    const s = await sim();
    expect(() => s.injectFaults([{ kind: 'node', action: 'nodeLost', names: ['web-0'] }])).toThrow('faults[0].names: a nodeLost rule loses the whole node at a moment of virtual time (from), not some pods or occurrences');
    expect(() => s.injectFaults([{ kind: 'node', action: 'nodeLost', probability: 0.5 }])).toThrow(/faults\[0\]\.probability: a nodeLost rule/);
    expect(s.faults()).toEqual([]);
  });

  it('goes Unknown after the grace period, evicts after 300 s, holds replacements until a force delete, and recovers', async () => {
    const s = await sim();
    await createSet(s, 2);
    s.injectFaults([{ kind: 'node', action: 'nodeLost' }]);
    await s.advance('49s');
    expect(ready(await get(s, '/api/v1/nodes/node-1'))).toBe('True');
    expect(ready(await pod(s, 'web-0'))).toBe('True');

    await s.advance('1s');
    const node = await get(s, '/api/v1/nodes/node-1');
    expect(condition(node, 'Ready')).toEqual({
      type: 'Ready',
      status: 'Unknown',
      lastHeartbeatTime: at(0),
      lastTransitionTime: at(50),
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
    });
    expect(node.spec.taints).toEqual([
      { key: 'node.platform.io/unreachable', effect: 'NoSchedule', timeAdded: at(50) },
      { key: 'node.platform.io/unreachable', effect: 'NoExecute', timeAdded: at(50) },
    ]);
    expect(condition(await pod(s, 'web-0'), 'Ready')).toMatchObject({ status: 'False', lastTransitionTime: at(50) });
    expect(condition(await pod(s, 'web-0'), 'ContainersReady')?.status).toBe('True');
    expect((await events(s, 'NodeNotReady')).map((e) => `${e.type} ${e.involvedObject.name} ${e.message}`)).toEqual([
      'Normal node-1 Node node-1 status is now: NodeNotReady',
      'Warning web-0 Node is not ready',
      'Warning web-1 Node is not ready',
    ]);
    expect((await get(s, `${sets}/web`)).status.readyReplicas ?? 0).toBe(0);

    await s.advance('299s');
    expect((await pod(s, 'web-0')).metadata.deletionTimestamp).toBeUndefined();
    await s.advance('1s');
    const evicted = await pod(s, 'web-0');
    // Evicted at 350 s: a graceful delete, its deletionTimestamp the 30 s grace period later.
    expect(evicted.metadata.deletionTimestamp).toBe(at(380));
    expect(condition(evicted, 'DisruptionTarget')).toMatchObject({ status: 'True', reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint' });
    expect((await events(s, 'TaintManagerEviction')).map((e) => e.message)).toEqual(['Marking for deletion Pod default/web-0', 'Marking for deletion Pod default/web-1']);

    // No kubelet confirms the deletion: Terminating however long, and no replacement (at most one pod per ordinal).
    await s.advance('1h');
    const uids = [(await pod(s, 'web-0')).metadata.uid, (await pod(s, 'web-1')).metadata.uid];
    expect(uids).toEqual([evicted.metadata.uid, expect.any(String)]);
    expect((await pod(s, 'web-1')).metadata.deletionTimestamp).toBeDefined();

    // A force delete lets the StatefulSet controller replace web-0, which cannot be scheduled.
    expect((await s.request({ method: 'DELETE', path: `${pods}/web-0?gracePeriodSeconds=0` })).status).toBe(200);
    const pending = await pod(s, 'web-0');
    expect(pending.metadata.uid).not.toBe(evicted.metadata.uid);
    expect(pending.spec.nodeName).toBeUndefined();
    expect(pending.status.phase).toBe('Pending');
    expect(condition(pending, 'PodScheduled')).toEqual({
      type: 'PodScheduled',
      status: 'False',
      lastProbeTime: null,
      lastTransitionTime: expect.any(String),
      reason: 'Unschedulable',
      message: '0/1 nodes are available: 1 node(s) had untolerated taint(s). preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
    });
    await s.advance('10m');
    expect((await pod(s, 'web-0')).spec.nodeName).toBeUndefined();
    expect(Object.values(memory(s))).toMatchObject([{ fired: 1 }]);

    // The kubelet comes back: Ready again, the taints go, the terminating pod is removed, life goes on.
    s.clearFaults();
    await s.advance('1s');
    const back = await get(s, '/api/v1/nodes/node-1');
    expect(condition(back, 'Ready')).toMatchObject({ status: 'True', reason: 'NodeAgentReady' });
    expect(back.spec.taints).toBeUndefined();
    expect((await pod(s, 'web-0')).spec.nodeName).toBe('node-1');
    await s.advance('1s');
    const set = (await get(s, `${sets}/web`)).status;
    expect(set).toMatchObject({ replicas: 2, readyReplicas: 2 });
    for (const name of ['web-0', 'web-1']) {
      const p = await pod(s, name);
      expect([p.metadata.deletionTimestamp, ready(p)]).toEqual([undefined, 'True']);
    }
  });

  it('reports Ready again the pods it had made Ready, when it comes back before any eviction', async () => {
    const s = await sim();
    await createSet(s, 1);
    s.injectFaults([{ kind: 'node', action: 'nodeLost', from: '10s' }]);
    await s.advance('59s');
    expect(ready(await get(s, '/api/v1/nodes/node-1'))).toBe('True');
    await s.advance('1s');
    expect(condition(await get(s, '/api/v1/nodes/node-1'), 'Ready')).toMatchObject({ status: 'Unknown', lastHeartbeatTime: at(10), lastTransitionTime: at(60) });
    expect(ready(await pod(s, 'web-0'))).toBe('False');
    await s.advance('1m');
    s.clearFaults();
    await s.settle();
    expect(condition(await pod(s, 'web-0'), 'Ready')).toMatchObject({ status: 'True', lastTransitionTime: at(120) });
    expect((await get(s, `${sets}/web`)).status.readyReplicas).toBe(1);
  });

  it("honours a pod's own unreachable toleration, and names the taint as the names mode does", async () => {
    const s = await sim({ groupDomain: 'k8s.io' });
    const tolerant = (name: string, toleration: Body) => ({ metadata: { name }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], tolerations: [toleration] } });
    await s.request({ method: 'POST', path: pods, body: tolerant('forever', { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' }) });
    await s.request({ method: 'POST', path: pods, body: tolerant('minute', { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }) });
    s.injectFaults([{ kind: 'node', action: 'nodeLost' }]);
    await s.advance('50s');
    expect((await get(s, '/api/v1/nodes/node-1')).spec.taints.map((t: Body) => t.key)).toEqual(['node.kubernetes.io/unreachable', 'node.kubernetes.io/unreachable']);
    await s.advance('59s');
    expect((await pod(s, 'minute')).metadata.deletionTimestamp).toBeUndefined();
    await s.advance('1s');
    // Evicted at 110 s: a graceful delete, its deletionTimestamp the 30 s grace period later.
    expect((await pod(s, 'minute')).metadata.deletionTimestamp).toBe(at(140));
    await s.advance('1h');
    expect((await pod(s, 'forever')).metadata.deletionTimestamp).toBeUndefined();
  });
});

describe('replay', () => {
  it('gives the same world for the same seed and the same rules', async () => {
    const run = async (): Promise<string> => {
      const rules: NodeFault[] = [
        { kind: 'node', action: 'podNeverReady', names: ['web-2'] },
        { kind: 'node', action: 'podFails', names: ['web-0'], times: 1, from: '20s' },
        { kind: 'node', action: 'nodeLost', from: '1m' },
      ];
      const s = await sim({ seed: 42, podReadyAfter: '5s', faults: rules });
      await createSet(s, 3);
      await s.advance('10m');
      s.clearFaults();
      await s.advance('1m');
      return s.hash();
    };
    expect(await run()).toBe(await run());
  });
});
