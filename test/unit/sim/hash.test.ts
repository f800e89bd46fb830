/**
 * The world digest: a function of the world's content only (a JSON copy hashes the same, however
 * the parts are shared), changed by any change, and cheap to take again after one write.
 */
import { describe, expect, it } from 'vitest';
import { hashedContainers, hashWorld } from '../../../src/sim/hash.ts';
import { createSimulation, restoreSimulation } from '../../../src/index.ts';
import type { World } from '../../../src/store/world.ts';

const accounts = '/api/v1/namespaces/default/serviceaccounts';

describe('hashWorld', () => {
  it('is the same for a JSON copy, and for a restored snapshot', async () => {
    const s = await createSimulation({ seed: 3 });
    for (let i = 0; i < 50; i++) await s.request({ method: 'POST', path: accounts, body: { metadata: { name: `sa-${i}`, labels: { i: String(i) } } } });
    const copy = JSON.parse(JSON.stringify(s.world)) as World;
    expect(hashWorld(copy)).toBe(s.hash());
    const restored = await restoreSimulation(s.snapshot());
    expect(restored.hash()).toBe(s.hash());
  });

  it('changes with any change, deep or shallow, and comes back with the content', async () => {
    const s = await createSimulation({ seed: 3 });
    await s.request({ method: 'POST', path: accounts, body: { metadata: { name: 'a', labels: { x: '1' } } } });
    const w = s.world;
    const h = hashWorld(w);
    const edit = (f: (c: World) => void): string => {
      const c = JSON.parse(JSON.stringify(w)) as World;
      f(c);
      return hashWorld(c);
    };
    // The stored ServiceAccount `a`, reached through the tries without knowing its slots.
    const sa = (c: World): Record<string, unknown> => {
      const find = (v: unknown): Record<string, unknown> | undefined => {
        if (v === null || typeof v !== 'object') return undefined;
        const o = v as Record<string, unknown>;
        if (typeof o['apiVersion'] === 'string' && (o['metadata'] as { name?: string } | undefined)?.name === 'a') return o;
        for (const x of Object.values(o)) {
          const f = find(x);
          if (f !== undefined) return f;
        }
        return undefined;
      };
      return find(c.objects['core/serviceaccounts'])!;
    };
    expect(edit(() => {})).toBe(h);
    expect(edit((c) => ((sa(c)['metadata'] as { labels: Record<string, string> }).labels['x'] = '2'))).not.toBe(h);
    expect(edit((c) => ((c as { now: number }).now += 1))).not.toBe(h);
    expect(edit((c) => ((c as { controllers: Record<string, unknown> }).controllers = { ...c.controllers, extra: [1] }))).not.toBe(h);
    expect(edit((c) => ((sa(c)['metadata'] as { labels: Record<string, string> }).labels['x'] = '1'))).toBe(h);
  });

  it('costs the change after one write, not the store', async () => {
    const s = await createSimulation({ seed: 3, settle: 'manual' });
    for (let i = 0; i < 2000; i++) s.requestSync({ method: 'POST', path: accounts, body: { metadata: { name: `sa-${i}` } } });
    const before = s.hash();
    s.requestSync({ method: 'PATCH', path: `${accounts}/sa-7`, headers: { 'content-type': 'application/merge-patch+json' }, body: { automountServiceAccountToken: true } });
    // Counted, not timed: the digest after one write hashes a handful of containers.
    const hashed = countHashes(() => s.hash());
    expect(s.hash()).not.toBe(before);
    expect(hashed).toBeLessThan(40);
  });
});

/** How many containers a call digests afresh (the digest cache misses). */
function countHashes(f: () => void): number {
  const before = hashedContainers();
  f();
  return hashedContainers() - before;
}
