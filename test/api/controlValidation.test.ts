/**
 * Control inputs are checked before they change anything (issue 16): an advance past the last
 * instant of virtual time, or across more compactions than one advance visits, is a 400 (a
 * PlatformSimError in the library) that leaves the world as it was; so is a malformed snapshot,
 * named by its first problem, whichever way it comes in (PUT /sim/v1/snapshot, replaceWorld,
 * restoreSimulation, a state file). A property mutates a valid snapshot at random: each mutant is
 * refused and changes nothing, or accepted and every later request answers without a 5xx.
 * A failing property prints its seed; replay with FC_SEED=<seed> npx vitest run test/api/controlValidation.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createSimulation, restoreSimulation, type Simulation, type Snapshot } from '../../src/index.ts';
import { serve } from '../../src/server.ts';
import { readSavedWorld } from '../../src/store/upgrade.ts';
import { servedWorldProblem } from '../../src/store/servedWorld.ts';
import { emptyTrie, trieGet, trieKeys, trieSet, type Trie } from '../../src/store/trie.ts';
import type { KubeObject } from '../../src/api/meta.ts';

type Json = any;
const b64 = (t: string) => Buffer.from(t).toString('base64');
const sts = '/apis/apps/v1/namespaces/default/statefulsets';

/** A world with a bit of everything a snapshot holds: objects with owners, a log, memories, faults. */
async function richSim(groupDomain: 'platform.io' | 'k8s.io' = 'platform.io'): Promise<Simulation> {
  const s = await createSimulation({
    seed: 7,
    startTime: '2026-01-01T00:00:00Z',
    podReadyAfter: '1s',
    groupDomain,
    faults: [
      { kind: 'controller', controller: 'garbage-collector', action: 'pause', from: '1h', for: '1m' },
      { kind: 'node', action: 'podNeverReady', names: ['solo'] },
      { verbs: ['create'], resources: ['configmaps'], code: 503, times: 1 },
    ],
  });
  const g = groupDomain;
  const signer = g === 'k8s.io' ? 'kubernetes.io/kube-apiserver-client' : 'platform.io/apiserver-client';
  const post = (path: string, body: unknown) => s.request({ method: 'POST', path, body });
  await post(sts, { metadata: { name: 'web' }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, serviceName: 'web', template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'a', image: 'x' }] } } } });
  await post('/api/v1/namespaces/default/pods', { metadata: { name: 'solo' }, spec: { containers: [{ name: 'a', image: 'x' }] } });
  await post('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'builder' } });
  await post('/api/v1/namespaces/default/secrets', { metadata: { name: 'sec' }, data: { k: b64('v') } });
  // The first create meets the injected 503; the second is stored.
  await post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'cm' }, data: { a: 'b' } });
  await post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'cm' }, data: { a: 'b' } });
  const { request } = await s.createCertificateRequest({ commonName: 'alice' });
  await post(`/apis/certificates.${g}/v1/certificatesigningrequests`, { metadata: { name: 'c' }, spec: { request: b64(request), signerName: signer, usages: ['client auth'] } });
  await s.advance('5s');
  return s;
}

const valid = await richSim();
const validSnapshot: Snapshot = valid.snapshot();
const clone = (): Json => JSON.parse(JSON.stringify(validSnapshot));

/** The world with one object replaced (the trie rebuilt so the object sits where it must). */
function withObject(world: Json, resource: string, namespace: string, name: string, change: (o: Json) => Json): Json {
  const byNs = world.objects[resource] as Trie<Trie<KubeObject>>;
  const byName = trieGet(byNs, namespace)!;
  const object = change(JSON.parse(JSON.stringify(trieGet(byName, name))));
  return { ...world, objects: { ...world.objects, [resource]: JSON.parse(JSON.stringify(trieSet(byNs, namespace, trieSet(byName, name, object)))) } };
}

