/**
 * `staleRead` fault rules: a matching GET or non-exact LIST answered from the world as it was
 * `revisions` earlier, as a lagging watch cache answers. The history is made through the public
 * library; the reads go through the pure request pipeline with the simulation's decision handed in
 * as `ApiEnv.staleReads` (the hook the request step gives the API), threading the world by hand so
 * the counts and draws each read leaves are seen.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation, startingPoint, type Simulation, type SimulationOptions, type World } from '../../src/index.ts';
import type { FaultRule, FaultState } from '../../src/sim/faultRules.ts';
import { FactBook } from '../../src/sim/factBook.ts';
import { staleRead } from '../../src/sim/staleReads.ts';
import { serveRequest } from '../../src/endpoints/pipeline.ts';
import type { ApiEnv } from '../../src/endpoints/env.ts';
import { oldestReadableRevision } from '../../src/store/listPage.ts';
import { failure, type Body } from '../helpers.ts';

const options: SimulationOptions = { seed: 3, startTime: '2026-01-01T00:00:00Z' };
const path = '/api/v1/namespaces/default/configmaps';
const admin = { username: 'system:admin', groups: ['system:masters', 'system:authenticated'] };
const bob = { username: 'bob', groups: ['system:masters', 'system:authenticated'] };
const merge = { 'content-type': 'application/merge-patch+json' };

/** Reads through the pipeline with stale reads on, carrying the world each read leaves to the next. */
class Reader {
  world: World;
  readonly #env: ApiEnv;

  constructor(world: World, opts: SimulationOptions = options) {
    this.world = world;
    const start = startingPoint(opts);
    this.#env = { table: start.env.table, identity: start.env.identity, crypto: new FactBook(new Map()), staleReads: staleRead };
  }

