/**
 * The scheduler's dirty set: a controller that declares the resources it watches is not run
 * while none of them (nor its own state, the retries or the instant) changed since a reconcile of
 * it found nothing to do; under checkInvariants every skip is proven by running it anyway.
 */
import { describe, expect, it } from 'vitest';
import { InvariantError, controllerManagerActor, type Controller } from '../../src/index.ts';
import { getOwn } from '../../src/core/json.ts';
import { listObjects } from '../../src/store/objects.ts';
import { sim } from '../helpers.ts';

const configMaps = '/api/v1/namespaces/default/configmaps';
const accounts = '/api/v1/namespaces/default/serviceaccounts';

/** Labels every ConfigMap `seen`, counting its reconciles. */
function labeller(watches: readonly string[]): { controller: Controller; calls: () => number } {
  let calls = 0;
  const controller: Controller = {
    name: 'labeller',
    actor: controllerManagerActor('labeller'),
    watches,
    reconcile(world) {
      calls++;
      return listObjects(world, 'core/configmaps', null)
        .filter((cm) => cm.metadata.labels?.['seen'] !== 'yes')
        .map((cm) => ({ type: 'update' as const, resource: 'core/configmaps', subresource: '' as const, object: { ...cm, metadata: { ...cm.metadata, labels: { seen: 'yes' } } } }));
    },
    nextWakeup: () => null,
  };
  return { controller, calls: () => calls };
}