const webSts = (change: (o: Json) => Json) => (w: Json) => withObject(w, 'apps/statefulsets', 'default', 'web', change);
const nested = (depth: number): Json => (depth === 0 ? {} : { a: nested(depth - 1) });
const firstEntry = (w: Json): Json => w.log.chunks[0][0];
const firstName = (w: Json, resource: string): string => trieKeys(trieGet(w.objects[resource] as Trie<Trie<unknown>>, 'default')!)[0]!;

/** One rule each: a snapshot broken in one place, and the start of what the 400 says. */
const rules: readonly [string, (w: Json) => Json, string][] = [
  ['world format', (w) => ({ ...w, format: 'platform-sim/world@0' }), 'world.format: must be "platform-sim/world@2"'],
  ['unknown field', (w) => ({ ...w, extra: 1 }), 'world.extra: unknown field'],
  ['required field', ({ log: _log, ...w }) => w, 'world.log: is required'],
  ['seed', (w) => ({ ...w, seed: 5 }), 'world.seed: must be a string, not 5'],
  ['config value', (w) => ({ ...w, config: { ...w.config, groupDomain: 'example.com' } }), 'world.config.groupDomain: must be "platform.io" or "k8s.io"'],
  ['config interval', (w) => ({ ...w, config: { ...w.config, compactionIntervalMs: 0 } }), 'world.config.compactionIntervalMs: must be a positive integer, not 0'],
  ['config field', (w) => ({ ...w, config: { ...w.config, turbo: true } }), 'world.config.turbo: unknown field'],
  ['now beyond year 9999', (w) => ({ ...w, now: 1e300 }), 'world.now: must be an instant in milliseconds from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z, not 1e+300'],
  ['now a string', (w) => ({ ...w, now: '2026-01-01T00:00:00Z' }), 'world.now: must be an instant'],
  ['revision', (w) => ({ ...w, revision: 0 }), 'world.revision: must be a positive integer, not 0'],
  ['compacted revision', (w) => ({ ...w, compactedRevision: -1 }), 'world.compactedRevision: must be a non-negative integer'],
  ['rng permutation', (w) => ({ ...w, rng: { ...w.rng, uid: { ...w.rng.uid, S: [w.rng.uid.S[1], ...w.rng.uid.S.slice(1)] } } }), 'world.rng["uid"].S[1]: '],
  ['rng index', (w) => ({ ...w, rng: { ...w.rng, uid: { ...w.rng.uid, i: 256 } } }), 'world.rng["uid"].i: must be an integer 0-255, not 256'],
  ['unknown resource', (w) => ({ ...w, objects: { ...w.objects, 'core/widgets': {} } }), 'world.objects["core/widgets"]: no such resource'],
  ['trie slot', (w) => ({ ...w, objects: { ...w.objects, 'core/configmaps': { ...w.objects['core/configmaps'], x: {} } } }), 'world.objects["core/configmaps"]: trie slot "x" is not one of 0-63'],
  [
    'key placement',
    (w) => {
      // The ConfigMap moved into a leaf its hash does not lead to.
      const byNs = w.objects['core/configmaps'];
      const slot = Object.keys(byNs)[0]!;
      return { ...w, objects: { ...w.objects, 'core/configmaps': { ...byNs, [String((Number(slot) + 1) % 64)]: byNs[slot] } } };
    },
    'not where its hash places it in the trie',
  ],
  ['cluster-scoped namespace', (w) => ({ ...w, objects: { ...w.objects, 'core/nodes': JSON.parse(JSON.stringify(trieSet(emptyTrie as Trie<unknown>, 'team', trieGet(w.objects['core/nodes'], '')!))) } }), 'world.objects["core/nodes"]["team"]: a cluster-scoped kind has only the namespace ""'],
  ['name and key', webSts((o) => ({ ...o, metadata: { ...o.metadata, name: 'other' } })), 'world.objects["apps/statefulsets"]["default"]["web"].metadata.name: must be its key "web", not "other"'],
  ['apiVersion', webSts((o) => ({ ...o, apiVersion: 'apps/v2' })), '["web"].apiVersion: must be "apps/v1", not "apps/v2"'],
  ['kind', webSts((o) => ({ ...o, kind: 'Deployment' })), '["web"].kind: must be "StatefulSet"'],
  ['namespace and key', webSts((o) => ({ ...o, metadata: { ...o.metadata, namespace: 'kube' } })), '["web"].metadata.namespace: must be its key "default"'],
  ['uid', webSts((o) => ({ ...o, metadata: { ...o.metadata, uid: '' } })), '["web"].metadata.uid: must be a non-empty string'],
  ['resourceVersion', webSts((o) => ({ ...o, metadata: { ...o.metadata, resourceVersion: '12a' } })), '["web"].metadata.resourceVersion: must be a positive decimal integer, not "12a"'],
  ['field type', webSts((o) => ({ ...o, spec: { ...o.spec, replicas: 'three' } })), '["web"].spec.replicas: must be an integer (int32), not "three"'],
  ['huge number', webSts((o) => ({ ...o, spec: { ...o.spec, replicas: 1e300 } })), '["web"].spec.replicas: must be an integer (int32), not 1e+300'],
  ['null struct', webSts((o) => ({ ...o, spec: null })), '["web"].spec: must be an object (StatefulSetSpec), not null'],
  ['unknown object field', webSts((o) => ({ ...o, spec: { ...o.spec, turbo: true } })), '["web"].spec.turbo: unknown field'],
  ['prototype key', webSts((o) => JSON.parse(JSON.stringify(o).replace('{', '{"__proto__":{"polluted":true},'))), '["web"].__proto__: unknown field'],
  ['timestamp', webSts((o) => ({ ...o, metadata: { ...o.metadata, creationTimestamp: 'yesterday' } })), '["web"].metadata.creationTimestamp: must be an RFC 3339 time'],
  ['bytes', (w) => withObject(w, 'core/secrets', 'default', 'sec', (o) => ({ ...o, data: { k: 'not base64!' } })), '["sec"].data["k"]: must be base64'],
  ['nesting', webSts((o) => ({ ...o, metadata: { ...o.metadata, managedFields: [{ ...o.metadata.managedFields[0], fieldsV1: nested(150) }] } })), 'nested deeper than 100 levels'],
  ['owner reference', (w) => withObject(w, 'core/pods', 'default', 'web-0', (o) => ({ ...o, metadata: { ...o.metadata, ownerReferences: [{ ...o.metadata.ownerReferences[0], name: undefined }] } })), '["web-0"].metadata.ownerReferences[0].name: must not be empty'],
  ['required by validation', (w) => withObject(w, 'apps/controllerrevisions', 'default', firstName(w, 'apps/controllerrevisions'), ({ data: _data, ...o }) => o), '.data: is required'],
  ['log size', (w) => ({ ...w, log: { ...w.log, size: w.log.size + 1 } }), 'world.log.size: must be the number of entries'],
  ['log chunk', (w) => ({ ...w, log: { ...w.log, chunks: [...w.log.chunks, []] } }), 'must be a non-empty list'],
  ['log order', (w) => ({ ...w, log: { ...w.log, chunks: w.log.chunks.map((c: Json[], i: number) => (i === 0 ? [c[1], c[0], ...c.slice(2)] : c)) } }), 'world.log.chunks[0][1].rv:'],
  ['log type', (w) => ({ ...w, log: { ...w.log, chunks: [[{ ...firstEntry(w), type: 'UPDATED' }, ...w.log.chunks[0].slice(1)], ...w.log.chunks.slice(1)] } }), 'world.log.chunks[0][0].type: must be "ADDED", "MODIFIED" or "DELETED"'],
  ['log object', (w) => ({ ...w, log: { ...w.log, chunks: [[{ ...firstEntry(w), object: { ...firstEntry(w).object, metadata: 7 } }, ...w.log.chunks[0].slice(1)], ...w.log.chunks.slice(1)] } }), 'world.log.chunks[0][0].object.metadata: must be an object'],
  ['owner index extra', (w) => ({ ...w, owners: JSON.parse(JSON.stringify(trieSet(w.owners, 'no-such-owner', trieSet(emptyTrie as Trie<true>, 'core/pods|default|web-0', true)))) }), 'world.owners["no-such-owner"]["core/pods|default|web-0"]: no stored object has this owner reference'],
  ['owner index missing', (w) => ({ ...w, owners: {} }), 'world.owners: lacks the owner reference of'],
  ['controller memory', (w) => ({ ...w, controllers: { ...w.controllers, 'node-agent': 5 } }), 'world.controllers["node-agent"]: must be an object'],
  ['controller memory depth', (w) => ({ ...w, controllers: { ...w.controllers, mine: nested(200) } }), 'world.controllers["mine"]'],
  ['node agent memory', (w) => ({ ...w, controllers: { ...w.controllers, 'node-agent': { ...w.controllers['node-agent'], applied: null } } }), 'world.controllers["node-agent"].applied: must be an object (a trie), not null'],
  ['collector memory', (w) => ({ ...w, controllers: { ...w.controllers, 'garbage-collector': { cursor: 'x' } } }), 'world.controllers["garbage-collector"].cursor: must be a non-negative integer'],
  ['fault rule', (w) => ({ ...w, faults: w.faults.map((f: Json, i: number) => (i === 2 ? { ...f, rule: { ...f.rule, code: 418 } } : f)) }), 'world.faults[2].rule.code: must be one of 409, 429, 500, 503, 504'],
  ['fault rule controller', (w) => ({ ...w, faults: w.faults.map((f: Json, i: number) => (i === 0 ? { ...f, rule: { ...f.rule, controller: 'ghost' } } : f)) }), 'world.faults[0].rule.controller: no controller "ghost"'],
  ['fault count', (w) => ({ ...w, faults: w.faults.map((f: Json) => ({ ...f, fired: -1 })) }), 'world.faults[0].fired: must be a non-negative integer'],
  ['retries', (w) => ({ ...w, retries: { 'statefulset-controller/x': { attempts: 0, notBefore: 0 } } }), 'world.retries["statefulset-controller/x"].attempts: must be a positive integer'],
];

