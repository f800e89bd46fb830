/**
 * The driver, at the edge: owns the current world and feeds every change to the pure core as an
 * input of `step` (requests, time, settle, fault rules, snapshots), establishes the crypto facts
 * a step asks for and runs it again, signs tokens into responses, keeps the trace, runs the
 * watchers, checks invariants (option `checkInvariants`) and reports refused controller writes.
 * Nothing here decides anything about the API: that is all in `step`.
 */
import { formatInstant, parseDuration } from '../../core/duration.ts';
import type { ResourceTable } from '../../registry/index.ts';
import type { TableColumn } from '../../registry/types.ts';
import type { ApiResponse } from '../../endpoints/types.ts';
import { route } from '../../endpoints/route.ts';
import { parseListQuery } from '../../endpoints/listQuery.ts';
import type { World } from '../../store/world.ts';
import type { KubeObject } from '../../api/meta.ts';
import type { ServiceAccountKey } from '../../auth/identityConfig.ts';
import { InvariantError } from '../../core/assert.ts';
import { limits } from '../../core/limits.ts';
import { factKey, tokenPlaceholder, type Need } from '../../sim/factBook.ts';
import { step, type Effect, type Input, type StepEnv, type StepResult } from '../../sim/step.ts';
import { startingPoint } from '../../sim/start.ts';
import { reportedFaults, validateFaultRules, type FaultRule, type FaultState } from '../../sim/faults.ts';
import { checkFaultsFor } from '../../sim/faultChecks.ts';
import { builtInControllers } from '../../sim/controllers.ts';
import { hashWorld } from '../../sim/hash.ts';
import { PlatformSimError, type ResolvedOptions, type SimulationOptions } from '../../sim/options.ts';
import { checkAll, checkStep } from '../../sim/checkers/all.ts';
import { advanceProblem, replacementProblem } from '../../sim/controlChecks.ts';
import { readSavedWorldChecked } from '../../store/upgrade.ts';
import { renderTimeline } from '../../scenario/timeline.ts';
import { adminUser, asUser, type AsIdentity } from './authenticate.ts';
import { anticipatedNeeds } from './anticipate.ts';
import { ReadAnswers } from './readAnswers.ts';
import { Trace, type TraceEvent } from './trace.ts';
import { WatchHub } from './watchHub.ts';
import type { WatchStream } from './watchStream.ts';
import { encodeBody, requestHeaders } from './bodies.ts';
import { DecodedOnRead } from './decodedResponse.ts';

export interface SimRequest {
  readonly method: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string | readonly string[]>>;
  readonly body?: unknown;
  readonly as?: AsIdentity;
  /** PEM chain presented as a TLS client certificate (mTLS). */
  readonly clientCertificate?: string;
  /**
   * `http` when the request came over the network: no credentials then means anonymous (or
   * 401), never the in-process default admin.
   */
  readonly transport?: 'in-process' | 'http';
}

/**
 * An answer. `T` is what the caller expects `body` to be (`sim.request<T>`, `sim.get<T>`, …): the
 * parsed JSON when the content type is JSON, else the text — a `Status` when `status` ≥ 400.
 */
export interface SimResponse<T = unknown> {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[]>>;
  readonly body: T;
  /** Set for `?watch=true` requests that were accepted: the event stream. */
  readonly watch?: WatchStream;
}

/** A list answer (`sim.list`): the items of one kind. */
export interface KubeList<T = any> {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly resourceVersion?: string; readonly continue?: string; readonly remainingItemCount?: number };
  readonly items: T[];
}

/** A request through a helper (`sim.get`, `sim.create`, …): all of a `SimRequest` but method, path and body. */
export type SimRequestOptions = Omit<SimRequest, 'method' | 'path' | 'body' | 'transport'>;

/** `sim.patch` types: merge (default), strategic merge, JSON patch, server-side apply. */
export type PatchType = 'merge' | 'strategic' | 'json' | 'apply';

const patchContentTypes: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  json: 'application/json-patch+json',
  apply: 'application/apply-patch+yaml',
};

export interface Snapshot {
  readonly format: 'platform-sim/snapshot@1';
  readonly options: SimulationOptions;
  readonly world: World;
}

