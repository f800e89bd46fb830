/**
 * The StatefulSet controller's pace (controllers/stateful-set/pacing.ts): one set gets at most
 * `limits.statefulSetPodWritesPerSecondMax` pod creations and deletions per virtual second, and a
 * set with more to do gets its next batch when the next second starts — so a request that makes
 * a huge set answers after one batch, and `advance` adds one batch per virtual second.
 */
import { describe, expect, it } from 'vitest';
import type { Simulation } from '../../src/index.ts';
import { limits } from '../../src/core/limits.ts';
import { sim, type Body } from '../helpers.ts';

const sets = '/apis/apps/v1/namespaces/default/statefulsets';
const podsPath = '/api/v1/namespaces/default/pods';
const claimsPath = '/api/v1/namespaces/default/persistentvolumeclaims';
const batch = limits.statefulSetPodWritesPerSecondMax;
/** Two full batches and part of a third. */
const replicas = 2 * batch + 200;
const int32Max = 2 ** 31 - 1;

function setBody(spec: Body): Body {
  return {
    metadata: { name: 'web' },
    spec: {
      serviceName: 'web',
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1' }] } },
      ...spec,
    },
  };
}

async function create(s: Simulation, spec: Body): Promise<void> {
  const res = await s.request({ method: 'POST', path: sets, body: setBody(spec) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

/** The ordinals of the set's pods, ascending. */
async function ordinals(s: Simulation, path = podsPath): Promise<number[]> {
  const items = (await s.request({ method: 'GET', path })).body.items as Body[];
  return items.map((o) => Number(String(o.metadata.name).split('-').at(-1))).sort((a, b) => a - b);
}

const upTo = (n: number, from = 0): number[] => Array.from({ length: n - from }, (_, i) => from + i);

async function status(s: Simulation): Promise<Body> {
  const res = await s.request({ method: 'GET', path: `${sets}/web` });
  expect(res.status).toBe(200);
  return res.body.status as Body;
}

/**
 * The controller's pod writes (creations, and deletions: a pod on a node is marked, the node agent
 * removes it) by second of virtual time; each second must have spent the batch at most, and the
 * busiest all of it.
 */
function expectBatchesAtMost(s: Simulation): void {
  const bySecond = new Map<string, number>();
  for (const e of s.trace()) {
    if (e.type !== 'write' || e.by !== 'statefulset-controller' || e.resource !== 'core/pods') continue;
    bySecond.set(e.at, (bySecond.get(e.at) ?? 0) + 1);
  }
  for (const [at, n] of bySecond) expect(n, at).toBeLessThanOrEqual(batch);
  expect(Math.max(...bySecond.values())).toBe(batch);
}

/** The sets the controller remembers as waiting for their next batch. */
function waiting(s: Simulation): string[] {
  const sets = ((s.world.controllers['statefulset-controller'] ?? {}) as { sets?: Record<string, { more?: boolean }> }).sets ?? {};
  return Object.keys(sets).filter((uid) => sets[uid]!.more === true);
}

describe('StatefulSet pace: pod writes per set and virtual second', () => {
  it('Parallel: creates one batch per virtual second, in ordinal order, the status right after each', async () => {
    const s = await sim();
    await create(s, { replicas, podManagementPolicy: 'Parallel' });
    expect(await ordinals(s)).toEqual(upTo(batch));
    expect(await status(s)).toMatchObject({ replicas: batch, readyReplicas: batch, currentReplicas: batch, updatedReplicas: batch, availableReplicas: batch });
    expect(waiting(s)).toHaveLength(1);
    // The next batch comes with the next virtual second, not before.
    await s.advance('999ms');
    expect(await ordinals(s)).toEqual(upTo(batch));
    await s.advance('1ms');
    expect(await ordinals(s)).toEqual(upTo(2 * batch));
    expect(await status(s)).toMatchObject({ replicas: 2 * batch, readyReplicas: 2 * batch });
    await s.advance('1s');
    expect(await ordinals(s)).toEqual(upTo(replicas));
    expect(await status(s)).toMatchObject({ replicas, readyReplicas: replicas, currentReplicas: replicas, availableReplicas: replicas });
    // Created in ascending order within and across batches.
    const created = s.trace().flatMap((e) => (e.type === 'write' && e.change === 'ADDED' && /^web-\d+$/.test(e.name) ? [Number(e.name.slice(4))] : []));
    expect(created).toEqual(upTo(replicas));
    // Done: nothing waits, and time passing changes nothing.
    expect(waiting(s)).toEqual([]);
    await s.advance('10s');
    expect(await ordinals(s)).toEqual(upTo(replicas));
  });

  it('Parallel: scales down one batch per virtual second, from the highest ordinal, creations of the second counted', async () => {
    const s = await sim();
    await create(s, { replicas, podManagementPolicy: 'Parallel' });
    await s.advance('2s');
    expect(await ordinals(s)).toHaveLength(replicas);
    // The last 200 were created in this second: 300 deletions are left to it.
    const scale = (n: number) => s.request({ method: 'PATCH', path: `${sets}/web`, headers: { 'content-type': 'application/merge-patch+json' }, body: { spec: { replicas: n } } });
    expect((await scale(0)).status).toBe(200);
    expect(await ordinals(s)).toEqual(upTo(replicas - (batch - 200)));
    expect(await status(s)).toMatchObject({ replicas: replicas - (batch - 200) });
    await s.advance('1s');
    expect(await ordinals(s)).toEqual(upTo(replicas - (2 * batch - 200)));
    expect(await status(s)).toMatchObject({ replicas: replicas - (2 * batch - 200) });
    // Scaling up again within the second: its deletions spent the budget.
    expect((await scale(replicas)).status).toBe(200);
    expect(await ordinals(s)).toEqual(upTo(replicas - (2 * batch - 200)));
    await s.advance('1s');
    expect(await ordinals(s)).toEqual(upTo(replicas - (2 * batch - 200) + batch));
    expect((await scale(0)).status).toBe(200);
    await s.advance('3s');
    expect(await ordinals(s)).toEqual([]);
    expect((await status(s)).replicas).toBe(0);
    expectBatchesAtMost(s);
  });

  it('Parallel: a rolling update with maxUnavailable 100% deletes and recreates within the budget of each second', async () => {
    const s = await sim();
    await create(s, { replicas, podManagementPolicy: 'Parallel', updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '100%' } } });
    await s.advance('2s');
    const res = await s.request({ method: 'PATCH', path: `${sets}/web`, headers: { 'content-type': 'application/merge-patch+json' }, body: { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:2' }] } } } } });
    expect(res.status).toBe(200);
    await s.advance('10s');
    const st = await status(s);
    expect(st).toMatchObject({ replicas, updatedReplicas: replicas, readyReplicas: replicas, currentRevision: st.updateRevision });
    expectBatchesAtMost(s);
  });

  it('counts claims with their pod: a batch is that many members, each with its claims', async () => {
    const s = await sim();
    const volumeClaimTemplates = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }];
    await create(s, { replicas, podManagementPolicy: 'Parallel', volumeClaimTemplates });
    expect(await ordinals(s)).toEqual(upTo(batch));
    expect(await ordinals(s, claimsPath)).toEqual(upTo(batch));
    await s.advance('1s');
    expect(await ordinals(s)).toEqual(upTo(2 * batch));
    expect(await ordinals(s, claimsPath)).toEqual(upTo(2 * batch));
  });

  it('gives the same world for the same seed and requests', async () => {
    const run = async (): Promise<string> => {
      const s = await sim();
      // Two batches and a scale-down within the third second: every path of the pacing once.
      await create(s, { replicas: batch + 100, podManagementPolicy: 'Parallel' });
      await s.advance('1500ms');
      await s.request({ method: 'PATCH', path: `${sets}/web`, headers: { 'content-type': 'application/merge-patch+json' }, body: { spec: { replicas: 100 } } });
      await s.advance('3s');
      return s.hash();
    };
    expect(await run()).toBe(await run());
  });

  it(`Parallel, ${int32Max} replicas: the request answers after one batch, and the simulation stays usable`, async () => {
    const s = await sim();
    await create(s, { replicas: int32Max, podManagementPolicy: 'Parallel' });
    expect(await ordinals(s)).toEqual(upTo(batch));
    expect(await status(s)).toMatchObject({ replicas: batch, readyReplicas: batch });
    const other = await s.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: { metadata: { name: 'still-answering' } } });
    expect(other.status).toBe(201);
    await s.advance('2s');
    expect(await ordinals(s)).toEqual(upTo(3 * batch));
    expect(waiting(s)).toHaveLength(1);
  });

  it(`OrderedReady, ${int32Max} replicas with pods Ready at once: one pod per sync, their syncs within a second sharing its budget`, async () => {
    const s = await sim();
    await create(s, { replicas: int32Max });
    expect(await ordinals(s)).toEqual(upTo(batch));
    // The rest of the second adds none; the next second's batch is the Parallel tests' business.
    await s.advance('999ms');
    expect(await ordinals(s)).toEqual(upTo(batch));
    expect(waiting(s)).toHaveLength(1);
    expect(s.trace().filter((e) => e.type === 'rejected')).toEqual([]);
  });

  it('OrderedReady at a realistic size: unchanged, and nothing waits', async () => {
    const s = await sim({ podReadyAfter: '10s' });
    await create(s, { replicas: 3 });
    expect(await ordinals(s)).toEqual([0]);
    await s.advance('10s');
    expect(await ordinals(s)).toEqual([0, 1]);
    await s.advance('10s');
    expect(await ordinals(s)).toEqual([0, 1, 2]);
    expect(waiting(s)).toEqual([]);
    // The controller forgets a second once it has passed.
    await s.advance('1s');
    await s.request({ method: 'PATCH', path: `${sets}/web`, headers: { 'content-type': 'application/merge-patch+json' }, body: { spec: { minReadySeconds: 1 } } });
    expect(s.world.controllers['statefulset-controller']).toEqual({});
  });
});