describe('PUT /sim/v1/snapshot refuses a malformed world, naming its first problem', () => {
  it('accepts the valid snapshot it starts from', async () => {
    const s = await restoreSimulation(clone());
    const res = await s.request({ method: 'PUT', path: '/sim/v1/snapshot', body: clone() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ hash: valid.hash() });
  });

  it('refuses what is not a snapshot', async () => {
    const s = await restoreSimulation(clone());
    const res = await s.request({ method: 'PUT', path: '/sim/v1/snapshot', body: { ...clone(), format: 'platform-sim/snapshot@9' } });
    expect(res.body).toMatchObject({ code: 400, reason: 'BadRequest', message: 'not a platform-sim snapshot: format must be "platform-sim/snapshot@1", not "platform-sim/snapshot@9"' });
  });

  it.each(rules)('%s', async (_name, mutate, message) => {
    const s = await restoreSimulation(clone());
    const before = s.hash();
    const snap = clone();
    const res = await s.request({ method: 'PUT', path: '/sim/v1/snapshot', body: { ...snap, world: mutate(snap.world) } });
    expect(res.status).toBe(400);
    expect(res.body.reason).toBe('BadRequest');
    expect(res.body.message).toMatch(/^invalid snapshot: world/);
    expect(res.body.message).toContain(message);
    expect(s.hash()).toBe(before);
    expect((await s.request({ method: 'GET', path: '/api/v1/namespaces/default/pods' })).status).toBe(200);
  });

  it('refuses a world made with the other names', async () => {
    const s = await restoreSimulation(clone());
    const other = (await richSim('k8s.io')).snapshot();
    const res = await s.request({ method: 'PUT', path: '/sim/v1/snapshot', body: other });
    expect(res.body.message).toBe('invalid snapshot: world.config.groupDomain: "k8s.io", but this simulation serves the "platform.io" names (a world keeps the names it was made with)');
  });

  it('refuses a world whose revision is behind what it stored, or leaves no room to count (store/servedWorld.ts)', async () => {
    const s = await restoreSimulation(clone());
    const before = s.hash();
    const w = clone().world;
    const put = (world: Json) => s.request({ method: 'PUT', path: '/sim/v1/snapshot', body: { ...clone(), world } });
    const lastRv = (w.log.chunks.at(-1) as Json[]).at(-1).rv;
    expect((await put({ ...w, revision: lastRv - 1 })).body).toMatchObject({ code: 400, message: `invalid snapshot: world.log: holds revision ${lastRv}, beyond the revision ${lastRv - 1}` });
    const emptyLog = { ...w, log: { chunks: [], size: 0 }, compactedRevision: 1, revisionAtLastCompaction: 1 };
    expect((await put({ ...emptyLog, revision: 2 })).body.message).toMatch(/^invalid snapshot: world\.objects\[.*\]\.metadata\.resourceVersion: \d+ is beyond the revision 2$/);
    expect((await put({ ...w, revision: 2 ** 52 + 1 })).body.message).toBe(`invalid snapshot: world.revision: ${2 ** 52 + 1} leaves no room for more writes (at most ${2 ** 52})`);
    expect(s.hash()).toBe(before);
    // At the bound a world takes writes; a state file of the world they make is read back (it is
    // the server's own), while putting it from outside again is refused: it no longer leaves 2^52.
    expect((await put({ ...w, revision: 2 ** 52 })).status).toBe(200);
    const made = await s.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: { metadata: { name: 'late' } } });
    expect(made.body.metadata.resourceVersion).toBe(String(2 ** 52 + 1));
    expect(servedWorldProblem(s.world, false)).toBeNull();
    expect((await s.request({ method: 'PUT', path: '/sim/v1/snapshot', body: s.snapshot() })).body.message).toMatch(/leaves no room for more writes/);
  });

  it("checks the StatefulSet controller's memory of its pod writes", async () => {
    const s = await restoreSimulation(clone());
    const w = clone().world;
    const put = (memory: unknown) => s.request({ method: 'PUT', path: '/sim/v1/snapshot', body: { ...clone(), world: { ...w, controllers: { ...w.controllers, 'statefulset-controller': memory } } } });
    expect((await put({ sets: { u1: { second: 1_767_225_600_000, writes: 500, more: true } } })).status).toBe(200);
    expect((await put({ sets: { u1: { second: 1_767_225_600_000, writes: -1 } } })).body.message).toBe('invalid snapshot: world.controllers["statefulset-controller"].sets["u1"].writes: must be a non-negative integer, not -1');
    expect((await put({ sets: { u1: { writes: 1 } } })).body.message).toBe('invalid snapshot: world.controllers["statefulset-controller"].sets["u1"].second: is required');
    expect((await put({ sets: 5 })).body.message).toBe('invalid snapshot: world.controllers["statefulset-controller"].sets: must be an object, not 5');
  });

  it('checks a world@1 save before upgrading it', async () => {
    const s = await restoreSimulation(clone());
    const res = await s.request({ method: 'PUT', path: '/sim/v1/snapshot', body: { ...clone(), world: { ...clone().world, format: 'platform-sim/world@1', objects: null } } });
    expect(res.body.message).toBe('invalid snapshot: world.objects: must be an object');
  });
});