/** What the edge provides a simulation: imported keys, the crypto fact resolver, the CA. */
export interface SimulationEdge {
  readonly keys: readonly ServiceAccountKey[];
  /** When the built-in signers' CA stops being valid (epoch ms). */
  readonly signingCaNotAfter: number;
  readonly resolver: { readonly facts: ReadonlyMap<string, unknown>; resolve(needs: readonly Need[]): Promise<void> };
  /** PEM of the simulation's CA (serving and client certificates), made on first use. */
  caPem(): Promise<string>;
  issueClientCertificate(req: ClientCertificateRequest): Promise<{ certificate: string; privateKey: string }>;
  createCertificateRequest(spec: CertificateRequestSpec): Promise<{ request: string; privateKey: string }>;
}

/** The subject of a certificate request made for a test (`sim.createCertificateRequest`). */
export interface CertificateRequestSpec {
  readonly commonName: string;
  readonly organizations?: readonly string[];
  readonly dnsNames?: readonly string[];
  readonly ipAddresses?: readonly string[];
}

export interface ClientCertificateRequest {
  readonly user: string;
  readonly groups?: readonly string[];
  /** Validity as RFC 3339 times; default from the CA's start for one year. */
  readonly notBefore?: string;
  readonly notAfter?: string;
  /** Tells apart several certificates of one user (a different key and serial). */
  readonly name?: string;
}

type RequestInput = Input & { readonly type: 'api/requestArrived' };

export class Simulation {
  #world: World;
  /** The last world the invariant checkers passed (checkInvariants): the next change is checked from it. */
  #checked: World | undefined;
  readonly #table: ResourceTable;
  readonly #opts: ResolvedOptions;
  readonly #raw: SimulationOptions;
  readonly #hub = new WatchHub();
  readonly #edge: SimulationEdge;
  readonly #env: StepEnv;
  readonly #trace: Trace;
  /** Clock moves asked for with `quiet`: no clock event in the trace when they change nothing. */
  readonly #quietMoves = new WeakSet<Input>();
  readonly #reads = new ReadAnswers();

  constructor(raw: SimulationOptions, edge: SimulationEdge, world?: World) {
    this.#raw = raw;
    this.#edge = edge;
    const start = startingPoint(raw, { keys: edge.keys, signingCaNotAfter: edge.signingCaNotAfter, facts: edge.resolver.facts });
    this.#opts = start.options;
    // Under checkInvariants the scheduler also proves each skipped controller had nothing to do.
    this.#env = raw.checkInvariants === true ? { ...start.env, checkSkips: true } : start.env;
    this.#table = start.env.table;
    this.#trace = new Trace((resource, object, now) => summarize(this.#table, resource, object, now));
    if (world !== undefined) {
      // A restored world was read as a world (store/upgrade.ts); it must also be one for this simulation.
      const problem = this.#replacementProblem(world);
      if (problem !== null) throw new PlatformSimError('PSIM_SNAPSHOT_INVALID', `invalid snapshot: ${problem}`);
    }
    this.#world = world ?? start.world;
  }

  /** The current world (plain, frozen-by-convention data: do not mutate). */
  get world(): World {
    return this.#world;
  }

  get resources(): ResourceTable {
    return this.#table;
  }

  /**
   * One pass of `step` on the current world: the result, or the facts it still needs (then the
   * pass changed nothing and is discarded). The one place a step runs.
   */
  #pass(input: Input): { ok: true; result: StepResult } | { ok: false; needs: readonly Need[] } {
    const result = step(this.#world, input, this.#env);
    const needs = result.effects.flatMap((e) => (e.type === 'crypto/factNeeded' ? [e.need] : []));
    return needs.length === 0 ? { ok: true, result } : { ok: false, needs };
  }