  get(p: string, as = admin): { status: number; body: Body } {
    const handled = serveRequest(this.world, this.#env, { method: 'GET', path: p, headers: {}, identity: as });
    this.world = handled.world;
    return { status: handled.response.status, body: JSON.parse(handled.response.body) as Body };
  }

  get faults(): readonly FaultState[] {
    return (this.world.faults ?? []) as readonly FaultState[];
  }
}

/** A ConfigMap `c` written three times (v 1, 2, 3), `gone` deleted after them and `fresh` created last. */
async function history(s: Simulation): Promise<{ rvs: number[] }> {
  const rvs: number[] = [];
  const created = await s.request({ method: 'POST', path, body: { metadata: { name: 'c' }, data: { v: '1' } } });
  rvs.push(Number(created.body.metadata.resourceVersion));
  for (const v of ['2', '3']) rvs.push(Number((await s.request({ method: 'PATCH', path: `${path}/c`, headers: merge, body: { data: { v } } })).body.metadata.resourceVersion));
  await s.request({ method: 'POST', path, body: { metadata: { name: 'gone' } } });
  await s.request({ method: 'DELETE', path: `${path}/gone` });
  await s.request({ method: 'POST', path, body: { metadata: { name: 'fresh' } } });
  return { rvs };
}

async function withRules(rules: FaultRule[]): Promise<{ s: Simulation; reader: Reader; rvs: number[] }> {
  const s = await createSimulation(options);
  const { rvs } = await history(s);
  s.injectFaults(rules);
  return { s, reader: new Reader(s.world), rvs };
}

describe('staleRead faults', () => {
  it('answers a GET with the object as it was `revisions` earlier, and counts the firing in the world', async () => {
    const { reader } = await withRules([{ kind: 'staleRead', resources: ['configmaps'], revisions: 4 }]);
    const at = reader.world.revision - 4;
    const got = reader.get(`${path}/c`);
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual({ v: '2' });
    expect(Number(got.body.metadata.resourceVersion)).toBeLessThanOrEqual(at);
    expect(reader.faults.map((f) => f.fired)).toEqual([1]);
  });

  it('answers 404 with the real wording for an object that did not exist then, and finds one deleted since', async () => {
    const { reader } = await withRules([{ kind: 'staleRead', revisions: 2 }]);
    expect(reader.get(`${path}/fresh`)).toEqual({ status: 404, body: failure(404, 'NotFound', 'configmaps "fresh" not found', { name: 'fresh', kind: 'configmaps' }) });
    expect(reader.get(`${path}/gone`)).toMatchObject({ status: 200, body: { metadata: { name: 'gone' } } });
    expect(reader.faults.map((f) => f.fired)).toEqual([2]);
  });

  it('answers a LIST at the older revision, with that resourceVersion', async () => {
    const { reader } = await withRules([{ kind: 'staleRead', verbs: ['list'], revisions: 2 }]);
    const at = reader.world.revision - 2;
    const list = reader.get(path);
    expect(list.body.metadata.resourceVersion).toBe(String(at));
    // Then `gone` was there and `fresh` was not.
    expect(list.body.items.map((i: Body) => [i.metadata.name, i.data?.v])).toEqual([
      ['c', '3'],
      ['gone', undefined],
    ]);
    // verbs: a GET is not concerned.
    expect(reader.get(`${path}/fresh`).status).toBe(200);
    expect(reader.faults.map((f) => f.fired)).toEqual([1]);
  });

  it('pages a stale LIST consistently: the continue token is pinned to the older revision', async () => {
    const { reader } = await withRules([{ kind: 'staleRead', revisions: 2 }]);
    const at = reader.world.revision - 2;
    const first = reader.get(`${path}?limit=1`);
    expect(first.body.metadata.resourceVersion).toBe(String(at));
    const names = [first.body.items[0].metadata.name];
    let token: string | undefined = first.body.metadata.continue;
    for (let page = 0; page < 10 && token !== undefined; page++) {
      const next = reader.get(`${path}?limit=1&continue=${encodeURIComponent(token)}`);
      expect(next.body.metadata.resourceVersion).toBe(String(at));
      names.push(next.body.items[0].metadata.name);
      token = next.body.metadata.continue;
    }
    expect(names).toEqual(['c', 'gone']);
    // Only the first page was a stale read: the others asked for an exact revision.
    expect(reader.faults.map((f) => f.fired)).toEqual([1]);
  });

  it('never makes an exact read stale, and never answers older than the resourceVersion asked for', async () => {
    const { reader, rvs } = await withRules([{ kind: 'staleRead', revisions: 100 }]);
    const before = reader.world;
    const now = reader.world.revision;
    const exact = reader.get(`${path}?resourceVersion=${now}&resourceVersionMatch=Exact`);
    expect(exact.body.metadata.resourceVersion).toBe(String(now));
    expect(reader.world).toBe(before);
    // Not older than rvs[2] (v 3): the lagging cache waits until it has caught up with it.
    expect(reader.get(`${path}/c?resourceVersion=${rvs[2]}`).body.data).toEqual({ v: '3' });
    expect(reader.get(`${path}?resourceVersion=${rvs[1]}&resourceVersionMatch=NotOlderThan`).body.metadata.resourceVersion).toBe(String(rvs[1]));
    expect(reader.faults.map((f) => f.fired)).toEqual([2]);
  });

  it('is never older than the history kept: clamped to the oldest readable revision', async () => {
    const s = await createSimulation(options);
    await history(s);
    await s.advance('11m');
    await s.request({ method: 'PATCH', path: `${path}/c`, headers: merge, body: { data: { v: '4' } } });
    s.injectFaults([{ kind: 'staleRead', revisions: 100_000 }]);
    const reader = new Reader(s.world);
    const oldest = oldestReadableRevision(reader.world);
    expect(oldest).toBeGreaterThan(0);
    expect(reader.get(path).body.metadata.resourceVersion).toBe(String(oldest));
    expect(reader.get(`${path}/c`).body.data).toEqual({ v: '3' });
  });

  it('selects reads by user, name and namespace, and by the state of the object now (`when`, never met by a list)', async () => {
    const { reader } = await withRules([
      { kind: 'staleRead', users: ['bob'], names: ['c'], namespaces: ['default'], revisions: 4 },
      { kind: 'staleRead', when: { 'data.v': '3' }, revisions: 4 },
    ]);
    const now = reader.world.revision;
    expect(reader.get(`${path}/c`, bob).body.data).toEqual({ v: '2' });
    expect(reader.faults.map((f) => f.fired)).toEqual([1, 0]);
    expect(reader.get(`${path}/c`).body.data).toEqual({ v: '2' });
    expect(reader.faults.map((f) => f.fired)).toEqual([1, 1]);
    // `fresh` has no data.v: fresh; a list names no one object: fresh.
    expect(reader.get(`${path}/fresh`).status).toBe(200);
    expect(reader.get(path).body.metadata.resourceVersion).toBe(String(now));
    expect(reader.faults.map((f) => f.fired)).toEqual([1, 1]);
  });

  it('fires from the (after+1)-th matching read, `times` times', async () => {
    const { reader } = await withRules([{ kind: 'staleRead', names: ['c'], after: 1, times: 1, revisions: 4 }]);
    const seen = [0, 1, 2].map(() => reader.get(`${path}/c`).body.data.v);
    expect(seen).toEqual(['3', '2', '3']);
    expect(reader.faults).toEqual([{ rule: expect.objectContaining({ kind: 'staleRead' }), fired: 1, passed: 1 }]);
  });

  it('draws `probability` from the seed: the same reads are stale for the same seed', async () => {
    const run = async (seed: number): Promise<string> => {
      const opts = { ...options, seed };
      const s = await createSimulation(opts);
      await history(s);
      s.injectFaults([{ kind: 'staleRead', names: ['c'], probability: 0.5, revisions: 4 }]);
      const reader = new Reader(s.world, opts);
      return Array.from({ length: 24 }, () => reader.get(`${path}/c`).body.data.v).join('');
    };
    const first = await run(3);
    expect(first).toMatch(/2/);
    expect(first).toMatch(/3/);
    expect(await run(3)).toBe(first);
    expect(await run(4)).not.toBe(first);
  });
});

describe('staleRead through the library', () => {
  it('sim.request, a list and GET /sim/v1/faults see the rule act and count', async () => {
    const sim = await createSimulation(options);
    await sim.create(path, { metadata: { name: 'a' }, data: { v: '1' } });
    const before = sim.world.revision;
    await sim.create(path, { metadata: { name: 'b' } });
    sim.injectFaults([{ kind: 'staleRead', resources: ['configmaps'], revisions: 1, times: 2 }]);
    const list = (await sim.request({ method: 'GET', path })).body as Body;
    expect(list['metadata']).toMatchObject({ resourceVersion: String(before) });
    expect((list['items'] as Body[]).map((i) => (i['metadata'] as Body)['name'])).toEqual(['a']);
    expect((await sim.request({ method: 'GET', path: `${path}/b` })).status).toBe(404);
    expect((await sim.request({ method: 'GET', path: `${path}/b` })).status).toBe(200);
    expect(sim.faults().map((f: FaultState) => f.fired)).toEqual([2]);
    sim.close();
  });
});