describe('the library refuses the same worlds', () => {
  const broken = (): Json => {
    const snap = clone();
    return { ...snap, world: { ...snap.world, revision: 'many' } };
  };

  it('replaceWorld throws PSIM_SNAPSHOT_INVALID and keeps the world', async () => {
    const s = await restoreSimulation(clone());
    const before = s.hash();
    expect(() => s.replaceWorld(broken().world)).toThrow(expect.objectContaining({ code: 'PSIM_SNAPSHOT_INVALID', message: 'replaceWorld: world.revision: must be a positive integer, not "many"' }));
    expect(s.hash()).toBe(before);
  });

  it('restoreSimulation refuses a malformed world and a memory the simulation cannot run on', async () => {
    await expect(restoreSimulation(broken())).rejects.toMatchObject({ code: 'PSIM_SNAPSHOT_INVALID' });
    const snap = clone();
    const memory = { ...snap, world: { ...snap.world, controllers: { ...snap.world.controllers, 'garbage-collector': { cursor: -3 } } } };
    await expect(restoreSimulation(memory)).rejects.toMatchObject({ code: 'PSIM_SNAPSHOT_INVALID', message: 'invalid snapshot: world.controllers["garbage-collector"].cursor: must be a non-negative integer, not -3' });
  });

  it('readSavedWorld returns null for what it does not accept', () => {
    expect(readSavedWorld(broken().world)).toBeNull();
    expect(readSavedWorld(clone().world)).not.toBeNull();
  });
});

