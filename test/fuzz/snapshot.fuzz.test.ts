/**
 * Issue 16, point 7: mutated valid snapshots put back over HTTP. A `serve` with a bit of every
 * part of a world (namespaces, a StatefulSet with its pods, claims and revisions, owner
 * references, a Secret, a certificate request, fault rules, the controllers' memories, a
 * compacted log) gives its snapshot (`GET /sim/v1/snapshot`); each run edits it (snapshots.ts)
 * and the admin PUTs it to `/sim/v1/snapshot` on a raw socket. What must hold:
 * - an answer within the deadline, 200 or a 4xx — never a 5xx, never a dropped connection;
 * - after a 4xx, `GET /sim/v1/hash` is the hash of the world before;
 * - after a 200, `GET /sim/v1/hash` is the hash the PUT answered, and so is the hash of the
 *   snapshot fetched again; a list answers 200; a ConfigMap created in `default` is answered 201
 *   and read back (a 4xx that changes nothing when the world has no active `default`
 *   namespace); and the snapshot of the world after that write is accepted again — an accepted
 *   world never leads the server to one it would refuse (a revision behind its log or objects,
 *   or without room to count, is refused: store/servedWorld.ts);
 * - Object.prototype and its neighbours keep their properties.
 * After a 200 the pristine snapshot is put back, so every run starts from the same world and a
 * failing one replays alone. Batches of 25 runs with seeds FC_SEED, FC_SEED+1, … go on for
 * SNAPSHOT_FUZZ_BUDGET_MS (default 6 s); a failure prints its batch seed, path, the shrunk edits
 * and both replay commands.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/server.ts';
import { hashWorld } from '../../src/sim/hash.ts';
import { trieGet, type Trie } from '../../src/store/trie.ts';
import type { World } from '../../src/store/world.ts';
import { send, type RawAnswer, type Target } from './rawClient.ts';
import { prototypeState } from './run.ts';
import { edits, Mutator, type Edit } from './snapshots.ts';

const budgetMs = Number(process.env['SNAPSHOT_FUZZ_BUDGET_MS'] ?? 6_000);
const seed = Number(process.env['FC_SEED'] ?? 20261124);
const replayPath = process.env['FUZZ_PATH'];
const file = 'test/fuzz/snapshot.fuzz.test.ts';

let server: RunningServer;
let target: Target;
let pristine: string;
let pristineHash: string;
let mutator: Mutator;
let untouched: string;

interface Answer {
  readonly status: number;
  readonly text: string;
  readonly json: any;
}

/** One request as the admin, on its own socket; anything but an answer (a hang, a drop) throws. */
async function call(method: string, path: string, body?: string): Promise<Answer> {
  const headers: [string, string][] = [['Authorization', `Bearer ${server.adminToken}`]];
  if (body !== undefined) headers.push(['Content-Type', 'application/json']);
  const a: RawAnswer = await send(target, { method, path, headers, ...(body === undefined ? {} : { body: new TextEncoder().encode(body) }) }, 10_000);
  if (a.kind !== 'answer') throw new Error(`${method} ${path}: ${a.kind === 'timeout' ? `no answer within 10 s` : 'the connection closed without an answer'}`);
  let json: unknown = null;
  try {
    json = JSON.parse(a.body);
  } catch {
    // Not JSON: the checks below say what they expected.
  }
  if (a.status >= 500) throw new Error(`${method} ${path} answered ${a.status}: ${a.body.slice(0, 400)}`);
  return { status: a.status, text: a.body, json };
}

const hashNow = async (): Promise<string> => (await call('GET', '/sim/v1/hash')).json.hash as string;

function check(ok: boolean, message: string): void {
  if (!ok) throw new Error(message);
}

