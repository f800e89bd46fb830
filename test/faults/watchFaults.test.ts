/**
 * `watch` fault rules through the public library: a dropped event a client-node informer never
 * hears of (its cache goes stale), a stream held back in virtual time until sim.advance, a watch
 * ended with 410 Expired that makes an informer re-list, selection by name and object state,
 * `after`/`times`, and seeded probability replaying the same drops for the same seed.
 */
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { Simulation, WatchEvent } from '../../src/index.ts';
import { simulationKubeConfig } from '../../src/testing.ts';
import { sim, type Body } from '../helpers.ts';

const path = '/api/v1/namespaces/default/configmaps';
const summary = (events: readonly WatchEvent[]): string[] => events.map((e) => `${e.type} ${(e.object as Body).metadata?.name ?? ''}`.trim());

async function createCM(s: Simulation, name: string, data: Record<string, string> = {}): Promise<Body> {
  const res = await s.request({ method: 'POST', path, body: { metadata: { name }, data } });
  expect(res.status).toBe(201);
  return res.body as Body;
}

/** A promise resolved once `pred` holds, checked on each call of the returned `check`. */
function once(pred: () => boolean): { done: Promise<void>; check: () => void } {
  let resolve = (): void => {};
  const done = new Promise<void>((r) => (resolve = r));
  return { done, check: () => (pred() ? resolve() : undefined) };
}

describe('watch faults: drop', () => {
  it('drops the matching event for the watcher; later events still come with their own resourceVersions', async () => {
    const s = await sim();
    s.injectFaults([{ kind: 'watch', action: 'drop', resources: ['configmaps'], names: ['b'] }]);
    const w = s.watch(`${path}?resourceVersion=${s.world.revision}`);
    const a = await createCM(s, 'a');
    await createCM(s, 'b');
    const c = await createCM(s, 'c');
    const events = w.drain();
    expect(summary(events)).toEqual(['ADDED a', 'ADDED c']);
    expect(events.map((e) => (e.object as Body).metadata.resourceVersion)).toEqual([a.metadata.resourceVersion, c.metadata.resourceVersion]);
    // Other resources' watches are not concerned.
    const sa = s.watch(`/api/v1/namespaces/default/serviceaccounts?resourceVersion=${s.world.revision}`);
    await s.request({ method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts', body: { metadata: { name: 'b' } } });
    expect(summary(sa.drain())).toEqual(['ADDED b']);
    w.close();
    sa.close();
  });

  it('leaves a client-node informer with a stale cache: it never hears of the dropped object', async () => {
    const s = await sim();
    s.injectFaults([{ kind: 'watch', action: 'drop', names: ['b'] }]);
    const kc = await simulationKubeConfig(s, { k8s });
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const informer = k8s.makeInformer(kc, path, () => core.listNamespacedConfigMap({ namespace: 'default' }));
    const added: string[] = [];
    const sawC = once(() => added.includes('c'));
    informer.on('add', (cm) => {
      added.push(cm.metadata!.name!);
      sawC.check();
    });
    await informer.start();
    for (const name of ['a', 'b', 'c']) await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name } } });
    await sawC.done;
    await informer.stop();
    expect(added).toEqual(['a', 'c']);
    expect(informer.list().map((cm) => cm.metadata?.name).sort()).toEqual(['a', 'c']);
    expect((await core.listNamespacedConfigMap({ namespace: 'default' })).items.map((cm) => cm.metadata?.name)).toEqual(['a', 'b', 'c']);
  });

  it('selects by object state (`when`) and counts occurrences (`after`, `times`)', async () => {
    const s = await sim();
    s.injectFaults([
      { kind: 'watch', action: 'drop', when: { 'data.tier': 'cold' } },
      { kind: 'watch', action: 'drop', names: ['n1', 'n2', 'n3', 'n4'], after: 1, times: 2 },
    ]);
    const w = s.watch(`${path}?resourceVersion=${s.world.revision}`);
    await createCM(s, 'hot', { tier: 'hot' });
    await createCM(s, 'cold', { tier: 'cold' });
    await s.request({ method: 'PATCH', path: `${path}/hot`, headers: { 'content-type': 'application/merge-patch+json' }, body: { data: { tier: 'cold' } } });
    for (const name of ['n1', 'n2', 'n3', 'n4']) await createCM(s, name);
    expect(summary(w.drain())).toEqual(['ADDED hot', 'ADDED n1', 'ADDED n4']);
    w.close();
  });

  it('applies to the initial events of a watch without a resourceVersion', async () => {
    const s = await sim();
    await createCM(s, 'a');
    await createCM(s, 'b');
    s.injectFaults([{ kind: 'watch', action: 'drop', names: ['a'] }]);
    const w = s.watch(path);
    expect(summary(w.drain())).toEqual(['ADDED b']);
    w.close();
  });
});

