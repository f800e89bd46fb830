/**
 * `controller` fault rules, through the library: a paused controller does nothing for a while of
 * virtual time and catches up, keeping its memory; a crashed one loses its memory and pending
 * retries, restarts and converges; advance wakes at the edges of their windows; runs replay; and
 * a rule naming a controller the simulation does not run is refused wherever it comes in.
 */
import { describe, expect, it } from 'vitest';
import { PlatformSimError, type Controller, type Simulation } from '../../src/index.ts';
import { setBody, sim } from './setup.ts';

type Body = Record<string, any>;

const sets = '/apis/apps/v1/namespaces/default/statefulsets';
const podsPath = '/api/v1/namespaces/default/pods';
const configMaps = '/api/v1/namespaces/default/configmaps';
const csrs = '/apis/certificates.platform.io/v1/certificatesigningrequests';

async function pods(s: Simulation): Promise<Body[]> {
  return ((await s.request({ method: 'GET', path: podsPath })).body.items as Body[]).sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
}

const names = async (s: Simulation): Promise<string[]> => (await pods(s)).map((p) => p.metadata.name);

const scale = (s: Simulation, replicas: number) => s.request({ method: 'PATCH', path: `${sets}/web/scale`, headers: { 'content-type': 'application/merge-patch+json' }, body: { spec: { replicas } } });

describe('pause', () => {
  it('stops a controller for `for`, then it catches up on its own at the end', async () => {
    const s = await sim();
    s.injectFaults([{ kind: 'controller', controller: 'statefulset', action: 'pause', from: '10s', for: '30s' }]);
    await s.request({ method: 'POST', path: sets, body: setBody('web', 1) });
    expect(await names(s)).toEqual(['web-0']);
    await s.advance('10s');
    await scale(s, 3);
    expect(await names(s)).toEqual(['web-0']);
    await s.advance('29s');
    expect(await names(s)).toEqual(['web-0']);
    expect(s.faults()[0]).toMatchObject({ fired: 1, installedAt: Date.parse('2026-01-01T00:00:00Z') });
    // advance wakes at the end of the window: the pods are made at that very instant.
    await s.advance('1m');
    const made = await pods(s);
    expect(made.map((p) => p.metadata.name)).toEqual(['web-0', 'web-1', 'web-2']);
    expect(made[1]!.metadata.creationTimestamp).toBe('2026-01-01T00:00:40Z');
  });

  it('lasts until the rules are cleared when it has no `for`, ignoring the controller’s wake-ups', async () => {
    const s = await sim();
    // A pod becomes ready 5 s after it starts: the node agent's timer.
    const pod = { metadata: { name: 'slow', annotations: { 'sim.platform.io/ready-after': '5s' } }, spec: { containers: [{ name: 'app', image: 'nginx:1' }] } };
    await s.request({ method: 'POST', path: podsPath, body: pod });
    s.injectFaults([{ kind: 'controller', controller: 'node-agent', action: 'pause' }]);
    const memory = s.world.controllers['node-agent'];
    const ready = async () => ((await s.request({ method: 'GET', path: `${podsPath}/slow` })).body.status.conditions ?? []).find((c: Body) => c.type === 'Ready')?.status;
    await s.advance('1h');
    expect(await ready()).toBe('False');
    // Paused, it kept what it remembered.
    expect(s.world.controllers['node-agent']).toBe(memory);
    s.clearFaults();
    await s.settle();
    expect(await ready()).toBe('True');
  });
});

