/**
 * The conformance driver: scenarios against another server of this API over HTTP(S). A
 * platform-sim server (it answers GET /sim/v1/clock) gives virtual time, faults, snapshots and its
 * trace through its control endpoints, and every scenario starts from the world the server had
 * when the run began and leaves it so (restored through PUT /sim/v1/snapshot); a scenario whose options differ from
 * the server's is skipped, since a running server's options cannot change. Any other server (a
 * real cluster in k8s.io mode) runs controllers on its own: checks are retried for a while, and
 * steps that need virtual time or control endpoints are skipped with the reason.
 */
import type { TraceEvent } from '../edges/simulation/trace.ts';
import type { FaultRule } from '../sim/faults.ts';
import type { Answer, Capability, DriverRequest, ScenarioDriver } from '../scenario/driver.ts';
import type { Scenario } from '../scenario/format.ts';
import { sendTo, type ServerTarget } from './target.ts';
import { getOwn } from '../core/json.ts';

type Target = ServerTarget & { server: string };

/** What a run against one target shares between its scenarios: whether it is a platform-sim server, and its first world. */
export class RemoteTarget {
  readonly target: Target;
  #probe: Promise<{ sim: boolean; pristine?: string; options?: Record<string, unknown> }> | undefined;

  constructor(target: Target) {
    this.target = target;
  }

  probe(): Promise<{ sim: boolean; pristine?: string; options?: Record<string, unknown> }> {
    this.#probe ??= (async () => {
      const clock = await sendTo(this.target, { method: 'GET', path: '/sim/v1/clock' });
      if (clock.status !== 200) return { sim: false };
      const snap = await sendTo(this.target, { method: 'GET', path: '/sim/v1/snapshot' });
      if (snap.status !== 200) return { sim: false };
      return { sim: true, pristine: snap.body, options: (JSON.parse(snap.body) as { options: Record<string, unknown> }).options };
    })();
    return this.#probe;
  }

  /** A driver for one scenario (on a platform-sim server, the world it found is put back when it closes). */
  async driver(scenario: Scenario): Promise<RemoteDriver> {
    const p = await this.probe();
    const mismatch = p.sim ? optionMismatch(scenario, p.options ?? {}) : undefined;
    const d = new RemoteDriver(this.target, p.sim, mismatch, p.pristine);
    if (p.sim) await d.skipTrace();
    return d;
  }
}

/** The first option of the scenario that the server runs with another value, in words. */
function optionMismatch(scenario: Scenario, server: Record<string, unknown>): string | undefined {
  const want: Record<string, unknown> = { ...scenario.options, ...(scenario.startTime === undefined ? {} : { startTime: scenario.startTime }) };
  for (const [k, v] of Object.entries(want).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const got = getOwn(server, k);
    // serve adds its admin to the static users: the scenario's users must be among the server's.
    if (k === 'users' && Array.isArray(v) && Array.isArray(got)) {
      const have = (got as unknown[]).map((u) => JSON.stringify(u));
      if (v.every((u) => have.includes(JSON.stringify(u)))) continue;
    }
    if (JSON.stringify(got) !== JSON.stringify(v)) return `the scenario needs option ${k}=${JSON.stringify(v)}; the target runs with ${got === undefined ? 'the default' : JSON.stringify(got)}`;
  }
  return undefined;
}

async function check(a: { status: number; body: string }, what: string): Promise<void> {
  if (a.status < 200 || a.status > 299) throw new Error(`${what}: ${a.status} ${a.body.slice(0, 200)}`);
}

export class RemoteDriver implements ScenarioDriver {
  readonly eventual: boolean;
  readonly #target: Target;
  readonly #sim: boolean;
  readonly #mismatch: string | undefined;
  readonly #snapshots = new Map<string, string>();
  /** The world the run found on a platform-sim server: put back when the scenario ends. */
  readonly #pristine: string | undefined;
  #seenSeq = -1;

  constructor(target: Target, sim: boolean, mismatch: string | undefined, pristine: string | undefined) {
    this.#target = target;
    this.#sim = sim;
    this.#mismatch = mismatch;
    this.#pristine = pristine;
    this.eventual = !sim;
  }

