/**
 * Issue 16: reliability under load, each figure beside a bare node:http server doing the same
 * requests in this run.
 *
 * Fuzzing: the fuzzer of test/fuzz (run.ts: random and mutated requests, one at a time, each on
 * its own socket, every property checked after each) against `serve` from the built bundle for
 * a fixed budget, with its 5xx answers (the 504 of a too-large resourceVersion is the one
 * allowed), crashes and hangs; then the very same request stream (same seeds, same credentials)
 * against a bare server answering 400 to everything: what the fuzzer's own drawing, encoding and
 * sockets allow.
 *
 * Concurrency: 50 clients increment 4 ConfigMaps by read-modify-write (GET, change, PUT with the
 * resourceVersion read, again on a 409; test/server/readModifyWrite.ts) while 4 watchers follow
 * the collection, until a fixed number of increments is acknowledged; alternating rounds against
 * `serve` and a bare server doing the same over a Map (compare the resourceVersion, 409 with the
 * same Conflict Status, write the event to its watchers). Lost updates (final counts against
 * acknowledged increments) and watch delivery (each watcher every write once, in order) must hold
 * on both.
 */
import { Agent, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { serve } from './package.ts';
import { fmt } from './measure.ts';
import type { Row } from './store.bench.ts';
import { isTooLargeResourceVersion, runFuzz, sendStream, summary } from '../test/fuzz/run.ts';
import type { Target } from '../test/fuzz/rawClient.ts';
import { call, conflictStatus, eachCountOnce, expectedEvents, lostUpdates, seenEvents, until, watch, writer, type Ack, type Answer, type Endpoint } from '../test/server/readModifyWrite.ts';

const fuzzBudgetMs = 10_000;
const fuzzSeed = 20261124;
const clients = 50;
const watchers = 4;
const counters = 4;
const incrementsPerClient = 10;
const rounds = 3;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const close = (server: Server): Promise<void> =>
  new Promise((r) => {
    server.closeAllConnections();
    server.close(() => r());
  });

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function fuzzRows(progress: (msg: string) => void): Promise<Row[]> {
  const answer = JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'bad request', reason: 'BadRequest', code: 400 });
  // Headers up to platform-sim's limit (limits.requestHeaderBytesMax), so that the same requests reach the handler.
  const bare = createServer({ maxHeaderSize: 1_048_576 }, (_req, res) => {
    res.writeHead(400, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
    res.end(answer);
  });
  const bareUrl = new URL(await listen(bare));
  const bareTarget: Target = { host: bareUrl.hostname, port: Number(bareUrl.port) };
  // Warm-up of the drawing and encoding (other seeds), so that neither side pays for it.
  await sendStream(bareTarget, { adminToken: 'warm-up', csr: '' }, { budgetMs: 1_000, seed: fuzzSeed + 1_000_000 });

  progress(`reliability: the fuzzer against platform-sim for ${fuzzBudgetMs / 1000} s`);
  let fiveHundreds = 0;
  let tooLarge = 0;
  let counting = true;
  const sim = await runFuzz({
    budgetMs: fuzzBudgetMs,
    seed: fuzzSeed,
    serve,
    onAnswer: (_req, a) => {
      if (!counting || a.kind !== 'answer' || a.status < 500) return;
      if (isTooLargeResourceVersion(a)) tooLarge++;
      else {
        fiveHundreds++;
        // The run stops at the first and shrinks it: the requests shrinking sends are not the stream's.
        counting = false;
      }
    },
  });
  progress(`  ${summary(sim)}`);
  if (sim.failure !== null) progress(sim.failure);
  const crashed = sim.failure !== null && /no answer within the deadline|closed without an answer|stopped answering/.test(sim.failure);

  progress('reliability: the same requests against a bare node:http server answering 400');
  const base = await sendStream(bareTarget, sim.context, { budgetMs: fuzzBudgetMs, seed: fuzzSeed });
  progress(`  ${summary(base)}`);
  await close(bare);

  const simRate = sim.tally.requests / sim.seconds;
  const bareRate = base.tally.requests / base.seconds;
  const otherFailure = sim.failure !== null && fiveHundreds === 0 && !crashed;
  return [
    {
      what: `fuzz: random and mutated requests through \`serve\` over HTTP, one at a time, every property checked, ${fuzzBudgetMs / 1000} s (req/s)`,
      value: `${fmt(simRate)} (${(simRate / bareRate).toFixed(2)} of bare)`,
      baseline: `${fmt(bareRate)} (the same requests, bare node:http answering 400)`,
      target: '',
      ok: null,
    },
    {
      what: `fuzz: 5xx answers (but the 504 of a too-large resourceVersion: ${tooLarge}), crashes or hangs, in ${sim.tally.requests.toLocaleString('en-US')} requests`,
      value: `${fiveHundreds} 5xx, ${crashed ? 1 : 0} crashes or hangs`,
      baseline: '',
      target: '0 and 0',
      ok: fiveHundreds === 0 && !crashed,
    },
    {
      what: 'fuzz: the other properties (a 4xx leaves the world as it was, Object.prototype untouched)',
      value: otherFailure ? `**broken**: ${sim.failure!.split('\n')[0]!.slice(0, 200)}` : 'held',
      baseline: '',
      target: 'held',
      ok: !otherFailure,
    },
  ];
}

