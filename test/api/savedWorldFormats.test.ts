/**
 * Saved worlds of the earlier format (world@1: tries with two slot levels; in the oldest saves the
 * node agent's bookkeeping as plain records by pod uid) restore as the world they hold: the same
 * digest as the world that saved them, no step applied twice, a simulation that carries on.
 */
import { describe, expect, it } from 'vitest';
import { restoreSimulation, type Snapshot } from '../../src/index.ts';
import { trieGet, trieKeys, type Trie } from '../../src/store/trie.ts';
import { sim } from '../helpers.ts';

const pods = '/api/v1/namespaces/default/pods';

/** FNV-1a, as world@1 placed keys: slots h & 63, then (h >>> 6) & 63. */
function fnv(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A trie written the world@1 way, values converted by `value`. */
function twoLevels<T>(t: Trie<T>, value: (v: T) => unknown = (v) => v): Record<string, Record<string, Record<string, unknown>>> {
  const out: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const k of trieKeys(t)) {
    const h = fnv(k);
    ((out[String(h & 63)] ??= {})[String((h >>> 6) & 63)] ??= {})[k] = value(trieGet(t, k)!);
  }
  return out;
}

describe('saved world formats', () => {
  it('reads a world@1 snapshot as the world it holds', async () => {
    const s = await sim({ podReadyAfter: '1s' });
    await s.request({
      method: 'POST',
      path: '/apis/apps/v1/namespaces/default/statefulsets',
      body: { metadata: { name: 'web' }, spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, serviceName: 'web', template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'a', image: 'x' }] } } } },
    });
    await s.advance('5s');
    const snap = s.snapshot();
    const w = snap.world;
    const agent = w.controllers['node-agent'] as { applied: Trie<unknown>; ips: Trie<unknown>; nextIp: number };
    const old = {
      ...w,
      format: 'platform-sim/world@1',
      objects: Object.fromEntries(Object.entries(w.objects).map(([r, byNs]) => [r, twoLevels(byNs, (byName) => twoLevels(byName))])),
      owners: twoLevels(w.owners, (deps) => twoLevels(deps)),
      controllers: { ...w.controllers, 'node-agent': { ...agent, applied: twoLevels(agent.applied), ips: twoLevels(agent.ips) } },
    };
    const restored = await restoreSimulation({ ...snap, world: old } as unknown as Snapshot);
    expect(restored.world.format).toBe('platform-sim/world@2');
    expect(restored.hash()).toBe(s.hash());
    // It carries on: a scale-down goes through the garbage collector's owner index and the node agent.
    await restored.request({ method: 'PATCH', path: '/apis/apps/v1/namespaces/default/statefulsets/web', headers: { 'content-type': 'application/merge-patch+json' }, body: { spec: { replicas: 1 } } });
    await restored.advance('5s');
    await s.request({ method: 'PATCH', path: '/apis/apps/v1/namespaces/default/statefulsets/web', headers: { 'content-type': 'application/merge-patch+json' }, body: { spec: { replicas: 1 } } });
    await s.advance('5s');
    expect(restored.hash()).toBe(s.hash());
    const pods = (await restored.request({ method: 'GET', path: '/api/v1/namespaces/default/pods' })).body as { items: { metadata: { name: string } }[] };
    expect(pods.items.map((p) => p.metadata.name)).toEqual(['web-0']);
  });

  it('reads the node agent records of the oldest saves: steps already applied stay applied', async () => {
    const s = await sim({ podReadyAfter: '1s' });
    await s.request({ method: 'POST', path: pods, body: { metadata: { name: 'p' }, spec: { containers: [{ name: 'a', image: 'x' }] } } });
    await s.request({ method: 'POST', path: pods, body: { metadata: { name: 'q', annotations: { 'sim.platform.io/ready-after': '10s' } }, spec: { containers: [{ name: 'a', image: 'x' }] } } });
    await s.advance('2s');
    const snap = s.snapshot();
    const w = snap.world;
    const agent = w.controllers['node-agent'] as { applied: Trie<unknown>; ips: Trie<unknown>; nextIp: number };
    const record = <T,>(t: Trie<T>): Record<string, T> => Object.fromEntries(trieKeys(t).map((k) => [k, trieGet(t, k)!]));
    const old = {
      ...w,
      format: 'platform-sim/world@1',
      objects: Object.fromEntries(Object.entries(w.objects).map(([r, byNs]) => [r, twoLevels(byNs, (byName) => twoLevels(byName))])),
      owners: twoLevels(w.owners, (deps) => twoLevels(deps)),
      controllers: { ...w.controllers, 'node-agent': { applied: record(agent.applied), ips: record(agent.ips), nextIp: agent.nextIp } },
    };
    const r = await restoreSimulation({ ...snap, world: old } as unknown as Snapshot);
    expect(r.hash()).toBe(s.hash());
    const before = r.trace().length;
    await r.settle();
    expect(r.trace().slice(before).filter((e) => e.type === 'write')).toEqual([]);
    await r.advance('10s');
    const q = (await r.request({ method: 'GET', path: `${pods}/q` })).body as { status: { conditions: { type: string; status: string }[]; podIP: string } };
    expect(q.status.conditions.find((c) => c.type === 'Ready')?.status).toBe('True');
    const p = (await r.request({ method: 'GET', path: `${pods}/p` })).body as { status: { podIP: string } };
    expect(q.status.podIP).not.toBe(p.status.podIP);
  });

  it('refuses what is no saved world', async () => {
    const s = await sim();
    const snap = s.snapshot();
    await expect(restoreSimulation({ ...snap, world: { ...snap.world, format: 'platform-sim/world@0' } } as unknown as Snapshot)).rejects.toThrow(/^invalid snapshot: /);
  });
});
