/**
 * Determinism: the same seed and inputs give the same world hash; a snapshot restored mid-run
 * and continued ends where the uninterrupted run ends.
 */
import { describe, expect, it } from 'vitest';
import { restoreSimulation, type Simulation } from '../src/index.ts';
import { createSA, saPath, sim } from './helpers.ts';

async function firstHalf(s: Simulation) {
  for (let i = 0; i < 5; i++) await s.request({ method: 'POST', path: saPath(), body: { metadata: { generateName: 'w-' } } });
  await createSA(s, 'fixed', { secrets: [{ name: 'x' }] });
  await s.advance('90s');
}

async function secondHalf(s: Simulation) {
  await s.request({ method: 'PATCH', path: saPath('default', 'fixed'), headers: { 'content-type': 'application/strategic-merge-patch+json' }, body: { secrets: [{ name: 'y' }] } });
  for (let i = 0; i < 3; i++) await s.request({ method: 'POST', path: saPath(), body: { metadata: { generateName: 'v-' } } });
  await s.request({ method: 'DELETE', path: saPath('default', 'fixed') });
  await s.advance('7m');
}

describe('determinism', () => {
  it('gives the same hash for the same seeded run', async () => {
    const a = await sim({ seed: 42 });
    const b = await sim({ seed: 42 });
    await firstHalf(a);
    await secondHalf(a);
    await firstHalf(b);
    await secondHalf(b);
    expect(a.hash()).toBe(b.hash());
    expect(a.hash()).toMatch(/^[0-9a-f]{64}$/);
    const c = await sim({ seed: 43 });
    await firstHalf(c);
    await secondHalf(c);
    expect(c.hash()).not.toBe(a.hash());
  });

  it('continues a restored snapshot to the same final hash', async () => {
    const whole = await sim({ seed: 9 });
    await firstHalf(whole);
    await secondHalf(whole);
    const part = await sim({ seed: 9 });
    await firstHalf(part);
    const snap = JSON.parse(JSON.stringify(part.snapshot()));
    const resumed = await restoreSimulation(snap);
    expect(resumed.hash()).toBe(part.hash());
    await secondHalf(resumed);
    expect(resumed.hash()).toBe(whole.hash());
    expect(resumed.now()).toBe(whole.now());
  });

  it('keeps the world JSON round-trippable', async () => {
    const s = await sim();
    await firstHalf(s);
    expect(JSON.parse(JSON.stringify(s.world))).toEqual(s.world);
  });
});