describe('crash', () => {
  it('loses the controller’s memory, keeps it down for `for`, and it relists when it restarts', async () => {
    const s = await sim();
    const owner = (await s.request({ method: 'POST', path: configMaps, body: { metadata: { name: 'owner' } } })).body;
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid };
    await s.request({ method: 'POST', path: configMaps, body: { metadata: { name: 'dependent', ownerReferences: [ref] } } });
    expect(s.world.controllers['garbage-collector']).toBeDefined();
    s.injectFaults([{ kind: 'controller', controller: 'garbage-collector', action: 'crash', from: '1s', for: '10s' }]);
    await s.advance('1s');
    expect(s.world.controllers['garbage-collector']).toBeUndefined();
    expect(s.faults()[0]!.fired).toBe(1);
    await s.request({ method: 'DELETE', path: `${configMaps}/owner` });
    await s.advance('9s');
    expect((await s.request({ method: 'GET', path: `${configMaps}/dependent` })).status).toBe(200);
    await s.advance('1s');
    expect((await s.request({ method: 'GET', path: `${configMaps}/dependent` })).status).toBe(404);
    expect(s.world.controllers['garbage-collector']).toBeDefined();
    expect(s.faults()[0]!.fired).toBe(1);
  });

  it('relists when the history it missed was compacted while it was down (the garbage is still collected)', async () => {
    const s = await sim();
    const owner = (await s.request({ method: 'POST', path: configMaps, body: { metadata: { name: 'owner' } } })).body;
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid };
    await s.request({ method: 'POST', path: configMaps, body: { metadata: { name: 'dependent', ownerReferences: [ref] } } });
    s.injectFaults([{ kind: 'controller', controller: 'garbage-collector', action: 'crash', for: '12m' }]);
    await s.request({ method: 'DELETE', path: `${configMaps}/owner` });
    // Two compactions (every 5 minutes) pass while it is down: the delete is no longer in the log.
    await s.advance('11m');
    expect(s.world.compactedRevision).toBeGreaterThan(0);
    expect((await s.request({ method: 'GET', path: `${configMaps}/dependent` })).status).toBe(200);
    await s.advance('1m');
    expect((await s.request({ method: 'GET', path: `${configMaps}/dependent` })).status).toBe(404);
  });

  it('drops the pending retries: a StatefulSet controller in backoff retries at once when it restarts', async () => {
    const s = await sim({ faults: [{ controllers: ['statefulset'], verbs: ['create'], resources: ['pods'], code: 500, times: 12 }] });
    await s.request({ method: 'POST', path: sets, body: setBody('web') });
    // Eleven refusals in ~5 s; the twelfth retry would wait ~5 s more.
    await s.advance('5200ms');
    expect(s.faults()[0]!.fired).toBe(11);
    expect(s.world.retries!['statefulset-controller/default/web']).toMatchObject({ attempts: 11 });
    s.injectFaults([{ kind: 'controller', controller: 'statefulset-controller', action: 'crash' }]);
    await s.settle();
    // Restarted at once with an empty queue: it synced the set again, refused a last time.
    expect(s.faults()[0]!.fired).toBe(12);
    expect(s.world.retries!['statefulset-controller/default/web']).toMatchObject({ attempts: 1 });
    await s.advance('5ms');
    expect(await names(s)).toEqual(['web-0', 'web-1', 'web-2']);
  });

  it('of the CSR signer (by its kube-controller-manager name) delays the certificate until it restarts', async () => {
    const s = await sim();
    const { request } = await s.createCertificateRequest({ commonName: 'alice', organizations: ['dev'] });
    s.injectFaults([{ kind: 'controller', controller: 'csrsigning', action: 'crash', for: '1m' }]);
    const spec = { request: btoa(request), signerName: 'platform.io/apiserver-client', usages: ['digital signature', 'client auth'] };
    const created = (await s.request({ method: 'POST', path: csrs, body: { metadata: { name: 'alice' }, spec } })).body;
    await s.request({ method: 'PUT', path: `${csrs}/alice/approval`, body: { ...created, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test' }] } } });
    const certificate = async () => (await s.request({ method: 'GET', path: `${csrs}/alice` })).body.status.certificate;
    expect(await certificate()).toBeUndefined();
    await s.advance('59s');
    expect(await certificate()).toBeUndefined();
    await s.advance('1s');
    expect(typeof (await certificate())).toBe('string');
  });
});

describe('controller rules', () => {
  it('replay: the same seed and inputs give the same world', async () => {
    const run = async () => {
      const s = await sim({
        faults: [
          { kind: 'controller', controller: 'statefulset', action: 'crash', from: '3s', for: '20s' },
          { kind: 'controller', controller: 'node-agent', action: 'pause', from: '1s', for: '45s' },
          { controllers: ['statefulset'], verbs: ['create'], resources: ['pods'], code: 503, probability: 0.4 },
        ],
      });
      await s.request({ method: 'POST', path: sets, body: setBody('web', 4) });
      await s.advance('2s');
      await scale(s, 6);
      await s.advance('2m');
      return { hash: s.hash(), pods: await names(s) };
    };
    const first = await run();
    expect(first.pods).toHaveLength(6);
    expect(await run()).toEqual(first);
  });

  it('refuse a controller the simulation does not run, wherever the rule comes in', async () => {
    const s = await sim();
    // The message lists the controllers the simulation runs.
    const known = /\(its controllers: namespace-controller, serviceaccount-controller, statefulset-controller, scheduler, node-agent, .*garbage-collector\)$/;
    const bad = { kind: 'controller' as const, controller: 'replicaset', action: 'pause' as const };
    let thrown: unknown;
    try {
      s.injectFaults([bad]);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(PlatformSimError);
    expect(thrown).toMatchObject({ code: 'PSIM_OPTION_INVALID', message: expect.stringMatching(/^faults\[0\]\.controller: no controller "replicaset" in this simulation /) });
    expect((thrown as Error).message).toMatch(known);
    expect(() => s.injectFaults([{ code: 500, controllers: ['statefulset', 'deployment'] }])).toThrow('faults[0].controllers[1]: no controller "deployment" in this simulation');
    const http = await s.request({ method: 'POST', path: '/sim/v1/faults', body: { rules: [{ code: 500 }, bad] } });
    expect(http.status).toBe(400);
    expect(http.body.message).toMatch(/^rules\[1\]\.controller: no controller "replicaset" in this simulation /);
    expect(http.body.message).toMatch(known);
    await expect(sim({ faults: [bad] })).rejects.toThrow('option faults[0].controller: no controller "replicaset" in this simulation');
    expect(s.faults()).toEqual([]);
  });

  it('accept a controller of the caller’s own by its name', async () => {
    const mine: Controller = { name: 'my-controller', actor: () => ({ manager: 'mine', user: { username: 'mine', groups: [] } }), reconcile: () => [], nextWakeup: () => null };
    const s = await sim({ controllers: [mine], faults: [{ kind: 'controller', controller: 'my-controller', action: 'crash' }] });
    expect(s.faults()).toHaveLength(1);
  });

  it('refuse the firing fields a controller rule does not act on', async () => {
    const s = await sim();
    expect(() => s.injectFaults([{ kind: 'controller', controller: 'scheduler', action: 'crash', after: 2 }])).toThrow(
      'faults[0].after: a controller rule happens at a moment of virtual time (from, for), not on occurrences or object state',
    );
  });
});