/** One round's figures: acknowledged increments, conflicts, and whether everything held. */
interface Round {
  readonly acks: number;
  readonly seconds: number;
  readonly conflicts: number;
  readonly wrongConflicts: number;
  readonly lost: number;
  readonly repeatedCounts: boolean;
  readonly watchOk: boolean;
  readonly delivered: number;
}

/** 50 writers on 4 fresh counters of `collection`, 4 watchers from the list's resourceVersion. */
async function round(to: Endpoint, collection: string, prefix: string): Promise<Round> {
  const names = Array.from({ length: counters }, (_, i) => `${prefix}-${i}`);
  for (const name of names) {
    const created = await call(to, 'POST', collection, { metadata: { name }, data: { count: '0' } });
    if (created.status !== 201) throw new Error(`create ${name}: ${created.status} ${JSON.stringify(created.body)}`);
  }
  const listed = await call(to, 'GET', collection);
  const streams = Array.from({ length: watchers }, () => watch(to, collection, listed.body.metadata.resourceVersion as string));
  // The watches are open before the first write.
  await new Promise((r) => setTimeout(r, 100));
  const acks: Ack[] = [];
  const conflicts = { n: 0, wrong: [] as Answer[] };
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, (_, i) => writer(to, collection, names[i % counters]!, incrementsPerClient, acks, conflicts)));
  const seconds = (performance.now() - started) / 1000;
  const finals = new Map<string, number>();
  for (const name of names) finals.set(name, Number((await call(to, 'GET', `${collection}/${name}`)).body.data.count));
  const expected = expectedEvents(acks);
  const lastRv = Math.max(...acks.map((a) => Number(a.rv)));
  await until(() => streams.every((w) => w.events.some((e) => Number(e.object.metadata.resourceVersion) >= lastRv)), 10_000);
  let watchOk = true;
  let delivered = 0;
  for (const w of streams) {
    w.close();
    const seen = seenEvents(w);
    delivered += seen.modified.length;
    watchOk &&= seen.others.length === 0 && seen.ordered && JSON.stringify(seen.modified) === JSON.stringify(expected);
  }
  return {
    acks: acks.length,
    seconds,
    conflicts: conflicts.n,
    wrongConflicts: conflicts.wrong.length,
    lost: lostUpdates(acks, finals),
    repeatedCounts: !names.every((n) => eachCountOnce(acks, n)),
    watchOk,
    delivered,
  };
}

/**
 * The same API over a Map: GET an object, PUT it if its resourceVersion is current (else the
 * Conflict Status), a list with the current revision, a create, and watches that get each write
 * as one JSON line.
 */