  /**
   * Runs a step until it needs no more facts, establishing them at the edge in between. The
   * complete pass is committed synchronously, so concurrent requests never commit a stale world.
   */
  async #run(input: Input, before?: () => Promise<void>): Promise<StepResult> {
    if (before !== undefined) await before();
    for (let pass = 0; pass < limits.factPassesMax; pass++) {
      const p = this.#pass(input);
      if (p.ok) return this.#commit(input, p.result);
      await this.#edge.resolver.resolve(p.needs);
    }
    throw new InvariantError(`a step still needed crypto facts after ${limits.factPassesMax} passes`);
  }

  /** The synchronous run: for inputs that need no fact not already known. */
  #runSync(input: Input, what: string): StepResult {
    const p = this.#pass(input);
    if (!p.ok) throw new PlatformSimError('PSIM_ASYNC_REQUIRED', `${what} needs signatures or certificate checks: use the async call`);
    return this.#commit(input, p.result);
  }

  /** Takes a complete step's world: trace, invariants, watchers, refused controller writes. */
  #commit(input: Input, result: StepResult): StepResult {
    if (input.type === 'api/requestArrived') {
      const out = result.output!;
      this.#trace.request(this.#world, input.request.method, input.request.path, out.user ?? '', out.response.status);
    }
    if (result.replaced) {
      this.#hub.closeAll();
      this.#world = result.world;
      return result;
    }
    let before = this.#world;
    for (const visit of result.instants) {
      this.#trace.writes(before, visit.world, visit.writes);
      this.#check(before, visit.world);
      before = visit.world;
    }
    for (const r of result.rejections) this.#trace.rejected(result.world, r);
    const changedNothing = result.world.revision === this.#world.revision && result.rejections.length === 0;
    if (input.type === 'clock/advanced' && !(changedNothing && this.#quietMoves.has(input))) this.#trace.clock(result.world);
    // The step is complete and consistent: take it before telling anyone (a watcher or a throw).
    const visits = result.instants.length === 0 ? [result.world] : result.instants.map((v) => v.world);
    this.#world = result.world;
    for (const w of visits) this.#hub.publish(w);
    if (result.rejections.length > 0 && this.#raw.checkInvariants === true) {
      const lines = result.rejections.map((r) => `${r.controller}: ${r.intent}: ${r.status.code ?? 0} ${r.status.reason ?? ''}: ${r.status.message ?? ''}`);
      throw new InvariantError(`controller writes refused by the API (seed ${this.#opts.worldSeed}):\n${lines.join('\n')}`);
    }
    return result;
  }

  /**
   * The checkers on one change: from the world they last passed, only what the change did
   * (checkers/types.ts `checkStep`); from a world they did not see pass (the first, a restored
   * snapshot), the whole world after it.
   */
  #check(before: World, after: World): void {
    if (this.#raw.checkInvariants !== true || before === after) return;
    const problems = before === this.#checked ? checkStep(before, after) : checkAll(before, after);
    if (problems.length > 0) throw new InvariantError(`invariants broken (seed ${this.#opts.worldSeed}):\n${problems.join('\n')}`);
    this.#checked = after;
  }

  /**
   * One API request, answered as the server would. `T` types `body` (unchecked: the caller's
   * word, as a cast); by default `any`, so examples can read `res.body.metadata.uid`.
   */
  async request<T = any>(req: SimRequest): Promise<SimResponse<T>> {
    return this.#decoded<T>(await this.respond(req));
  }

  /** As `request`, for requests that need no crypto (no tokens, certificates); throws otherwise. */
  requestSync<T = any>(req: SimRequest): SimResponse<T> {
    return this.#decoded<T>(this.requestRaw(req));
  }

  /** GET `path` (an object, or anything served). */
  get<T = any>(path: string, options: SimRequestOptions = {}): Promise<SimResponse<T>> {
    return this.request<T>({ ...options, method: 'GET', path });
  }

  /** GET a collection `path`: `body.items` typed as `T[]`. */
  list<T = any>(path: string, options: SimRequestOptions = {}): Promise<SimResponse<KubeList<T>>> {
    return this.request<KubeList<T>>({ ...options, method: 'GET', path });
  }

  /** POST `body` to a collection `path`. */
  create<T = any>(path: string, body: unknown, options: SimRequestOptions = {}): Promise<SimResponse<T>> {
    return this.request<T>({ ...options, method: 'POST', path, body });
  }

  /** PUT `body` at `path` (replace). */
  update<T = any>(path: string, body: unknown, options: SimRequestOptions = {}): Promise<SimResponse<T>> {
    return this.request<T>({ ...options, method: 'PUT', path, body });
  }

  /** PATCH `path`; `type` picks the content type (default `merge`) unless `headers` name one. */
  patch<T = any>(path: string, body: unknown, options: SimRequestOptions & { readonly type?: PatchType } = {}): Promise<SimResponse<T>> {
    const { type = 'merge', headers = {}, ...rest } = options;
    const named = Object.keys(headers).some((k) => k.toLowerCase() === 'content-type');
    return this.request<T>({ ...rest, method: 'PATCH', path, body, headers: named ? headers : { ...headers, 'content-type': patchContentTypes[type] } });
  }

  /** DELETE `path`; `body` is DeleteOptions (`{ propagationPolicy: 'Foreground' }`). */
  delete<T = any>(path: string, options: SimRequestOptions & { readonly body?: unknown } = {}): Promise<SimResponse<T>> {
    return this.request<T>({ ...options, method: 'DELETE', path });
  }

  /** The body is decoded when first read (decodedResponse.ts). */
  #decoded<T>(raw: ApiResponse & { readonly watch?: WatchStream }): SimResponse<T> {
    return new DecodedOnRead<T>(raw, raw.watch);
  }

  /** The request as the API sees it: the in-process default admin, `as`, or credentials to check. */
  #apiRequest(req: SimRequest): RequestInput {
    const headers = requestHeaders(req.headers ?? {});
    const encoded = encodeBody(req.body, headers);
    const inProcessAdmin = req.transport !== 'http' && req.as === undefined && headers['authorization'] === undefined && req.clientCertificate === undefined;
    const identity = inProcessAdmin ? adminUser : req.as === undefined ? undefined : asUser(req.as);
    const request = {
      method: req.method.toUpperCase(),
      path: req.path,
      headers: encoded.headers,
      body: encoded.body,
      json: encoded.json,
      ...(identity === undefined ? {} : { identity }),
      ...(req.clientCertificate === undefined ? {} : { clientCertificate: req.clientCertificate }),
    };
    return { type: 'api/requestArrived', request, settle: this.#opts.settle === 'auto' };
  }

  /** The response of a committed request step: a watch opened, a driver-held body filled in. */
  #answer(result: StepResult): ApiResponse & { readonly watch?: WatchStream } {
    const out = result.output!;
    if (out.watch !== undefined) {
      const r = out.watch.route;
      const stream = this.#hub.open(this.#world, r.rt, r.namespace, out.watch.query, out.watch.rendering.output);
      return { status: 200, headers: { 'content-type': 'application/json' }, body: '', watch: stream };
    }
    if (out.fill === 'trace') return { status: 200, headers: { 'content-type': 'application/x-ndjson' }, body: this.traceNdjson() };
    if (out.fill === 'report') return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: renderTimeline(this.trace(), { title: 'platform-sim timeline' }) };
    if (out.fill === 'snapshot') return { ...out.response, body: `${JSON.stringify(this.snapshot())}\n` };
    return out.response;
  }

  /** As `request`, with the body as the exact text an HTTP server would send. */
  async respond(req: SimRequest): Promise<ApiResponse & { readonly watch?: WatchStream }> {
    const input = this.#apiRequest(req);
    const read = this.#reads.key(input.request);
    const known = read === null ? undefined : this.#reads.get(this.#world, read);
    if (known !== undefined) return this.#answer(this.#commit(input, known));
    const facts = this.#edge.resolver.facts;
    const anticipated = anticipatedNeeds(input.request).filter((n) => !facts.has(factKey(n)));
    const result = await this.#run(input, anticipated.length === 0 ? undefined : () => this.#edge.resolver.resolve(anticipated));
    if (read !== null) this.#reads.keep(read, result);
    const response = this.#answer(result);
    const toSign = result.effects.flatMap((e) => (e.type === 'crypto/tokenToSign' ? [e] : []));
    return toSign.length === 0 ? response : { ...response, body: await this.#signed(response.body, toSign) };
  }

  /** The synchronous `respond`, for requests that need no crypto fact not already known. */
  requestRaw(req: SimRequest): ApiResponse & { readonly watch?: WatchStream } {
    const result = this.#runSync(this.#apiRequest(req), `${req.method} ${req.path}`);
    if (result.effects.some((e) => e.type === 'crypto/tokenToSign')) {
      throw new PlatformSimError('PSIM_ASYNC_REQUIRED', `${req.method} ${req.path} needs signatures or certificate checks: use await sim.request(…)`);
    }
    return this.#answer(result);
  }

  /**
   * Signs the tokens a committed step left as placeholders and puts them into its response (a
   * token is never part of the world, so the world did not wait for it).
   */
  async #signed(body: string, toSign: readonly (Effect & { type: 'crypto/tokenToSign' })[]): Promise<string> {
    await this.#edge.resolver.resolve(toSign.map((e) => ({ kind: 'serviceAccountToken', claims: e.claims })));
    let out = body;
    for (const e of toSign) out = out.replaceAll(tokenPlaceholder(e.index), this.#edge.resolver.facts.get(factKey({ kind: 'serviceAccountToken', claims: e.claims })) as string);
    return out;
  }

  /** Opens a watch on a collection path (query parameters as in the HTTP API). */
  watch(path: string): WatchStream {
    const q = path.indexOf('?');
    const params = new URLSearchParams(q < 0 ? 'watch=true' : `${path.slice(q + 1)}&watch=true`);
    const r = route(this.#table, q < 0 ? path : path.slice(0, q));
    if (r.type !== 'resource' || r.name !== null) throw new PlatformSimError('PSIM_OPTION_INVALID', `not a collection path: ${path}`);
    const query = parseListQuery(r.rt, params);
    if (!query.ok) throw new PlatformSimError('PSIM_OPTION_INVALID', query.error.status.message ?? 'invalid watch');
    return this.#hub.open(this.#world, r.rt, r.namespace, query.value);
  }

  /** PEM of the simulation's CA: it issued the serving certificate and trusts client certificates it issued. */
  /**
   * PEM of the simulation's CA, which signs serving and client certificates and is trusted for
   * client authentication. Made the first time it is needed (X.509 code is loaded on demand), and
   * shared by every simulation of the same seed and start.
   */
  caCertificate(): Promise<string> {
    return this.#edge.caPem();
  }

  /** A client certificate (CN = user, O = groups) issued by the simulation's CA, with its key. */
  async issueClientCertificate(req: ClientCertificateRequest): Promise<{ certificate: string; privateKey: string }> {
    return this.#edge.issueClientCertificate(req);
  }

  /**
   * A PKCS#10 request (PEM) with an Ed25519 key derived from the seed and the subject, and the key:
   * material for CertificateSigningRequests in tests.
   */
  async createCertificateRequest(spec: CertificateRequestSpec): Promise<{ request: string; privateKey: string }> {
    return this.#edge.createCertificateRequest(spec);
  }

  /** The service-account signing keys' public halves (ids and algorithms). */
  get serviceAccountKeys(): readonly ServiceAccountKey[] {
    return this.#edge.keys;
  }

  /**
   * Replaces the whole world (as PUT /sim/v1/snapshot); open watches are ended. A world the
   * simulation cannot run on (store/validateWorld.ts, sim/controlChecks.ts) throws
   * PSIM_SNAPSHOT_INVALID naming the first problem, and the current world stays.
   */
  replaceWorld(world: World): void {
    const read = readSavedWorldChecked(world);
    const problem = read.ok ? this.#replacementProblem(read.world) : read.problem;
    if (!read.ok || problem !== null) throw new PlatformSimError('PSIM_SNAPSHOT_INVALID', `replaceWorld: ${problem}`);
    this.#runSync({ type: 'world/replaced', world: read.world }, 'replaceWorld');
  }

  /** What only this simulation knows about a world that would replace its own. */
  #replacementProblem(world: World): string | null {
    return replacementProblem(world, this.#table.names.domain, this.#env.controllers ?? builtInControllers);
  }

  async settle(): Promise<void> {
    await this.#run({ type: 'controllers/settleRequested' });
  }

  /**
   * Moves virtual time forward by `duration`: a Go duration (`'90s'`, `'1h30m'`) or a number of
   * milliseconds (`90_000`), firing every timer due on the way and settling after each. A move is
   * a `clock` event in the trace; with `quiet` (the server's wall-clock ticks) a move that
   * changed nothing — no write, no refused controller write — leaves none. A move past the last
   * instant of virtual time (9999-12-31T23:59:59Z), or across more history compactions than one
   * advance may visit, throws PSIM_DURATION_INVALID and changes nothing; a quiet one never
   * throws (a wall clock cannot be refused): it stops at the last instant.
   */
  async advance(duration: string | number, options: { readonly quiet?: boolean } = {}): Promise<void> {
    const ms = typeof duration === 'number' ? (Number.isFinite(duration) ? Math.round(duration) : null) : typeof duration === 'string' ? parseDuration(duration) : null;
    if (ms === null || ms < 0) {
      const what = typeof duration === 'string' ? `"${duration}"` : String(duration);
      throw new PlatformSimError('PSIM_DURATION_INVALID', `advance: ${what} is neither a non-negative Go duration (e.g. 90s, 1h30m) nor a number of milliseconds`);
    }
    // A wall clock cannot be refused: its ticks stop at the last instant of virtual time.
    const quiet = options.quiet === true;
    const bounded = quiet ? Math.min(ms, Math.max(0, limits.instantMax - this.#world.now)) : ms;
    const beyond = quiet ? null : advanceProblem(this.#world, bounded);
    if (beyond !== null) throw new PlatformSimError('PSIM_DURATION_INVALID', `advance: ${beyond}`);
    const input: Input = { type: 'clock/advanced', to: this.#world.now + bounded };
    if (options.quiet === true) this.#quietMoves.add(input);
    await this.#run(input);
  }

  /** Installs fault rules (sim/faults.ts); bad rules throw PSIM_OPTION_INVALID. */
  injectFaults(rules: readonly FaultRule[]): void {
    const checked = validateFaultRules(rules);
    if (!checked.ok) throw new PlatformSimError('PSIM_OPTION_INVALID', checked.message);
    const problem = checkFaultsFor(checked.rules, this.#env.controllers ?? builtInControllers);
    if (problem !== null) throw new PlatformSimError('PSIM_OPTION_INVALID', problem);
    this.#runSync({ type: 'faults/installed', rules: checked.rules }, 'injectFaults');
  }

  clearFaults(): void {
    this.#runSync({ type: 'faults/cleared' }, 'clearFaults');
  }

  /** The installed rules and how often each fired. */
  faults(): readonly FaultState[] {
    return reportedFaults(this.#world);
  }

  /** What happened so far: requests, writes with their actor, refused controller writes, time moving (bounded). */
  trace(): readonly TraceEvent[] {
    return this.#trace.events;
  }

  /** The trace as one JSON event per line. */
  traceNdjson(): string {
    return this.#trace.toNdjson();
  }

  now(): string {
    return formatInstant(this.#world.now);
  }

  hash(): string {
    return hashWorld(this.#world);
  }

  snapshot(): Snapshot {
    const { controllers: _functions, ...options } = this.#raw;
    return JSON.parse(JSON.stringify({ format: 'platform-sim/snapshot@1', options, world: this.#world })) as Snapshot;
  }

  /** Ends every open watch. */
  close(): void {
    this.#hub.closeAll();
  }
}

/** The table columns a kind's trace summary shows (its table's first columns but name and age), by resource type. */
const summaryColumns = new WeakMap<object, readonly TableColumn[]>();

/** An object's state in a few words for the trace: its kind's table cells but name and age. */
function summarize(table: ResourceTable, resource: string, object: KubeObject, now: number): string {
  const rt = table.byId(resource);
  if (rt === undefined) return '';
  let columns = summaryColumns.get(rt);
  if (columns === undefined) summaryColumns.set(rt, (columns = (rt.table ?? []).filter((c) => c.priority === 0 && c.name !== 'Name' && c.name !== 'Age')));
  let out = '';
  for (const c of columns) {
    const v = String(c.cell(object, now));
    if (v !== '' && v !== '<none>') out = out === '' ? v : `${out} ${v}`;
  }
  return out;
}
