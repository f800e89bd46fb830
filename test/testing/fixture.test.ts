/**
 * withSimulation (src/testing/fixture.ts): a fresh simulation per test through vitest's
 * `test.extend`, per property run through @fast-check/vitest's `test.prop`, and per call of the
 * plain wrapper — each closed after it, even when the body throws.
 */
import { fc, test as fcTest } from '@fast-check/vitest';
import { describe, expect, it, test } from 'vitest';
import type { Simulation } from '../../src/index.ts';
import { withSimulation } from '../../src/testing/fixture.ts';
import { dnsLabel } from '../../src/testing/arbitraries.ts';

const s = withSimulation({ seed: 5, startTime: '2026-01-01T00:00:00Z' });
const fresh = (sim: Simulation) => sim.world.revision;

describe('withSimulation', () => {
  it('makes simulations with checkInvariants on and the given options', async () => {
    expect(s.options).toEqual({ checkInvariants: true, seed: 5, startTime: '2026-01-01T00:00:00Z' });
    expect(await s.use((sim) => sim.now())).toBe('2026-01-01T00:00:00Z');
    expect(await s.use((sim) => sim.world.seed, { seed: 9 })).toBe('9');
  });

  it('closes the simulation after the body, also when it throws', async () => {
    let stream: ReturnType<Simulation['watch']> | undefined;
    await expect(
      s.use((sim) => {
        stream = sim.watch('/api/v1/namespaces/default/configmaps');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(stream!.closed).toBe(true);
  });

  const first = { revision: 0 };
  const extended = test.extend<{ sim: Simulation }>({ sim: s.fixture });
  extended('gives each test its own simulation through test.extend (1)', async ({ sim }) => {
    first.revision = fresh(sim);
    await sim.create('/api/v1/namespaces/default/configmaps', { metadata: { name: 'x' } });
  });
  extended('gives each test its own simulation through test.extend (2)', async ({ sim }) => {
    expect(fresh(sim)).toBe(first.revision);
    expect((await sim.get('/api/v1/namespaces/default/configmaps/x')).status).toBe(404);
  });

  const names = new Set<string>();
  fcTest.prop([dnsLabel(fc)], { numRuns: 15 })(
    'gives every property run a fresh simulation through test.prop',
    s.prop(async (sim, name) => {
      // Same name twice would conflict in a shared simulation; a fresh one always accepts it.
      names.add(name);
      expect(fresh(sim)).toBe(await s.use(fresh));
      expect((await sim.create('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'same' } })).status).toBe(201);
      expect((await sim.create('/api/v1/namespaces/default/configmaps', { metadata: { name } })).status).toBe(201);
    }),
  );
  it('ran the property more than once', () => {
    expect(names.size).toBeGreaterThan(1);
  });
});
