/**
 * checkInvariants and eventuallyStable (src/testing/invariants.ts): passing on healthy worlds,
 * throwing with every problem on a broken one, and naming what still changes when virtual time
 * runs out.
 */
import { describe, expect, it } from 'vitest';
import { controllerManagerActor, getObject, type Controller, type Intent, type KubeObject } from '../../src/index.ts';
import { checkInvariants, eventuallyStable, invariantProblems } from '../../src/testing/invariants.ts';
import { sim, type Body } from '../helpers.ts';

const sets = '/apis/apps/v1/namespaces/default/statefulsets';
const web = (replicas: number) => ({
  metadata: { name: 'web' },
  spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'a', image: 'nginx:1' }] } } },
});

/** Writes ConfigMap default/tick every 5 s of virtual time, forever: a world that never rests. */
const ticker: Controller = {
  name: 'ticker',
  actor: controllerManagerActor('ticker'),
  reconcile: (world) => {
    const cm = getObject(world, 'core/configmaps', 'default', 'tick');
    const at = String(world.now);
    if (cm === undefined) return [{ type: 'create', resource: 'core/configmaps', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'tick', namespace: 'default' }, data: { at } } as KubeObject }];
    if (world.now % 5000 !== 0 || (cm as Body)['data']?.at === at) return [];
    return [{ type: 'update', resource: 'core/configmaps', subresource: '', object: { ...cm, data: { at } } as KubeObject } satisfies Intent];
  },
  nextWakeup: (world) => Math.floor(world.now / 5000) * 5000 + 5000,
};

describe('checkInvariants', () => {
  it('returns quietly on a healthy world, call after call', async () => {
    const s = await sim({ podReadyAfter: '5s' });
    checkInvariants(s);
    await s.create(sets, web(3));
    await s.advance('1m');
    expect(() => checkInvariants(s)).not.toThrow();
    expect(invariantProblems(s)).toEqual([]);
  });

  it('throws listing every broken invariant, each as `checker: problem`', async () => {
    const s = await sim({ checkInvariants: false });
    await s.create('/api/v1/namespaces/default/configmaps', { metadata: { name: 'c' } });
    // A world whose revision is behind its objects and its log: crafted, as no step makes one.
    s.replaceWorld({ ...s.world, revision: 1 });
    let message = '';
    try {
      checkInvariants(s, { since: null });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^invariants broken at 2026-01-01T00:00:00Z \(seed 1\):/);
    expect(message).toMatch(/ {2}- revisions-increase: log entry \d+ is beyond the revision 1/);
    expect(message).toMatch(/ {2}- store-keys-match: core\/configmaps default\/c has resourceVersion \d+/);
  });

  it('compares with the world seen at the previous call (time going back), unless told `since: null`', async () => {
    const s = await sim({ checkInvariants: false });
    const early = s.world;
    await s.advance('1h');
    checkInvariants(s);
    s.replaceWorld(early);
    expect(() => checkInvariants(s)).toThrow(/time-moves-forward: time went back from \d+ to \d+/);
    s.replaceWorld(early);
    expect(() => checkInvariants(s, { since: null })).not.toThrow();
  });
});

describe('eventuallyStable', () => {
  it('lives through readiness delays until the StatefulSet is ready and nothing moves', async () => {
    const s = await sim({ podReadyAfter: '30s' });
    await s.create(sets, web(3));
    const report = await eventuallyStable(s);
    expect((await s.get<Body>(`${sets}/web`)).body.status.readyReplicas).toBe(3);
    // OrderedReady: three pods one after another, 30 s each, then a minute of quiet.
    expect(report.at > '2026-01-01T00:01:30Z').toBe(true);
    expect(report.hash).toBe(s.hash());
  });

  it('waits out minReadySeconds longer than the default quiet', async () => {
    const s = await sim();
    const body = web(2);
    await s.create(sets, { ...body, spec: { ...body.spec, minReadySeconds: 90 } });
    await eventuallyStable(s);
    const status = (await s.get<Body>(`${sets}/web`)).body.status;
    expect([status.readyReplicas, status.availableReplicas]).toEqual([2, 2]);
  });

  it('stops faults first', async () => {
    const s = await sim();
    s.injectFaults([{ verbs: ['create'], resources: ['configmaps'], code: 503 }]);
    await eventuallyStable(s, { within: '2m' });
    expect(s.faults()).toEqual([]);
    expect((await s.create('/api/v1/namespaces/default/configmaps', { metadata: { name: 'after' } })).status).toBe(201);
  });

  it('is deterministic: the same run stops at the same instant with the same world', async () => {
    const run = async () => {
      const s = await sim({ podReadyAfter: '12s', seed: 3 });
      await s.create(sets, web(2));
      return eventuallyStable(s, { step: '7s', quietFor: '30s' });
    };
    expect(await run()).toEqual(await run());
  });

  it('throws naming the objects still being written when the budget runs out', async () => {
    const s = await sim({ controllers: [ticker] });
    const failure = eventuallyStable(s, { within: '2m', step: '10s' });
    await expect(failure).rejects.toThrow(/did not become stable within 2m0s of virtual time/);
    await expect(eventuallyStable(s, { within: '1m' })).rejects.toThrow(/core\/configmaps default\/tick: \d+ write\(s\), last MODIFIED by ticker at /);
  });

  it('throws when the budget is shorter than the quiet it needs', async () => {
    const s = await sim();
    await expect(eventuallyStable(s, { within: '30s', quietFor: '1m' })).rejects.toThrow(/the budget ran out before 1m0s of quiet/);
  });
});
