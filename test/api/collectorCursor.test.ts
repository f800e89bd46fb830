/**
 * The garbage collector's cursor: remembered only when the collector acts, when its memory is
 * new, after a relist, 8 revisions behind, or behind the revision the next compaction reaches;
 * between those the process's note of where it found nothing lets it read on. With or without the note (another simulation in between, a world
 * restored) the same writes come out, in the same order — checked here by world hashes, and on
 * every read under checkInvariants.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation, restoreSimulation, type Simulation } from '../../src/index.ts';
import { saPath, sim } from '../helpers.ts';

const collector = (s: Simulation): unknown => s.world.controllers['garbage-collector'];
const cms = '/api/v1/namespaces/default/configmaps';

/** Owners and dependents: deleting an owner leaves work for the collector. */
async function ownedWorld(s: Simulation, i: number): Promise<void> {
  const owner = await s.request<{ metadata: { uid: string } }>({ method: 'POST', path: cms, body: { metadata: { name: `owner-${i}` } } });
  for (const d of ['a', 'b']) {
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: `owner-${i}`, uid: owner.body.metadata.uid };
    await s.request({ method: 'POST', path: cms, body: { metadata: { name: `dep-${i}-${d}`, ownerReferences: [ref] } } });
  }
}

/** The same writes on one simulation: accounts patched, owners deleted, time moving. */
async function script(s: Simulation, from: number, to: number): Promise<void> {
  for (let i = from; i < to; i++) {
    await s.request({ method: 'POST', path: saPath('default'), body: { metadata: { name: `sa-${i}` } } });
    await ownedWorld(s, i);
    await s.request({ method: 'PATCH', path: saPath('default', `sa-${i}`), headers: { 'content-type': 'application/merge-patch+json' }, body: { automountServiceAccountToken: true } });
    if (i % 3 === 0) await s.request({ method: 'DELETE', path: `${cms}/owner-${i}` });
    if (i % 5 === 0) await s.advance('7m');
  }
}

describe('the garbage collector cursor', () => {
  it('is not written for a write nothing depends on, and is written when the collector acts', async () => {
    const s = await sim();
    await s.request({ method: 'POST', path: saPath('default'), body: { metadata: { name: 'robot' } } });
    const before = collector(s);
    expect(before).toEqual({ cursor: expect.any(Number) });
    await s.request({ method: 'PATCH', path: saPath('default', 'robot'), headers: { 'content-type': 'application/merge-patch+json' }, body: { automountServiceAccountToken: true } });
    expect(collector(s)).toBe(before);
    await ownedWorld(s, 0);
    await s.request({ method: 'DELETE', path: `${cms}/owner-0` });
    expect((await s.request({ method: 'GET', path: `${cms}/dep-0-a` })).status).toBe(404);
    expect(collector(s)).not.toBe(before);
    expect((collector(s) as { cursor: number }).cursor).toBeGreaterThan((before as { cursor: number }).cursor);
  });

  it('is written at least every 8 revisions', async () => {
    const s = await sim({ checkInvariants: false });
    await s.request({ method: 'POST', path: saPath('default'), body: { metadata: { name: 'robot' } } });
    for (let i = 0; i < 100; i++) {
      await s.request({ method: 'PATCH', path: saPath('default', 'robot'), headers: { 'content-type': 'application/merge-patch+json' }, body: { automountServiceAccountToken: i % 2 === 0 } });
      expect(s.world.revision - (collector(s) as { cursor: number }).cursor).toBeLessThan(8);
    }
  });

  it('is never overtaken by compaction (which would make it relist) while time moves after a few writes', async () => {
    const s = await sim({ checkInvariants: false });
    for (let i = 0; i < 5; i++) {
      await s.request({ method: 'POST', path: saPath('default'), body: { metadata: { name: `quiet-${i}` } } });
      for (const step of ['3m', '4m', '6m']) {
        await s.advance(step);
        // At or above what the next compaction tick compacts to.
        expect((collector(s) as { cursor: number }).cursor).toBeGreaterThanOrEqual(s.world.revisionAtLastCompaction);
      }
    }
  });

  it('gives the same worlds whether the note is there or not: interleaved, alone, restored', async () => {
    const options = { seed: 11, checkInvariants: true } as const;
    const alone = await createSimulation(options);
    await script(alone, 0, 12);
    // Two simulations taking turns: each one's note is overwritten by the other's.
    const a = await createSimulation(options);
    const b = await createSimulation(options);
    for (let i = 0; i < 12; i += 2) {
      await script(a, i, i + 2);
      await script(b, i, i + 2);
    }
    // Restored half-way: a fresh note-less start from the saved world.
    const first = await createSimulation(options);
    await script(first, 0, 6);
    const restored = await restoreSimulation(first.snapshot());
    await script(restored, 6, 12);
    expect(a.hash()).toBe(alone.hash());
    expect(b.hash()).toBe(alone.hash());
    expect(restored.hash()).toBe(alone.hash());
  });
});
