/**
 * The HTTP fuzzer's run, shared by the CI-bounded test (http.fuzz.test.ts), `npm run fuzz`
 * (scripts/fuzz.ts) and the benchmark's reliability section (bench/reliability.bench.ts): one `serve` over plain HTTP, requests from requests.ts sent one at a time on
 * raw sockets, and the properties of issue 16 checked after each:
 * - an answer within the deadline (no hang), and the server alive after it (no crash);
 * - never a 5xx, but the 504 of a too-large resourceVersion (`ResourceVersionTooLarge`);
 * - a 4xx leaves the world's hash as it was (sim.hash(), the digest GET /sim/v1/hash serves);
 * - Object.prototype and its neighbours never gain, lose or change a property.
 * Runs go in batches of fast-check checks with seeds `seed`, `seed+1`, … until the budget is
 * spent, with five minutes of virtual time between batches; a failing batch is shrunk to a
 * minimal request and reported with both replays.
 */
import fc from 'fast-check';
import { serve, type RunningServer } from '../../src/server.ts';
import { headerOf, pipelined, send, truncated, type RawAnswer, type Target } from './rawClient.ts';
import { describeRequest, fuzzRequest, type FuzzContext, type FuzzRequest } from './requests.ts';

export interface FuzzOptions {
  readonly budgetMs: number;
  readonly seed: number;
  /** Replays one request: the fast-check path of a reported failure (with its batch seed). */
  readonly path?: string;
  /** Deadline of one answer. */
  readonly timeoutMs?: number;
  readonly batch?: number;
  readonly onProgress?: (t: Tally) => void;
  /** Called before each request is sent (a log that survives the process running out of memory). */
  readonly onRequest?: (req: FuzzRequest) => void;
  /** Called with each answer, before the properties are checked (the benchmark counts with it). */
  readonly onAnswer?: (req: FuzzRequest, answer: RawAnswer) => void;
  /** The server to fuzz: the sources' `serve` by default; the benchmark passes the built bundle's. */
  readonly serve?: typeof serve;
}

export interface Tally {
  requests: number;
  /** The slowest answer so far, in ms, and its request line. */
  slowest: { ms: number; line: string };
  batches: number;
  readonly started: number;
  readonly byStatus: Map<string, number>;
}

export interface FuzzOutcome {
  readonly tally: Tally;
  readonly seconds: number;
  /** The report of the first failure (seed, replays, minimal request), or null. */
  readonly failure: string | null;
  /** The credentials the requests were drawn with: the same stream can be sent elsewhere (sendStream). */
  readonly context: FuzzContext;
}

/** Own property names and kinds of the prototypes a pollution would touch. */
export function prototypeState(): string {
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype, Number.prototype, Boolean.prototype]
    .map((p) =>
      Object.getOwnPropertyNames(p)
        .map((name) => {
          const d = Object.getOwnPropertyDescriptor(p, name)!;
          return `${name}:${typeof d.value}:${d.get === undefined ? '' : 'get'}`;
        })
        .join(','),
    )
    .join('|');
}

export const isTooLargeResourceVersion = (a: RawAnswer): boolean => a.kind === 'answer' && a.status === 504 && a.body.includes('ResourceVersionTooLarge');

/** Why an answer breaks a property, or null. */
function problemWith(req: FuzzRequest, a: RawAnswer, hashBefore: string, hashAfter: string, pristine: string): string | null {
  if (a.kind === 'timeout') return `no answer within the deadline (${Math.round(a.ms)} ms); received: ${JSON.stringify(a.received)}`;
  // A body shorter than its Content-Length never completes and bytes beyond it are a malformed
  // second request: on either, Node's HTTP parser may hang up without an answer (the alive check
  // below shows the server serves on). `Expect` and `Transfer-Encoding` tricks are always answered
  // (src/edges/http/framing.ts).
  if (a.kind === 'closed' && !truncated(req) && !pipelined(req)) return 'the connection closed without an answer';
  if (a.kind === 'answer') {
    if (a.status >= 500 && !isTooLargeResourceVersion(a)) return `answered ${a.status}: ${a.body.slice(0, 500)}`;
    // Body bytes beyond the Content-Length are a second, malformed request after the first: Node
    // may answer that one's 400 while the first went through.
    if (a.status >= 400 && hashAfter !== hashBefore && !pipelined(req)) return `answered ${a.status} but changed the world: ${a.body.slice(0, 300)}`;
  }
  if (prototypeState() !== pristine || {}.constructor !== Object) return 'Object.prototype (or a neighbour) was modified';
  return null;
}

async function startServer(seed: number, start: typeof serve): Promise<{ server: RunningServer; target: Target; ctx: FuzzContext }> {
  const server = await start({ port: 0, clock: 'manual', tls: false, seed, startTime: '2026-01-01T00:00:00Z' });
  const url = new URL(server.url);
  const csr = await server.sim.createCertificateRequest({ commonName: 'fuzz', organizations: ['fuzzers'] });
  const pem = csr.request.startsWith('-----') ? Buffer.from(csr.request).toString('base64') : csr.request;
  return { server, target: { host: url.hostname, port: Number(url.port) }, ctx: { adminToken: server.adminToken, csr: pem } };
}

/**
 * Between requests, what would make the rest of a run shallow or its 5xx legitimate goes: fault
 * rules a fuzzed POST /sim/v1/faults installed, and a deleted `default` namespace (every later
 * request to it would be a 404 or 403) is made again.
 */