  /** Every step is refused when the scenario's options are not the server's: the first step says why. */
  cannot(capability: Capability): string | undefined {
    if (this.#mismatch !== undefined) return this.#mismatch;
    if (capability === 'clientCertificates') return 'a client certificate is presented in process only (the target would need the key over mTLS)';
    if (this.#sim || capability === 'scenario') return undefined;
    const what = { time: 'virtual time', faults: 'fault injection', snapshots: 'snapshots' }[capability as 'time' | 'faults' | 'snapshots'];
    return `the target has no ${what} (it has no platform-sim control endpoints)`;
  }

  async request(req: DriverRequest): Promise<Answer> {
    const headers: Record<string, string | readonly string[]> = { ...req.headers };
    let body: string | undefined;
    if (req.body !== undefined) {
      body = typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
      if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    }
    // A watch is a stream that does not end: its status and headers are the answer (as in process, where the body is empty).
    const watch = /[?&]watch=(1|t|T|true|TRUE|True)(&|$)/.test(req.path);
    const a = await sendTo(this.#target, { method: req.method, path: req.path, headers, ...(body === undefined ? {} : { body }), headersOnly: watch });
    const type = String(a.headers['content-type'] ?? '');
    const out = Object.create(null) as Record<string, string | readonly string[]>;
    for (const [k, v] of Object.entries(a.headers)) if (v !== undefined) out[k] = v;
    let parsed: unknown = a.body;
    if (/^application\/([\w.-]+\+)?json/.test(type) && a.body !== '') parsed = JSON.parse(a.body);
    return { status: a.status, headers: out, body: parsed };
  }

  async now(): Promise<string | undefined> {
    if (!this.#sim) return undefined;
    return ((await this.request({ method: 'GET', path: '/sim/v1/clock' })).body as { now: string }).now;
  }

  async advance(duration: string): Promise<void> {
    await this.#control('POST', '/sim/v1/clock/advance', { duration });
  }

  async settle(): Promise<void> {
    // A cluster settles on its own; the checks that follow are retried instead.
    if (this.#sim) await this.#control('POST', '/sim/v1/settle', {});
  }

  async setFaults(rules: readonly FaultRule[] | null): Promise<void> {
    await this.#control('DELETE', '/sim/v1/faults');
    if (rules !== null) await this.#control('POST', '/sim/v1/faults', { rules });
  }

  async snapshot(name: string): Promise<void> {
    const a = await sendTo(this.#target, { method: 'GET', path: '/sim/v1/snapshot' });
    await check(a, 'GET /sim/v1/snapshot');
    this.#snapshots.set(name, a.body);
  }

  async restore(name: string): Promise<void> {
    await check(await sendTo(this.#target, { method: 'PUT', path: '/sim/v1/snapshot', headers: { 'content-type': 'application/json' }, body: this.#snapshots.get(name)! }), 'PUT /sim/v1/snapshot');
  }

  async certificateRequest(spec: Parameters<ScenarioDriver['certificateRequest']>[0]): Promise<{ request: string; privateKey: string }> {
    const { createCertificateRequest } = await import('../edges/crypto/clusterCa.ts');
    return createCertificateRequest('scenario', spec);
  }

  /** Marks the trace so far as seen (a run starts with only its own events). */
  async skipTrace(): Promise<void> {
    await this.newEvents();
  }

  async newEvents(): Promise<readonly TraceEvent[]> {
    if (!this.#sim) return [];
    const a = await sendTo(this.#target, { method: 'GET', path: '/sim/v1/trace' });
    const events = a.body
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as TraceEvent)
      .filter((e) => e.seq > this.#seenSeq);
    if (events.length > 0) this.#seenSeq = events[events.length - 1]!.seq;
    return events;
  }

  pause(ms: number): Promise<void> {
    return new Promise((done) => setTimeout(done, ms));
  }

  async close(): Promise<void> {
    if (this.#pristine !== undefined) await check(await sendTo(this.#target, { method: 'PUT', path: '/sim/v1/snapshot', headers: { 'content-type': 'application/json' }, body: this.#pristine }), 'PUT /sim/v1/snapshot');
  }

  async #control(method: string, path: string, body?: unknown): Promise<void> {
    const a = await sendTo(this.#target, { method, path, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
    await check(a, `${method} ${path}`);
  }
}