describe('watch faults: delay', () => {
  it('holds the stream back from the matching event on until the clock reaches event time + delay, in order', async () => {
    const s = await sim();
    s.injectFaults([{ kind: 'watch', action: 'delay', delay: '10s', names: ['a'], times: 1 }]);
    const w = s.watch(`${path}?resourceVersion=${s.world.revision}`);
    await createCM(s, 'early');
    expect(summary(w.drain())).toEqual(['ADDED early']);
    await createCM(s, 'a');
    await s.request({ method: 'PATCH', path: `${path}/a`, headers: { 'content-type': 'application/merge-patch+json' }, body: { data: { x: '1' } } });
    await createCM(s, 'b');
    expect(w.drain()).toEqual([]);
    await s.advance('9s');
    expect(w.drain()).toEqual([]);
    await s.advance('1s');
    const events = w.drain();
    expect(summary(events)).toEqual(['ADDED a', 'MODIFIED a', 'ADDED b']);
    const rvs = events.map((e) => Number((e.object as Body).metadata.resourceVersion));
    expect([...rvs].sort((x, y) => x - y)).toEqual(rvs);
    // The hold is over: the next event comes at once.
    await createCM(s, 'c');
    expect(summary(w.drain())).toEqual(['ADDED c']);
    w.close();
  });

  it('holds bookmarks behind the held events, so a bookmark never runs ahead of them', async () => {
    const s = await sim();
    s.injectFaults([{ kind: 'watch', action: 'delay', delay: '90s' }]);
    const w = s.watch(`${path}?resourceVersion=${s.world.revision}&allowWatchBookmarks=true`);
    const a = await createCM(s, 'a');
    await s.advance('60s');
    expect(w.drain()).toEqual([]);
    await s.advance('30s');
    const events = w.drain();
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK']);
    expect(Number((events[1]!.object as Body).metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(a.metadata.resourceVersion));
    w.close();
  });
});

describe('watch faults: expire', () => {
  it('ends the watch with the real 410 Expired ERROR', async () => {
    const s = await sim();
    s.injectFaults([{ kind: 'watch', action: 'expire', resources: ['configmaps'], after: 1 }]);
    const w = s.watch(`${path}?resourceVersion=${s.world.revision}`);
    const a = await createCM(s, 'a');
    await createCM(s, 'b');
    await createCM(s, 'c');
    const events = w.drain();
    expect(summary(events).slice(0, 1)).toEqual(['ADDED a']);
    expect(events.slice(1)).toEqual([
      {
        type: 'ERROR',
        object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `too old resource version: ${a.metadata.resourceVersion} (${Number(a.metadata.resourceVersion) + 1})`, reason: 'Expired', code: 410 },
      },
    ]);
    expect(w.closed).toBe(true);
    expect(await w.next()).toEqual({ value: undefined, done: true });
  });

  it('makes a client-node informer re-list, after which its cache is whole again', async () => {
    const s = await sim();
    s.injectFaults([{ kind: 'watch', action: 'expire', times: 1 }]);
    const kc = await simulationKubeConfig(s, { k8s });
    const core = kc.makeApiClient(k8s.CoreV1Api);
    let lists = 0;
    const relisted = once(() => lists === 2);
    const informer = k8s.makeInformer(kc, path, async () => {
      lists++;
      const list = await core.listNamespacedConfigMap({ namespace: 'default' });
      relisted.check();
      return list;
    });
    const added: string[] = [];
    const sawB = once(() => added.includes('b'));
    informer.on('add', (cm) => {
      added.push(cm.metadata!.name!);
      sawB.check();
    });
    await informer.start();
    expect(lists).toBe(1);
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a' } } });
    await relisted.done;
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'b' } } });
    await sawB.done;
    await informer.stop();
    expect(lists).toBe(2);
    expect(added).toEqual(['a', 'b']);
    expect(informer.list().map((cm) => cm.metadata?.name).sort()).toEqual(['a', 'b']);
  });
});

describe('watch faults: replay', () => {
  /** The names a watch delivers out of 24 creations with a 50% drop rule. */
  async function delivered(seed: number): Promise<string[]> {
    const s = await sim({ seed, faults: [{ kind: 'watch', action: 'drop', probability: 0.5 }] });
    const w = s.watch(`${path}?resourceVersion=${s.world.revision}`);
    for (let i = 0; i < 24; i++) await createCM(s, `cm-${i}`);
    const names = summary(w.drain()).map((e) => e.split(' ')[1]!);
    w.close();
    return names;
  }

  it('drops the same events for the same seed, other events for another seed', async () => {
    const first = await delivered(5);
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThan(24);
    expect(await delivered(5)).toEqual(first);
    expect(await delivered(6)).not.toEqual(first);
  });
});