async function restore(server: RunningServer, req: FuzzRequest, a: RawAnswer): Promise<void> {
  if (req.path.startsWith('/sim/')) {
    const faults = await server.sim.request({ method: 'GET', path: '/sim/v1/faults' });
    if (((faults.body as { faults?: unknown[] }).faults ?? []).length > 0) await server.sim.request({ method: 'DELETE', path: '/sim/v1/faults' });
  }
  if (req.method === 'DELETE' && a.kind === 'answer' && a.status < 300) {
    const ns = await server.sim.request({ method: 'GET', path: '/api/v1/namespaces/default' });
    if (ns.status === 404) await server.sim.request({ method: 'POST', path: '/api/v1/namespaces', body: { metadata: { name: 'default' } } });
  }
}

function count(tally: Tally, req: FuzzRequest, a: RawAnswer): void {
  const label = a.kind === 'answer' ? String(a.status) : a.kind;
  tally.requests++;
  if (a.ms > tally.slowest.ms) tally.slowest = { ms: a.ms, line: `${req.method} ${req.path.slice(0, 120)} (${req.origin})` };
  tally.byStatus.set(label, (tally.byStatus.get(label) ?? 0) + 1);
}

function failureReport(details: fc.RunDetails<[FuzzRequest]>, base: number, lastProblem: string): string {
  const req = details.counterexample?.[0];
  const problem = details.errorInstance instanceof Error ? details.errorInstance.message : lastProblem;
  return [
    `fuzz failure (batch seed ${details.seed}, run seed ${base}): ${problem}`,
    `replay the whole run: npm run fuzz -- --seed ${base}`,
    `replay this request: npm run fuzz -- --seed ${details.seed} --path ${details.counterexamplePath ?? ''}`,
    `shrunk ${details.numShrinks} time(s) to:`,
    req === undefined ? String(details.errorInstance) : describeRequest(req),
  ].join('\n');
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzOutcome> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const { server, target, ctx } = await startServer(options.seed, options.serve ?? serve);
  const pristine = prototypeState();
  const tally: Tally = { requests: 0, slowest: { ms: 0, line: '' }, batches: 0, started: performance.now(), byStatus: new Map() };
  let lastProblem = '';
  const property = fc.asyncProperty(fuzzRequest(ctx), async (req) => {
    const before = server.sim.hash();
    options.onRequest?.(req);
    const a = await send(target, req, timeoutMs);
    options.onAnswer?.(req, a);
    count(tally, req, a);
    const problem = problemWith(req, a, before, server.sim.hash(), pristine);
    await restore(server, req, a);
    if (problem !== null) {
      lastProblem = `${problem}${headerOf(a, 'content-type') === undefined ? '' : ` (${headerOf(a, 'content-type')})`}`;
      throw new Error(lastProblem);
    }
    // Alive: a plain read still answers (a crashed or wedged server fails here).
    if (tally.requests % 50 === 0) {
      const alive = await send(target, { method: 'GET', path: '/version', headers: [['Authorization', `Bearer ${ctx.adminToken}`]] }, timeoutMs);
      if (alive.kind !== 'answer' || alive.status !== 200) throw new Error((lastProblem = `the server stopped answering: ${JSON.stringify(alive)}`));
    }
    if (options.onProgress !== undefined && tally.requests % 200 === 0) options.onProgress(tally);
  });
  let failure: string | null = null;
  try {
    if (options.path !== undefined) {
      const details = await fc.check(property, { seed: options.seed, path: options.path, numRuns: 1 });
      if (details.failed) failure = failureReport(details, options.seed, lastProblem);
    } else {
      const batch = options.batch ?? 100;
      for (let b = 0; performance.now() - tally.started < options.budgetMs && failure === null; b++) {
        tally.batches++;
        const details = await fc.check(property, { seed: options.seed + b, numRuns: batch });
        if (details.failed) failure = failureReport(details, options.seed, lastProblem);
        // Five minutes of virtual time between batches: timers fire, controllers move on, and the
        // history is compacted (under the manual clock it would otherwise grow for the whole run).
        else await server.sim.advance('5m');
      }
    }
  } finally {
    await server.close();
  }
  return { tally, seconds: (performance.now() - tally.started) / 1000, failure, context: ctx };
}

/**
 * The requests runFuzz sends with `seed` and `context` — the same batches of the same seeds, in
 * the same order — sent to `target` for `budgetMs` with no property checked: the fuzzer's own
 * cost (drawing, encoding, one socket per request) against any server. Statuses are counted.
 */
export async function sendStream(target: Target, context: FuzzContext, options: { readonly budgetMs: number; readonly seed: number; readonly batch?: number; readonly timeoutMs?: number }): Promise<{ tally: Tally; seconds: number }> {
  const tally: Tally = { requests: 0, slowest: { ms: 0, line: '' }, batches: 0, started: performance.now(), byStatus: new Map() };
  const property = fc.asyncProperty(fuzzRequest(context), async (req) => {
    count(tally, req, await send(target, req, options.timeoutMs ?? 10_000));
  });
  for (let b = 0; performance.now() - tally.started < options.budgetMs; b++) {
    tally.batches++;
    await fc.check(property, { seed: options.seed + b, numRuns: options.batch ?? 100 });
  }
  return { tally, seconds: (performance.now() - tally.started) / 1000 };
}

/** `requests in s (n/s); status: count, …` */
export function summary(o: { tally: Tally; seconds: number }): string {
  const statuses = [...o.tally.byStatus.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k}: ${n}`);
  return `${o.tally.requests} requests in ${o.seconds.toFixed(1)} s (${(o.tally.requests / o.seconds).toFixed(0)}/s); ${statuses.join(', ')}; slowest ${Math.round(o.tally.slowest.ms)} ms: ${o.tally.slowest.line}`;
}
