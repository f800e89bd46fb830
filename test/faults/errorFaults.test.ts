/**
 * `error` fault rules, through the library: which requests a rule refuses (the k-th matching one,
 * object state, users, controllers), the real shapes of what it answers, and how the controllers
 * live through their own writes being refused — a retry with client-go's backoff, the Warning
 * event of the real controller, never a reported bug — replayably.
 */
import { describe, expect, it } from 'vitest';
import type { Simulation } from '../../src/index.ts';
import { setBody, sim } from './setup.ts';

type Body = Record<string, any>;

const sets = '/apis/apps/v1/namespaces/default/statefulsets';
const podsPath = '/api/v1/namespaces/default/pods';
const sas = '/api/v1/namespaces/default/serviceaccounts';
const configMaps = '/api/v1/namespaces/default/configmaps';
const statefulSetUser = 'system:serviceaccount:platform-system:statefulset-controller';

async function podNames(s: Simulation): Promise<string[]> {
  return ((await s.request({ method: 'GET', path: podsPath })).body.items as Body[]).map((p) => p.metadata.name as string).sort();
}

async function events(s: Simulation, reason?: string): Promise<Body[]> {
  return ((await s.request({ method: 'GET', path: '/api/v1/namespaces/default/events' })).body.items as Body[]).filter((e) => reason === undefined || e.reason === reason);
}

const createSA = (s: Simulation, name: string, as?: string) => s.request({ method: 'POST', path: sas, body: { metadata: { name } }, ...(as === undefined ? {} : { as: { user: as } }) });

describe('error rules on users’ requests', () => {
  it('let the first `after` matching requests through and fail from the next one', async () => {
    const s = await sim();
    s.injectFaults([{ name: 'second', verbs: ['create'], resources: ['serviceaccounts'], code: 500, after: 1, times: 1 }]);
    expect((await createSA(s, 'a')).status).toBe(201);
    const second = await createSA(s, 'b');
    expect(second.status).toBe(500);
    expect(second.body).toMatchObject({ reason: 'InternalError', message: 'Internal error occurred: injected fault second' });
    expect((await createSA(s, 'b')).status).toBe(201);
    // Requests the rule does not match are not counted.
    expect((await s.request({ method: 'GET', path: `${sas}/a` })).status).toBe(200);
    expect(s.faults()).toEqual([{ rule: expect.objectContaining({ name: 'second' }), fired: 1, passed: 1 }]);
  });

  it('match a create by the name in its body', async () => {
    const s = await sim();
    s.injectFaults([{ verbs: ['create'], resources: ['serviceaccounts'], names: ['b'], code: 409 }]);
    expect((await createSA(s, 'a')).status).toBe(201);
    expect((await createSA(s, 'b')).body).toMatchObject({ code: 409, reason: 'Conflict', message: 'Operation cannot be fulfilled on serviceaccounts "b": injected fault' });
  });

  it('key on object state: the stored object a request names, the body of a create', async () => {
    const s = await sim();
    await s.request({ method: 'POST', path: sets, body: setBody('web') });
    await s.request({ method: 'POST', path: sets, body: setBody('db', 2) });
    // The set's status (ready replicas) decides; lists never match a `when`.
    s.injectFaults([{ verbs: ['get', 'list', 'patch'], resources: ['statefulsets'], when: { 'status.readyReplicas': 3 }, code: 503 }]);
    expect((await s.request({ method: 'GET', path: `${sets}/web` })).status).toBe(503);
    expect((await s.request({ method: 'GET', path: `${sets}/db` })).status).toBe(200);
    expect((await s.request({ method: 'GET', path: sets })).status).toBe(200);
    expect((await s.request({ method: 'GET', path: `${sets}?fieldSelector=metadata.name%3Dweb` })).status).toBe(200);
    s.clearFaults();
    s.injectFaults([{ verbs: ['create'], resources: ['configmaps'], when: { 'data.mode': 'bad', 'metadata.labels["app.platform.io/tier"]': 'db' }, code: 500 }]);
    const cm = (name: string, mode: string) => ({ metadata: { name, labels: { 'app.platform.io/tier': 'db' } }, data: { mode } });
    expect((await s.request({ method: 'POST', path: configMaps, body: cm('a', 'bad') })).status).toBe(500);
    expect((await s.request({ method: 'POST', path: configMaps, body: cm('b', 'good') })).status).toBe(201);
    // Any body encoding the server reads: YAML too.
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels:\n    app.platform.io/tier: db\ndata:\n  mode: bad\n';
    expect((await s.request({ method: 'POST', path: configMaps, headers: { 'content-type': 'application/yaml' }, body: yaml })).status).toBe(500);
  });

  it('answer 429 and 503 with the Retry-After asked for, in the header and the Status', async () => {
    const s = await sim();
    s.injectFaults([
      { users: ['bob'], code: 429, retryAfterSeconds: 7 },
      { users: ['carol'], code: 503, retryAfterSeconds: 3, message: 'etcd is catching up' },
    ]);
    const limited = await s.request({ method: 'POST', path: '/apis/authentication.platform.io/v1/selfsubjectreviews', body: {}, as: { user: 'bob' } });
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('7');
    expect(limited.body).toMatchObject({ reason: 'TooManyRequests', message: 'Too many requests, please try again later.', details: { retryAfterSeconds: 7 } });
    const unavailable = await s.request({ method: 'POST', path: '/apis/authentication.platform.io/v1/selfsubjectreviews', body: {}, as: { user: 'carol' } });
    expect(unavailable.headers['retry-after']).toBe('3');
    expect(unavailable.body).toMatchObject({ reason: 'ServiceUnavailable', message: 'etcd is catching up', details: { retryAfterSeconds: 3 } });
  });

  it('refuse a Retry-After on a code that has none', async () => {
    const s = await sim();
    expect(() => s.injectFaults([{ code: 500, retryAfterSeconds: 5 }])).toThrow('faults[0].retryAfterSeconds: only a 429 or a 503 carries a Retry-After');
  });
});