/** Whether a create in `default` must succeed: the namespace is stored and not being deleted. */
function defaultActive(world: World): boolean {
  const byNs = world.objects['core/namespaces'] as Trie<Trie<{ metadata: { deletionTimestamp?: unknown }; status?: { phase?: unknown } }>> | undefined;
  const ns = byNs === undefined ? undefined : trieGet(trieGet(byNs, '') ?? ({} as Trie<never>), 'default');
  return ns !== undefined && (ns.metadata.deletionTimestamp ?? null) === null && ns.status?.phase !== 'Terminating';
}

/** What must hold once a mutated snapshot was accepted with `hash`. */
async function afterAccepted(hash: string): Promise<void> {
  check((await hashNow()) === hash, 'GET /sim/v1/hash is not the hash the PUT answered');
  const again = await call('GET', '/sim/v1/snapshot');
  const world = again.json.world as World;
  check(hashWorld(world) === hash, 'the snapshot fetched again has another hash than the one put');
  const list = await call('GET', '/api/v1/namespaces/default/configmaps');
  check(list.status === 200 && list.json?.kind === 'ConfigMapList', `GET configmaps answered ${list.status}: ${list.text.slice(0, 300)}`);
  const created = await call('POST', '/api/v1/namespaces/default/configmaps', JSON.stringify({ metadata: { name: 'snapshot-probe' }, data: { k: 'v' } }));
  if (defaultActive(world)) {
    check(created.status === 201, `a ConfigMap create in default answered ${created.status}: ${created.text.slice(0, 300)}`);
    const read = await call('GET', '/api/v1/namespaces/default/configmaps/snapshot-probe');
    check(read.status === 200 && read.json?.data?.k === 'v', `the ConfigMap just created reads back as ${read.status}: ${read.text.slice(0, 300)}`);
  } else {
    check(created.status >= 400 && created.status < 500, `a create in a missing or terminating namespace answered ${created.status}`);
    check((await hashNow()) === hash, `the refused create (${created.status}) changed the world`);
  }
  const after = await call('GET', '/sim/v1/snapshot');
  const back = await call('PUT', '/sim/v1/snapshot', after.text);
  check(back.status === 200, `the snapshot of the world after one write is refused (${back.status}): ${back.text.slice(0, 400)}`);
}

/** The pristine world back, for the next run. */
async function restore(): Promise<void> {
  const back = await call('PUT', '/sim/v1/snapshot', pristine);
  check(back.status === 200 && (await hashNow()) === pristineHash, 'the pristine snapshot could not be put back');
}

const tally = { runs: 0, accepted: 0, refused: new Map<number, number>() };

const property = fc.asyncProperty(edits, async (list: readonly Edit[]) => {
  tally.runs++;
  const put = await call('PUT', '/sim/v1/snapshot', mutator.apply(list));
  if (put.status !== 200) {
    tally.refused.set(put.status, (tally.refused.get(put.status) ?? 0) + 1);
    check(put.status >= 400 && put.status < 500, `PUT answered ${put.status}`);
    check((await hashNow()) === pristineHash, `PUT answered ${put.status} but changed the world: ${put.text.slice(0, 300)}`);
  } else {
    tally.accepted++;
    try {
      await afterAccepted(put.json.hash as string);
    } finally {
      await restore();
    }
  }
  check(prototypeState() === untouched && {}.constructor === Object, 'Object.prototype (or a neighbour) was modified');
});