describe('advancing the clock', () => {
  it('past year 9999 is a 400 that changes nothing, and every later request is answered', async () => {
    const s = await restoreSimulation(clone());
    const before = s.hash();
    const res = await s.request({ method: 'POST', path: '/sim/v1/clock/advance', body: { duration: '1000000000000h' } });
    expect(res.body).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'duration: advancing 1000000000000h0m0s from 2026-01-01T00:00:05Z would pass 9999-12-31T23:59:59Z, the last instant of virtual time (RFC 3339 writes four-digit years)',
    });
    expect(s.hash()).toBe(before);
    expect((await s.request({ method: 'GET', path: '/sim/v1/clock' })).body).toEqual({ now: '2026-01-01T00:00:05Z' });
    expect((await s.request({ method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts', body: { metadata: { name: 'after' } } })).status).toBe(201);
    expect((await s.request({ method: 'GET', path: '/sim/v1/snapshot' })).status).toBe(200);
  });

  it('sim.advance throws PSIM_DURATION_INVALID instead', async () => {
    const s = await restoreSimulation(clone());
    await expect(s.advance('1000000000000h')).rejects.toMatchObject({ name: 'PlatformSimError', code: 'PSIM_DURATION_INVALID', message: expect.stringContaining('would pass 9999-12-31T23:59:59Z') });
    await expect(s.advance(Number.MAX_VALUE)).rejects.toMatchObject({ code: 'PSIM_DURATION_INVALID' });
    expect(s.now()).toBe('2026-01-01T00:00:05Z');
  });

  it('reaches the last instant and stops there; a wall-clock tick stops there quietly', async () => {
    const s = await createSimulation({ startTime: '9999-12-31T23:00:00Z' });
    await s.advance('59m59s');
    expect(s.now()).toBe('9999-12-31T23:59:59Z');
    await expect(s.advance('1ms')).rejects.toMatchObject({ code: 'PSIM_DURATION_INVALID' });
    await s.advance(5000, { quiet: true });
    expect(s.now()).toBe('9999-12-31T23:59:59Z');
    expect((await s.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: { metadata: { name: 'late' } } })).body.metadata.creationTimestamp).toBe('9999-12-31T23:59:59Z');
  });

  it('across more compactions than one advance visits is refused', async () => {
    const s = await createSimulation({ compactionInterval: '1ms' });
    const res = await s.request({ method: 'POST', path: '/sim/v1/clock/advance', body: { duration: '1h' } });
    expect(res.body.message).toBe('duration: advancing 1h0m0s crosses 3600000 history compactions (one every 1ms); one advance may cross at most 1000000: advance in shorter steps');
    await expect(s.advance('20m')).rejects.toMatchObject({ code: 'PSIM_DURATION_INVALID', message: expect.stringContaining('crosses 1200000 history compactions') });
    await s.advance('1s');
    expect(s.now()).toBe('2025-01-01T00:00:01Z');
  });

  it('startTime stays within the years RFC 3339 writes, in UTC', async () => {
    await expect(createSimulation({ startTime: '9999-12-31T23:59:59-01:00' })).rejects.toMatchObject({ code: 'PSIM_OPTION_INVALID', message: expect.stringContaining('outside virtual time') });
    await expect(createSimulation({ startTime: '0000-01-01T00:00:00+01:00' })).rejects.toMatchObject({ code: 'PSIM_OPTION_INVALID' });
    expect((await createSimulation({ startTime: '0000-01-01T00:00:00Z' })).now()).toBe('0000-01-01T00:00:00Z');
  });
});