function bareStore(): Server {
  const objects = new Map<string, string>();
  const streams = new Set<ServerResponse>();
  let revision = 1;
  const reply = (res: ServerResponse, status: number, body: string): void => {
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const store = (name: string, o: { metadata: Record<string, unknown> }): string => {
    const text = JSON.stringify({ ...o, apiVersion: 'v1', kind: 'ConfigMap', metadata: { ...o.metadata, name, resourceVersion: String(++revision) } });
    objects.set(name, text);
    return text;
  };
  const handle = (req: IncomingMessage, res: ServerResponse, body: string): void => {
    const url = new URL(req.url ?? '/', 'http://bare');
    const [, name] = /^\/api\/v1\/namespaces\/[^/]+\/configmaps(?:\/([^/]+))?$/.exec(url.pathname) ?? [];
    if (req.method === 'POST' && url.pathname === '/api/v1/namespaces') return reply(res, 201, body);
    if (req.method === 'GET' && name === undefined && url.searchParams.get('watch') === 'true') {
      res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
      streams.add(res);
      res.on('close', () => streams.delete(res));
      return;
    }
    if (req.method === 'GET' && name === undefined) return reply(res, 200, `{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"${revision}"},"items":[${[...objects.values()].join(',')}]}`);
    if (req.method === 'POST' && name === undefined) {
      const o = JSON.parse(body) as { metadata: { name: string } };
      return reply(res, 201, store(o.metadata.name, o));
    }
    const current = name === undefined ? undefined : objects.get(name);
    if (name === undefined || current === undefined) return reply(res, 404, '{}');
    if (req.method === 'GET') return reply(res, 200, current);
    if (req.method === 'PUT') {
      const o = JSON.parse(body) as { metadata: Record<string, unknown> };
      const rv = (JSON.parse(current) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
      if (o.metadata['resourceVersion'] !== rv) return reply(res, 409, JSON.stringify(conflictStatus(name)));
      const text = store(name, o);
      for (const s of streams) s.write(`{"type":"MODIFIED","object":${text}}\n`);
      return reply(res, 200, text);
    }
    reply(res, 405, '{}');
  };
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
}

async function concurrencyRows(progress: (msg: string) => void): Promise<Row[]> {
  const ns = 'reliability';
  const collection = `/api/v1/namespaces/${ns}/configmaps`;
  const sim = await serve({ port: 0, clock: 'manual', tls: false, seed: 17 });
  const bare = bareStore();
  const agent = new Agent({ keepAlive: true, maxSockets: clients + watchers + 4 });
  const simTo: Endpoint = { url: sim.url, token: sim.adminToken, agent };
  const bareTo: Endpoint = { url: await listen(bare), token: 'bare', agent };
  for (const to of [simTo, bareTo]) {
    const made = await call(to, 'POST', '/api/v1/namespaces', { metadata: { name: ns } });
    if (made.status !== 201) throw new Error(`namespace: ${made.status} ${JSON.stringify(made.body)}`);
  }
  const increments = clients * incrementsPerClient;
  // Alternating rounds, so that a passing load on the shared machine does not fall on one side only.
  const simRounds: Round[] = [];
  const bareRounds: Round[] = [];
  for (let r = 0; r < rounds; r++) {
    progress(`reliability: ${clients} read-modify-write clients, ${watchers} watchers, ${increments} increments: bare server, round ${r + 1} of ${rounds}`);
    bareRounds.push(await round(bareTo, collection, `bare-${r}`));
    progress(`reliability: the same against platform-sim, round ${r + 1} of ${rounds}`);
    simRounds.push(await round(simTo, collection, `sim-${r}`));
  }
  agent.destroy();
  await sim.close();
  await close(bare);

  const rate = (rs: readonly Round[]): number => median(rs.map((x) => x.acks / x.seconds));
  const sum = (rs: readonly Round[], f: (x: Round) => number): number => rs.reduce((n, x) => n + f(x), 0);
  const held = (rs: readonly Round[]): boolean => rs.every((x) => x.lost === 0 && !x.repeatedCounts && x.wrongConflicts === 0);
  const watched = (rs: readonly Round[]): boolean => rs.every((x) => x.watchOk);
  const acked = (rs: readonly Round[]): number => sum(rs, (x) => x.acks);
  const perAck = (rs: readonly Round[]): string => (sum(rs, (x) => x.conflicts) / acked(rs)).toFixed(2);
  const delivery = (rs: readonly Round[]): string => `${sum(rs, (x) => x.delivered).toLocaleString('en-US')} of ${(watchers * acked(rs)).toLocaleString('en-US')}${watched(rs) ? ', each once, in order' : ' (**missing, repeated or out of order**)'}`;
  const simRate = rate(simRounds);
  const bareRate = rate(bareRounds);
  return [
    {
      what: `read-modify-write over HTTP: ${clients} clients on ${counters} ConfigMaps, ${watchers} watchers, ${increments} acknowledged increments a round (acknowledged writes/s, median of ${rounds})`,
      value: `${fmt(simRate)} (${(simRate / bareRate).toFixed(2)} of bare)`,
      baseline: `${fmt(bareRate)} (bare node:http, a Map read-modify-write, the same clients and watchers)`,
      target: '',
      ok: null,
    },
    { what: '409 conflicts per acknowledged write', value: perAck(simRounds), baseline: `${perAck(bareRounds)} (bare)`, target: '', ok: null },
    {
      what: 'lost updates: final counts against acknowledged increments (and every 409 the Conflict Status, no count acknowledged twice)',
      value: `${sum(simRounds, (x) => x.lost)} of ${acked(simRounds).toLocaleString('en-US')}${held(simRounds) ? '' : ' (**broken**)'}`,
      baseline: `${sum(bareRounds, (x) => x.lost)} of ${acked(bareRounds).toLocaleString('en-US')} (bare)`,
      target: '0',
      ok: held(simRounds),
    },
    { what: `watch events delivered to ${watchers} watchers (every write once, in resourceVersion order)`, value: delivery(simRounds), baseline: `${delivery(bareRounds)} (bare)`, target: 'all, once, in order', ok: watched(simRounds) },
  ];
}

export async function reliabilityBench(progress: (msg: string) => void): Promise<Row[]> {
  return [...(await fuzzRows(progress)), ...(await concurrencyRows(progress))];
}
