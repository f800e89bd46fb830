/**
 * A world saved before the node agent kept its bookkeeping in tries (plain records by pod uid)
 * still restores: the agent reads the old records, applies no step twice and carries on.
 */
import { describe, expect, it } from 'vitest';
import { restoreSimulation, type Snapshot } from '../../src/index.ts';
import { sim } from '../helpers.ts';
import { trieKeys, trieGet, type Trie } from '../../src/store/trie.ts';

const pods = '/api/v1/namespaces/default/pods';

describe('node agent state saved by an older version', () => {
  it('is read as it was meant: steps already applied stay applied', async () => {
    const s = await sim({ podReadyAfter: '1s' });
    await s.request({ method: 'POST', path: pods, body: { metadata: { name: 'p' }, spec: { containers: [{ name: 'a', image: 'x' }] } } });
    await s.request({ method: 'POST', path: pods, body: { metadata: { name: 'q', annotations: { 'sim.platform.io/ready-after': '10s' } }, spec: { containers: [{ name: 'a', image: 'x' }] } } });
    await s.advance('2s');
    const snap = s.snapshot();
    const agent = snap.world.controllers['node-agent'] as { applied: Trie<string[]>; ips: Trie<string>; nextIp: number };
    const record = <T,>(t: Trie<T>): Record<string, T> => Object.fromEntries(trieKeys(t).map((k) => [k, trieGet(t, k)!]));
    const legacy: Snapshot = { ...snap, world: { ...snap.world, controllers: { ...snap.world.controllers, 'node-agent': { applied: record(agent.applied), ips: record(agent.ips), nextIp: agent.nextIp } } } };
    const r = await restoreSimulation(legacy);
    const before = r.trace().length;
    await r.settle();
    expect(r.trace().slice(before).filter((e) => e.type === 'write')).toEqual([]);
    await r.advance('10s');
    const q = (await r.request({ method: 'GET', path: `${pods}/q` })).body as { status: { conditions: { type: string; status: string }[]; podIP: string } };
    expect(q.status.conditions.find((c) => c.type === 'Ready')?.status).toBe('True');
    const p = (await r.request({ method: 'GET', path: `${pods}/p` })).body as { status: { podIP: string } };
    expect(q.status.podIP).not.toBe(p.status.podIP);
  });
});