describe('fault rules in control bodies', () => {
  it('a rule nested deeper than a request body may be is refused', async () => {
    const s = await restoreSimulation(clone());
    const before = s.hash();
    const res = await s.request({ method: 'POST', path: '/sim/v1/faults', body: { rules: [{ code: 500, when: { 'metadata.labels': nested(150) } }] } });
    expect(res.body).toMatchObject({ code: 400, message: expect.stringMatching(/^body\.rules\[0\]\.when\["metadata\.labels"\].*: nested deeper than 100 levels$/) });
    expect(s.hash()).toBe(before);
  });
});

describe('over HTTP', () => {
  const dir = mkdtempSync(join(tmpdir(), 'psim-control-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses the advance that broke every later request, and the state file stays loadable', async () => {
    const stateFile = join(dir, 'state.json');
    const server = await serve({ port: 0, clock: 'manual', tls: false, stateFile });
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      return { status: res.status, body: (await res.json()) as Json };
    };
    try {
      const advance = await call('POST', '/sim/v1/clock/advance', { duration: '1000000000000h' });
      expect(advance.status).toBe(400);
      expect(advance.body.message).toContain('would pass 9999-12-31T23:59:59Z');
      const put = await call('PUT', '/sim/v1/snapshot', { ...validSnapshot, world: { ...validSnapshot.world, now: 'soon' } });
      expect(put.status).toBe(400);
      expect(put.body.message).toMatch(/^invalid snapshot: world\.now: must be an instant/);
      expect((await call('GET', '/sim/v1/clock')).body).toEqual({ now: '2025-01-01T00:00:00Z' });
      expect((await call('GET', '/api/v1/namespaces')).status).toBe(200);
    } finally {
      await server.close();
    }
    const again = await serve({ port: 0, clock: 'manual', tls: false, stateFile });
    expect(again.sim.now()).toBe('2025-01-01T00:00:00Z');
    await again.close();
  });
});