describe('the dirty set', () => {
  it('does not run a controller after a write to something it does not watch', async () => {
    const { controller, calls } = labeller(['core/configmaps']);
    const s = await sim({ controllers: [controller], checkInvariants: false });
    await s.settle();
    const settled = calls();
    expect((await s.request({ method: 'POST', path: accounts, body: { metadata: { name: 'robot' } } })).status).toBe(201);
    expect(calls()).toBe(settled);
    expect((await s.request({ method: 'POST', path: configMaps, body: { metadata: { name: 'c' } } })).status).toBe(201);
    expect(calls()).toBeGreaterThan(settled);
    const cm = (await s.request({ method: 'GET', path: `${configMaps}/c` })).body as { metadata: { labels: Record<string, string> } };
    expect(cm.metadata.labels).toEqual({ seen: 'yes' });
  });

  it('skips the watchers at once after a rest only while the world is as the settle found it', async () => {
    // `maker` watches nothing and makes a ConfigMap when the ServiceAccount `trigger` appears; the
    // labeller watches ConfigMaps only. After the settle came to rest, the new account is nothing
    // to the labeller — but the ConfigMap `maker` writes in the same round is, and it is labelled
    // in that settle.
    const maker: Controller = {
      name: 'maker',
      actor: controllerManagerActor('maker'),
      reconcile: (world) =>
        listObjects(world, 'core/serviceaccounts', 'default').some((a) => a.metadata.name === 'trigger') && listObjects(world, 'core/configmaps', 'default').length === 0
          ? [{ type: 'create', resource: 'core/configmaps', namespace: 'default', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'made', namespace: 'default' } } }]
          : [],
      nextWakeup: () => null,
    };
    const { controller: labels, calls } = labeller(['core/configmaps']);
    const s = await sim({ controllers: [maker, labels], checkInvariants: false });
    await s.settle();
    const atRest = calls();
    expect((await s.request({ method: 'POST', path: accounts, body: { metadata: { name: 'robot' } } })).status).toBe(201);
    expect(calls()).toBe(atRest);
    expect((await s.request({ method: 'POST', path: accounts, body: { metadata: { name: 'trigger' } } })).status).toBe(201);
    const made = (await s.request({ method: 'GET', path: `${configMaps}/made` })).body as { metadata: { labels?: Record<string, string> } };
    expect(made.metadata.labels).toEqual({ seen: 'yes' });
  });

  it('runs every controller again once time moves', async () => {
    const { controller, calls } = labeller(['core/configmaps']);
    const s = await sim({ controllers: [controller], checkInvariants: false });
    await s.settle();
    const settled = calls();
    await s.advance('1s');
    expect(calls()).toBeGreaterThan(settled);
  });

  it('proves each skip under checkInvariants: a controller reading what it does not declare is caught', async () => {
    // Declares ServiceAccounts, reads ConfigMaps: a new ConfigMap does not wake it, and the proof fails.
    const { controller } = labeller(['core/serviceaccounts']);
    const s = await sim({ controllers: [controller] });
    await s.settle();
    const write = s.request({ method: 'POST', path: configMaps, body: { metadata: { name: 'c' } } });
    await expect(write).rejects.toThrow(InvariantError);
    await expect(write).rejects.toThrow(/^labeller was skipped as nothing it watches \(core\/serviceaccounts\) changed, yet it had work: update core\/configmaps default\/c$/);
  });

  it('after a round that changed only a controller\'s memory, runs only that controller again', async () => {
    // `cursor` remembers the revision it has seen, as the garbage collector does after every write;
    // `counter` declares nothing (it runs every round) and has nothing to do.
    let counted = 0;
    const counter: Controller = { name: 'counter', actor: controllerManagerActor('counter'), reconcile: () => (counted++, []), nextWakeup: () => null };
    let cursorRuns = 0;
    const cursor: Controller = {
      name: 'cursor',
      actor: controllerManagerActor('cursor'),
      reconcile(world) {
        cursorRuns++;
        const seen = getOwn(world.controllers, 'cursor') as number | undefined;
        return seen === world.revision ? [] : [{ type: 'remember', controller: 'cursor', state: world.revision }];
      },
      nextWakeup: () => null,
    };
    const { controller: labels } = labeller(['core/configmaps']);
    const s = await sim({ controllers: [counter, cursor, labels], checkInvariants: false });
    await s.settle();
    const [counterBefore, cursorBefore] = [counted, cursorRuns];
    expect((await s.request({ method: 'POST', path: accounts, body: { metadata: { name: 'robot' } } })).status).toBe(201);
    // Round 1: both run and the cursor moves; round 2: the cursor alone, which is then at rest.
    expect(counted - counterBefore).toBe(1);
    expect(cursorRuns - cursorBefore).toBe(2);
    // A write by a controller (the labeller's) is not memory: everyone runs again after it.
    const [counterMid] = [counted];
    expect((await s.request({ method: 'POST', path: configMaps, body: { metadata: { name: 'c' } } })).status).toBe(201);
    expect(counted - counterMid).toBe(2);
    expect(getOwn(s.world.controllers, 'cursor')).toBe(s.world.revision);
  });

  it('proves those skips under checkInvariants too', async () => {
    const cursor: Controller = {
      name: 'cursor',
      actor: controllerManagerActor('cursor'),
      reconcile: (world) => (getOwn(world.controllers, 'cursor') === world.revision ? [] : [{ type: 'remember', controller: 'cursor', state: world.revision }]),
      nextWakeup: () => null,
    };
    // Reads the cursor's memory, which no controller may: the skip's proof catches it.
    const snoop: Controller = {
      name: 'snoop',
      actor: controllerManagerActor('snoop'),
      reconcile: (world) =>
        getOwn(world.controllers, 'cursor') === undefined || listObjects(world, 'core/configmaps', 'default').length > 0
          ? []
          : [{ type: 'create', resource: 'core/configmaps', object: { metadata: { name: 'snooped', namespace: 'default' } } }],
      nextWakeup: () => null,
    };
    const s = await sim({ controllers: [snoop, cursor] });
    const write = s.request({ method: 'POST', path: accounts, body: { metadata: { name: 'robot' } } });
    await expect(write).rejects.toThrow(/^snoop was skipped as only other controllers' memory changed since it found nothing to do, yet it had work: create core\/configmaps default\/snooped$/);
  });

  /** Labels the ConfigMaps named `x-…`, reacting to changes of those (or, wrongly, of fewer). */
  function xLabeller(reactsTo: (name: string) => boolean): { controller: Controller; calls: () => number } {
    let calls = 0;
    const controller: Controller = {
      name: 'x-labeller',
      actor: controllerManagerActor('x-labeller'),
      watches: ['core/configmaps'],
      reactsTo: (change) => reactsTo(change.name),
      reconcile(world) {
        calls++;
        return listObjects(world, 'core/configmaps', null)
          .filter((cm) => (cm.metadata.name ?? '').startsWith('x-') && cm.metadata.labels?.['seen'] !== 'yes')
          .map((cm) => ({ type: 'update' as const, resource: 'core/configmaps', subresource: '' as const, object: { ...cm, metadata: { ...cm.metadata, labels: { seen: 'yes' } } } }));
      },
      nextWakeup: () => null,
    };
    return { controller, calls: () => calls };
  }

  it('keeps skipping a controller over changes it does not react to, and runs it on one it does', async () => {
    const { controller, calls } = xLabeller((name) => name.startsWith('x-'));
    const s = await sim({ controllers: [controller], checkInvariants: false });
    await s.settle();
    const settled = calls();
    for (const name of ['a', 'b', 'c']) expect((await s.request({ method: 'POST', path: configMaps, body: { metadata: { name } } })).status).toBe(201);
    expect(calls()).toBe(settled);
    expect((await s.request({ method: 'POST', path: configMaps, body: { metadata: { name: 'x-1' } } })).status).toBe(201);
    expect(calls()).toBeGreaterThan(settled);
    const cm = (await s.request({ method: 'GET', path: `${configMaps}/x-1` })).body as { metadata: { labels: Record<string, string> } };
    expect(cm.metadata.labels).toEqual({ seen: 'yes' });
    // Skipped again after that, over the changes since its last reconcile.
    const after = calls();
    expect((await s.request({ method: 'POST', path: configMaps, body: { metadata: { name: 'd' } } })).status).toBe(201);
    expect(calls()).toBe(after);
  });

  it('proves those skips under checkInvariants: a change ignored that gives work is caught', async () => {
    const { controller } = xLabeller((name) => name === 'x-1');
    const s = await sim({ controllers: [controller] });
    await s.settle();
    const write = s.request({ method: 'POST', path: configMaps, body: { metadata: { name: 'x-2' } } });
    await expect(write).rejects.toThrow(/^x-labeller was skipped as nothing it watches \(core\/configmaps\) changed in a way it reacts to, yet it had work: update core\/configmaps default\/x-2$/);
  });

  it('skips the service-account controller over accounts other than `default`, and recreates a deleted `default`', async () => {
    const s = await sim();
    expect((await s.request({ method: 'POST', path: accounts, body: { metadata: { name: 'robot' } } })).status).toBe(201);
    expect((await s.request({ method: 'DELETE', path: `${accounts}/default` })).status).toBe(200);
    const recreated = await s.request({ method: 'GET', path: `${accounts}/default` });
    expect(recreated.status).toBe(200);
  });
});