describe('error rules on the controllers’ own writes', () => {
  it('a refused ControllerRevision ends the StatefulSet sync there: no pod is made before its revision is stored', async () => {
    const s = await sim({ faults: [{ controllers: ['statefulset'], verbs: ['create'], resources: ['controllerrevisions'], code: 500, times: 2 }] });
    expect((await s.request({ method: 'POST', path: sets, body: setBody('web', 2) })).status).toBe(201);
    // Under checkInvariants a pod naming a revision that is not stored fails the step.
    expect(await podNames(s)).toEqual([]);
    await s.advance('1s');
    expect(await podNames(s)).toEqual(['web-0', 'web-1']);
    expect(s.faults()[0]!.fired).toBe(2);
  });

  it('retry a refused pod create with backoff, recording FailedCreate, never as a bug', async () => {
    const s = await sim({ faults: [{ code: 500, controllers: ['statefulset'], verbs: ['create'], resources: ['pods'], times: 2 }] });
    expect((await s.request({ method: 'POST', path: sets, body: setBody('web') })).status).toBe(201);
    expect(await podNames(s)).toEqual([]);
    expect(s.faults()[0]!.fired).toBe(1);
    const failed = await events(s, 'FailedCreate');
    expect(failed.map((e) => `${e.type} ${e.message} ×${e.count}`)).toEqual(['Warning create Pod web-0 in StatefulSet web failed error: Internal error occurred: injected fault ×1']);
    // The work item waits 5 ms, then 10 ms: advance lives through the retries.
    await s.advance('4ms');
    expect(s.faults()[0]!.fired).toBe(1);
    await s.advance('1ms');
    expect(s.faults()[0]!.fired).toBe(2);
    expect(await podNames(s)).toEqual([]);
    await s.advance('10ms');
    expect(await podNames(s)).toEqual(['web-0', 'web-1', 'web-2']);
    expect((await events(s, 'FailedCreate'))[0]!.count).toBe(2);
    expect(s.trace().filter((e) => e.type === 'rejected')).toEqual([]);
    expect(s.world.retries).toBeUndefined();
  });

  it('see controllers’ writes only when naming them, and controllers by their user too', async () => {
    const s = await sim();
    s.injectFaults([{ controllers: ['statefulset-controller'], verbs: ['create'], resources: ['pods'], code: 500 }]);
    const pod = { metadata: { name: 'solo' }, spec: { containers: [{ name: 'app', image: 'nginx:1' }] } };
    expect((await s.request({ method: 'POST', path: podsPath, body: pod })).status).toBe(201);
    s.clearFaults();
    s.injectFaults([{ users: [statefulSetUser], verbs: ['create'], resources: ['pods'], code: 500 }]);
    await s.request({ method: 'POST', path: sets, body: setBody('web') });
    expect(await podNames(s)).toEqual(['solo']);
    expect((await s.request({ method: 'POST', path: podsPath, body: { ...pod, metadata: { name: 'solo-2' } } })).status).toBe(201);
    s.clearFaults();
    await s.advance('1s');
    expect(await podNames(s)).toEqual(['solo', 'solo-2', 'web-0', 'web-1', 'web-2']);
  });

  it('retry an unreported write with backoff: the default ServiceAccount of a new namespace', async () => {
    const s = await sim();
    s.injectFaults([{ controllers: ['serviceaccount-controller'], code: 503, times: 3 }]);
    await s.request({ method: 'POST', path: '/api/v1/namespaces', body: { metadata: { name: 'team' } } });
    const account = () => s.request({ method: 'GET', path: '/api/v1/namespaces/team/serviceaccounts/default' });
    expect((await account()).status).toBe(404);
    // 5 ms, 10 ms, 20 ms: the third retry goes through.
    await s.advance('34ms');
    expect((await account()).status).toBe(404);
    await s.advance('1ms');
    expect((await account()).status).toBe(200);
    expect(s.faults()[0]!.fired).toBe(3);
    expect(s.world.retries).toBeUndefined();
  });

  it('forget a refused write the controller no longer needs when its retry comes', async () => {
    const s = await sim({ faults: [{ controllers: ['serviceaccount-controller'], code: 503, times: 1 }] });
    await s.request({ method: 'POST', path: '/api/v1/namespaces', body: { metadata: { name: 'team' } } });
    expect(Object.keys(s.world.retries ?? {})).toEqual(['serviceaccount-controller/write:create core/serviceaccounts team/default']);
    await s.request({ method: 'DELETE', path: '/api/v1/namespaces/team' });
    await s.advance('5ms');
    expect((await s.request({ method: 'GET', path: '/api/v1/namespaces/team' })).status).toBe(404);
    expect(s.world.retries).toBeUndefined();
  });

  it('make the kubelet write a status again, and the garbage collector delete again', async () => {
    const s = await sim({ faults: [{ controllers: ['node-agent'], resources: ['pods/status'], names: ['b'], code: 500, times: 1 }] });
    const pod = (name: string) => ({ metadata: { name }, spec: { containers: [{ name: 'app', image: 'nginx:1' }] } });
    await s.request({ method: 'POST', path: podsPath, body: pod('a') });
    await s.request({ method: 'POST', path: podsPath, body: pod('b') });
    const phase = async (name: string) => (await s.request({ method: 'GET', path: `${podsPath}/${name}` })).body.status.phase;
    expect([await phase('a'), await phase('b')]).toEqual(['Running', 'Pending']);
    await s.advance('5ms');
    expect(await phase('b')).toBe('Running');
    s.injectFaults([{ controllers: ['garbagecollector'], verbs: ['delete'], code: 500, times: 1 }]);
    const owner = (await s.request({ method: 'POST', path: configMaps, body: { metadata: { name: 'owner' } } })).body;
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid };
    await s.request({ method: 'POST', path: configMaps, body: { metadata: { name: 'dependent', ownerReferences: [ref] } } });
    await s.request({ method: 'DELETE', path: `${configMaps}/owner` });
    expect((await s.request({ method: 'GET', path: `${configMaps}/dependent` })).status).toBe(200);
    await s.advance('5ms');
    expect((await s.request({ method: 'GET', path: `${configMaps}/dependent` })).status).toBe(404);
  });

  it('drop an event a fault refuses, as the event broadcaster gives up', async () => {
    const s = await sim({ faults: [{ controllers: ['statefulset'], resources: ['events'], code: 500 }] });
    await s.request({ method: 'POST', path: sets, body: setBody('web') });
    expect(await podNames(s)).toEqual(['web-0', 'web-1', 'web-2']);
    expect(await events(s)).toEqual([]);
    expect(s.faults()[0]!.fired).toBe(3);
  });

  it('come to rest while a fault keeps refusing, and catch up once it is gone', async () => {
    const s = await sim({ faults: [{ controllers: ['statefulset'], code: 500 }] });
    expect((await s.request({ method: 'POST', path: sets, body: setBody('web') })).status).toBe(201);
    await s.advance('1h');
    expect(await podNames(s)).toEqual([]);
    // Backoff doubles up to 1000 s: an hour of refusals is a few dozen syncs, not a livelock.
    const { attempts, notBefore } = s.world.retries!['statefulset-controller/default/web']!;
    expect(attempts).toBeGreaterThan(15);
    expect(attempts).toBeLessThan(30);
    expect(notBefore - s.world.now).toBeLessThanOrEqual(1000_000);
    s.clearFaults();
    await s.advance('1000s');
    expect(await podNames(s)).toEqual(['web-0', 'web-1', 'web-2']);
  });

  it('draw probabilities from the seed: the same run replays to the same world', async () => {
    const run = async () => {
      const s = await sim({ faults: [{ controllers: ['statefulset'], verbs: ['create'], resources: ['pods'], code: 503, probability: 0.5 }] });
      await s.request({ method: 'POST', path: sets, body: setBody('web', 5) });
      await s.advance('10s');
      return { hash: s.hash(), fired: s.faults()[0]!.fired, pods: await podNames(s) };
    };
    const first = await run();
    expect(first.fired).toBeGreaterThan(0);
    expect(first.pods).toHaveLength(5);
    expect(await run()).toEqual(first);
  });
});