describe('a mutated snapshot is refused and changes nothing, or serves every later request without a 5xx', () => {
  /** A path into the world: at each step the child picked by the index, while there is one. */
  const mutation = fc.record({
    // Mostly into the stored objects, where most of a world is; sometimes from the top.
    root: fc.constantFrom('objects', 'objects', 'objects', 'objects', 'log', 'controllers', 'faults', 'owners', 'rng', ''),
    path: fc.array(fc.nat(), { minLength: 1, maxLength: 16 }),
    change: fc.oneof(
      fc.constant({ type: 'delete' as const }),
      fc.constantFrom<unknown>('x', '', -1, 0, 1.5, 2 ** 31, Number.MAX_SAFE_INTEGER, 1e300, true, null, [], {}, [1], { a: 1 }).map((value) => ({ type: 'set' as const, value })),
      fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty').map((key) => ({ type: 'key' as const, key })),
    ),
  });

  function mutate(world: Json, m: Json): Json {
    let parent: Json = m.root === '' ? null : world;
    let key: string | number = m.root;
    let node: Json = m.root === '' ? world : world[m.root];
    for (const n of m.path) {
      const keys: (string | number)[] = Array.isArray(node) ? node.map((_: unknown, i: number) => i) : node !== null && typeof node === 'object' ? Object.keys(node) : [];
      if (keys.length === 0) break;
      parent = node;
      key = keys[n % keys.length]!;
      node = node[key];
    }
    if (parent === null) return world;
    if (m.change.type === 'delete') {
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete parent[key];
    } else if (m.change.type === 'set') parent[key] = m.change.value;
    else if (typeof node === 'object' && node !== null && !Array.isArray(node)) Object.defineProperty(node, m.change.key, { value: { injected: 1 }, enumerable: true, writable: true, configurable: true });
    else parent[key] = { [m.change.key]: node };
    return world;
  }

  /** Reads and writes that go through every part of a world. */
  const script: readonly [string, string, unknown?][] = [
    ['GET', '/sim/v1/clock'],
    ['GET', '/sim/v1/hash'],
    ['GET', '/sim/v1/faults'],
    ['GET', '/api/v1/namespaces'],
    ['GET', '/api/v1/pods'],
    ['GET', '/api/v1/nodes'],
    ['GET', '/api/v1/events'],
    ['GET', '/api/v1/secrets'],
    ['GET', '/api/v1/configmaps?limit=1'],
    ['GET', '/api/v1/serviceaccounts'],
    ['GET', '/apis/apps/v1/statefulsets'],
    ['GET', '/apis/apps/v1/controllerrevisions'],
    ['GET', '/api/v1/persistentvolumeclaims'],
    ['GET', '/apis/certificates.platform.io/v1/certificatesigningrequests'],
    ['GET', '/apis/rbac.authorization.platform.io/v1/clusterroles'],
    ['GET', '/api/v1/pods?resourceVersion=3&resourceVersionMatch=Exact&limit=5'],
    ['GET', '/api/v1/namespaces/default/pods/web-0'],
    ['POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'fuzz' } }],
    ['PATCH', '/apis/apps/v1/namespaces/default/statefulsets/web', { spec: { replicas: 3 } }],
    ['DELETE', '/api/v1/namespaces/default/pods/solo'],
    ['POST', '/sim/v1/settle'],
    ['POST', '/sim/v1/clock/advance', { duration: '61s' }],
    ['DELETE', '/apis/apps/v1/namespaces/default/statefulsets/web'],
    ['POST', '/sim/v1/clock/advance', { duration: '1h2m' }],
    ['GET', '/api/v1/pods'],
    ['GET', '/sim/v1/snapshot'],
    ['GET', '/sim/v1/trace'],
  ];
  const table = { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };

  it('for random mutations', async () => {
    await fc.assert(
      fc.asyncProperty(mutation, async (m) => {
        const s = await restoreSimulation(clone());
        const before = s.hash();
        const snap = clone();
        const put = await s.request({ method: 'PUT', path: '/sim/v1/snapshot', body: { ...snap, world: mutate(snap.world, m) } });
        if (process.env['PSIM_FUZZ_LOG'] !== undefined) console.log(put.status, JSON.stringify(m).slice(0, 120), put.status === 400 ? put.body.message.slice(0, 140) : '');
        if (put.status !== 200) {
          expect(put.status).toBe(400);
          expect(s.hash()).toBe(before);
          return;
        }
        for (const [method, path, body] of script) {
          const headers = method === 'PATCH' ? { 'content-type': 'application/merge-patch+json' } : {};
          const res = await s.request({ method, path, headers, ...(body === undefined ? {} : { body }) });
          expect(res.status, `${method} ${path}: ${JSON.stringify(res.body).slice(0, 300)}`).toBeLessThan(500);
          if (method === 'GET' && path.startsWith('/api')) expect((await s.request({ method, path, headers: table })).status).toBeLessThan(500);
        }
        const watch = await s.request({ method: 'GET', path: '/api/v1/pods?watch=true&resourceVersion=1' });
        expect(watch.status).toBeLessThan(500);
        watch.watch?.drain();
        watch.watch?.close();
      }),
      { numRuns: Number(process.env["PSIM_FUZZ_RUNS"] ?? 60) },
    );
  });
});