beforeAll(async () => {
  server = await serve({
    port: 0,
    clock: 'manual',
    tls: false,
    seed: 16,
    startTime: '2026-01-01T00:00:00Z',
    podReadyAfter: '1s',
    faults: [
      { kind: 'controller', controller: 'garbage-collector', action: 'pause', from: '1h', for: '1m' },
      { kind: 'node', action: 'podNeverReady', names: ['solo'] },
    ],
  });
  const url = new URL(server.url);
  target = { host: url.hostname, port: Number(url.port) };
  const post = async (path: string, body: unknown): Promise<void> => {
    const res = await server.sim.request({ method: 'POST', path, body });
    expect(res.status, `${path}: ${JSON.stringify(res.body).slice(0, 200)}`).toBe(201);
  };
  const labels = { app: 'web' };
  await post('/api/v1/namespaces', { metadata: { name: 'team' } });
  await post('/apis/apps/v1/namespaces/default/statefulsets', {
    metadata: { name: 'web' },
    spec: { replicas: 2, serviceName: 'web', selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'a', image: 'nginx' }] } }, volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] },
  });
  await post('/api/v1/namespaces/default/pods', { metadata: { name: 'solo' }, spec: { containers: [{ name: 'a', image: 'x' }] } });
  // A data key named `__proto__`, as a client's JSON makes it (an own key).
  const settings = await server.sim.request({ method: 'POST', path: '/api/v1/namespaces/team/configmaps', headers: { 'content-type': 'application/json' }, body: '{"metadata":{"name":"settings","labels":{"app":"web"}},"data":{"a":"b","__proto__":"c"}}' });
  expect(settings.status).toBe(201);
  await post('/api/v1/namespaces/team/secrets', { metadata: { name: 'token' }, data: { k: Buffer.from('v').toString('base64') } });
  await post('/api/v1/namespaces/team/serviceaccounts', { metadata: { name: 'builder' } });
  const { request } = await server.sim.createCertificateRequest({ commonName: 'alice' });
  await post('/apis/certificates.platform.io/v1/certificatesigningrequests', { metadata: { name: 'alice' }, spec: { request: Buffer.from(request).toString('base64'), signerName: 'platform.io/apiserver-client', usages: ['client auth'] } });
  // Pods become ready, and a compaction leaves a log that starts after revision 1.
  await server.sim.advance('6m');
  await post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'late' }, data: { n: '1' } });
  const snap = await call('GET', '/sim/v1/snapshot');
  pristine = snap.text;
  pristineHash = await hashNow();
  mutator = new Mutator(pristine);
  untouched = prototypeState();
});

afterAll(async () => {
  await server?.close();
});

describe('mutated snapshots put back over HTTP', () => {
  it('the pristine snapshot is accepted, keeps its hash and passes the checks of an accepted world', async () => {
    const put = await call('PUT', '/sim/v1/snapshot', pristine);
    expect(put.status).toBe(200);
    expect(put.json.hash).toBe(pristineHash);
    await afterAccepted(pristineHash);
    await restore();
  });

  it('are answered 200 or 4xx, a 4xx changes nothing, and an accepted world serves reads and writes', { timeout: budgetMs + 120_000 }, async () => {
    const started = performance.now();
    // Batches of fast-check runs with seeds seed, seed+1, … until the budget is spent: a run is
    // never cut off half-way (its requests would outlive the server), and a batch replays alone.
    let details = replayPath === undefined ? null : await fc.check(property, { seed, path: replayPath, numRuns: 1 });
    for (let b = 0; details === null || (!details.failed && replayPath === undefined && performance.now() - started < budgetMs); b++) details = await fc.check(property, { seed: seed + b, numRuns: 25 });
    const seconds = (performance.now() - started) / 1000;
    const refused = [...tally.refused.entries()].map(([s, n]) => `${s}: ${n}`).join(', ');
    console.log(`snapshot fuzz: ${tally.runs} mutated snapshots in ${seconds.toFixed(1)} s; accepted: ${tally.accepted}; refused ${refused}`);
    if (details.failed) {
      const list = details.counterexample?.[0];
      const report = [
        `snapshot fuzz failure (batch seed ${details.seed}, path ${details.counterexamplePath ?? ''}): ${details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)}`,
        `replay the whole run: FC_SEED=${seed} npx vitest run ${file}`,
        `replay this snapshot: FC_SEED=${details.seed} FUZZ_PATH=${details.counterexamplePath ?? ''} npx vitest run ${file}`,
        `shrunk ${details.numShrinks} time(s) to the edits: ${list === undefined ? '?' : mutator.describe(list)}`,
      ].join('\n');
      expect.fail(report);
    }
    if (replayPath === undefined) expect(tally.runs).toBeGreaterThan(20);
  });
});
