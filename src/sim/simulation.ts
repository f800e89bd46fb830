/**
 * The in-process simulation: owns the current world, feeds requests and time to the pure core,
 * keeps watches informed. Everything that changes the world goes through `handle`,
 * `settleWorld` or `advanceWorld`; this class only holds the result and runs the watchers.
 */
import { formatInstant, parseDuration } from '../core/duration.ts';
import { namesFor } from '../api/names.ts';
import { buildResourceTable, type ResourceTable } from '../endpoints/resourceTable.ts';
import { respondError } from '../endpoints/respond.ts';
import type { ApiResponse } from '../endpoints/types.ts';
import { route } from '../endpoints/route.ts';
import { parseListQuery } from '../endpoints/listQuery.ts';
import type { World } from '../store/world.ts';
import { adminUser, asUser, type AsIdentity } from './authenticate.ts';
import type { ServiceAccountKey } from '../auth/identityConfig.ts';
import { requestAttributes } from '../auth/requestInfo.ts';
import { identify, isAllowed } from '../endpoints/pipeline.ts';
import { forbidden } from '../auth/rbac/authorize.ts';
import { limits } from '../core/limits.ts';
import { FactBook, factKey, tokenPlaceholder, type Need } from './factBook.ts';
import { anticipatedNeeds } from './anticipate.ts';
import { step, type Effect, type StepEnv, type StepResult, type Input } from './step.ts';
import { identityWithKeys } from './options.ts';
import { Trace, type TraceEvent, type WriteAttribution } from './trace.ts';
import type { KubeObject } from '../api/meta.ts';
import { clearFaults, installFaults, validateFaultRules, type FaultRule, type FaultState } from './faults.ts';
import { hashWorld } from './hash.ts';
import { PlatformSimError, resolveOptions, type ResolvedOptions, type SimulationOptions } from './options.ts';
import { bootstrapWorld } from './bootstrap.ts';
import { WatchHub } from './watchHub.ts';
import type { WatchStream } from './watchStream.ts';
import { encodeBody, decodeResponseBody } from './bodies.ts';
import { checkAll } from './checkers/all.ts';
import { InvariantError } from '../core/assert.ts';

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

export interface SimResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[]>>;
  readonly body: unknown;
  /** Set for `?watch=true` requests that were accepted: the event stream. */
  readonly watch?: WatchStream;
}

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
  /** PEM of the simulation's CA (serving and client certificates). */
  readonly caPem: string;
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

/** A step that needed no more facts, and which controller wrote which revisions in it. */
interface Ran {
  readonly result: StepResult;
  readonly attributions: readonly WriteAttribution[];
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

export class Simulation {
  #world: World;
  readonly #table: ResourceTable;
  readonly #opts: ResolvedOptions;
  readonly #raw: SimulationOptions;
  readonly #hub = new WatchHub();
  readonly #edge: SimulationEdge;
  readonly #env: StepEnv;
  readonly #trace: Trace;

  constructor(raw: SimulationOptions, edge: SimulationEdge, world?: World) {
    this.#raw = raw;
    this.#opts = resolveOptions(raw);
    this.#edge = edge;
    this.#table = buildResourceTable(namesFor(this.#opts.config.groupDomain));
    this.#env = {
      table: this.#table,
      identity: identityWithKeys(this.#opts, edge.keys),
      facts: edge.resolver.facts,
      signing: { caNotAfter: edge.signingCaNotAfter, maxDurationSeconds: this.#opts.clusterSigningDurationSeconds },
    };
    this.#trace = new Trace((resource, object, now) => summarize(this.#table, resource, object, now));
    this.#world = world ?? bootstrapWorld(this.#opts, this.#table);
  }

  /** The current world (plain, frozen-by-convention data: do not mutate). */
  get world(): World {
    return this.#world;
  }

  get resources(): ResourceTable {
    return this.#table;
  }

  #set(world: World): void {
    this.#check(this.#world, world);
    this.#world = world;
    this.#hub.publish(world);
  }

  #check(before: World, after: World): void {
    if (this.#raw.checkInvariants !== true || before === after) return;
    const problems = checkAll(before, after);
    if (problems.length > 0) throw new InvariantError(`invariants broken (seed ${this.#opts.seed}):\n${problems.join('\n')}`);
  }

  async request(req: SimRequest): Promise<SimResponse> {
    return this.#decoded(await this.respond(req));
  }

  /** As `request`, for requests that need no crypto (no tokens, certificates); throws otherwise. */
  requestSync(req: SimRequest): SimResponse {
    return this.#decoded(this.requestRaw(req));
  }

  #decoded(raw: ApiResponse & { readonly watch?: WatchStream }): SimResponse {
    return { status: raw.status, headers: raw.headers, body: decodeResponseBody(raw), ...(raw.watch === undefined ? {} : { watch: raw.watch }) };
  }

  /** The request as the API sees it: the in-process default admin, `as`, or credentials to check. */
  #apiRequest(req: SimRequest): Input & { type: 'api/requestArrived' } {
    const headers = lowerCase(req.headers ?? {});
    const encoded = encodeBody(req.body, headers);
    const inProcessAdmin = req.transport !== 'http' && req.as === undefined && headers['authorization'] === undefined && req.clientCertificate === undefined;
    const identity = inProcessAdmin ? adminUser : req.as === undefined ? undefined : asUser(req.as);
    const request = {
      method: req.method.toUpperCase(),
      path: req.path,
      headers: encoded.headers,
      body: encoded.body,
      ...(identity === undefined ? {} : { identity }),
      ...(req.clientCertificate === undefined ? {} : { clientCertificate: req.clientCertificate }),
    };
    return { type: 'api/requestArrived', request, settle: this.#opts.settle === 'auto' };
  }

  #commitRequest(input: Input & { type: 'api/requestArrived' }, ran: Ran): ApiResponse & { readonly watch?: WatchStream } {
    const { result, attributions } = ran;
    const handled = result.output!;
    this.#trace.request(this.#world, input.request.method, input.request.path, handled.user ?? '', handled.response.status);
    this.#trace.writes(this.#world, result.world, attributions);
    this.#set(result.world);
    if (handled.watch === undefined) return handled.response;
    const r = handled.watch.route;
    const stream = this.#hub.open(this.#world, r.rt, r.namespace, handled.watch.query);
    return { status: 200, headers: { 'content-type': 'application/json' }, body: '', watch: stream };
  }

  /** As `request`, with the body as the exact text an HTTP server would send. */
  async respond(req: SimRequest): Promise<ApiResponse & { readonly watch?: WatchStream }> {
    const input = this.#apiRequest(req);
    const facts = this.#edge.resolver.facts;
    const anticipated = anticipatedNeeds(input.request).filter((n) => !facts.has(factKey(n)));
    if (anticipated.length > 0) await this.#edge.resolver.resolve(anticipated);
    let toSign: readonly (Effect & { type: 'crypto/tokenToSign' })[] = [];
    const response = await this.#run(input, (ran) => {
      toSign = ran.result.effects.flatMap((e) => (e.type === 'crypto/tokenToSign' ? [e] : []));
      return this.#commitRequest(input, ran);
    });
    return toSign.length === 0 ? response : { ...response, body: await this.#signed(response.body, toSign) };
  }

  /** The synchronous `respond`, for requests that need no crypto fact not already known. */
  requestRaw(req: SimRequest): ApiResponse & { readonly watch?: WatchStream } {
    const input = this.#apiRequest(req);
    const attributions: WriteAttribution[] = [];
    const result = step(this.#world, input, this.#env, { onControllerWrites: (by, after, upTo) => attributions.push({ by, after, upTo }) });
    if (result.effects.length > 0) {
      throw new PlatformSimError('PSIM_ASYNC_REQUIRED', `${req.method} ${req.path} needs signatures or certificate checks: use await sim.request(…)`);
    }
    return this.#commitRequest(input, { result, attributions });
  }

  /**
   * Runs a step; while it reports crypto facts it needed, establishes them at the edge and runs
   * it again on the current world (the discarded passes changed nothing). The complete pass is
   * committed synchronously, so requests running concurrently never commit a stale world.
   */
  async #run<T>(input: Input, commit: (ran: Ran) => T, onInstant?: (w: World, attributions: readonly WriteAttribution[]) => void): Promise<T> {
    for (let pass = 0; pass < limits.factPassesMax; pass++) {
      // Side channels are buffered: a pass that needed facts is discarded with everything it saw.
      const instants: { world: World; attributions: WriteAttribution[] }[] = [];
      let attributions: WriteAttribution[] = [];
      const result = step(this.#world, input, this.#env, {
        onControllerWrites: (by, after, upTo) => attributions.push({ by, after, upTo }),
        ...(onInstant === undefined
          ? {}
          : {
              onInstant: (w: World) => {
                instants.push({ world: w, attributions });
                attributions = [];
              },
            }),
      });
      const needs = result.effects.flatMap((e) => (e.type === 'crypto/factNeeded' ? [e.need] : []));
      if (needs.length === 0) {
        for (const i of instants) onInstant!(i.world, i.attributions);
        return commit({ result, attributions });
      }
      await this.#edge.resolver.resolve(needs);
    }
    throw new InvariantError(`a step still needed crypto facts after ${limits.factPassesMax} passes`);
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

  /**
   * Authenticates and authorizes a request for a path outside the API (the /sim/v1 control
   * endpoints) as a non-resource request: null when allowed, else the 401/403 response.
   */
  async refuse(req: Omit<SimRequest, 'body'>): Promise<ApiResponse | null> {
    const input = this.#apiRequest(req);
    for (let pass = 0; pass < limits.factPassesMax; pass++) {
      const book = new FactBook(this.#edge.resolver.facts);
      const env = { table: this.#table, identity: this.#env.identity, crypto: book };
      const who = identify(this.#world, env, input.request);
      const attrs = requestAttributes(input.request.method, input.request.path);
      const refusal = !who.ok
        ? who.handled.response
        : isAllowed(this.#world, env, who.user, attrs).allowed
          ? null
          : respondError(forbidden({ ...attrs, user: who.user }, ''), { output: { type: 'json' }, pretty: false });
      if (book.needs.length === 0) return refusal;
      await this.#edge.resolver.resolve(book.needs);
    }
    throw new InvariantError(`a request still needed crypto facts after ${limits.factPassesMax} passes`);
  }

  /** PEM of the simulation's CA: it issued the serving certificate and trusts client certificates it issued. */
  get caCertificate(): string {
    return this.#edge.caPem;
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

  /** Replaces the whole world (PUT /sim/v1/snapshot); open watches are ended. */
  replaceWorld(world: World): void {
    this.#hub.closeAll();
    this.#world = world;
  }

  async settle(): Promise<void> {
    await this.#run({ type: 'controllers/settleRequested' }, ({ result, attributions }) => {
      this.#trace.writes(this.#world, result.world, attributions);
      this.#set(result.world);
    });
  }

  async advance(duration: string | number): Promise<void> {
    const ms = typeof duration === 'number' ? duration : parseDuration(duration);
    if (ms === null || ms < 0) throw new PlatformSimError('PSIM_DURATION_INVALID', `advance: "${String(duration)}" is not a non-negative Go duration`);
    const until = this.#world.now + ms;
    const onInstant = (w: World, attributions: readonly WriteAttribution[]): void => {
      this.#trace.writes(this.#world, w, attributions);
      this.#check(this.#world, w);
      this.#world = w;
      this.#hub.publish(w);
    };
    await this.#run({ type: 'clock/advanced', to: until }, ({ result }) => {
      this.#world = result.world;
      this.#trace.clock(this.#world);
    }, onInstant);
  }

  /** Installs fault rules (sim/faults.ts); bad rules throw PSIM_OPTION_INVALID. */
  injectFaults(rules: readonly FaultRule[]): void {
    const checked = validateFaultRules(rules);
    if (!checked.ok) throw new PlatformSimError('PSIM_OPTION_INVALID', checked.message);
    this.#set(installFaults(this.#world, checked.rules));
  }

  clearFaults(): void {
    this.#set(clearFaults(this.#world));
  }

  /** The installed rules and how often each fired. */
  faults(): readonly FaultState[] {
    return (this.#world.faults ?? []) as readonly FaultState[];
  }

  /** What happened so far: requests, writes with their actor, time moving (bounded). */
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
    return JSON.parse(JSON.stringify({ format: 'platform-sim/snapshot@1', options: this.#raw, world: this.#world })) as Snapshot;
  }

  /** Ends every open watch. */
  close(): void {
    this.#hub.closeAll();
  }
}

function lowerCase(h: Readonly<Record<string, string | readonly string[]>>): Record<string, string | readonly string[]> {
  const out: Record<string, string | readonly string[]> = {};
  for (const k of Object.keys(h)) out[k.toLowerCase()] = h[k]!;
  return out;
}

/** An object's state in a few words for the trace: its kind's table cells but name and age. */
function summarize(table: ResourceTable, resource: string, object: KubeObject, now: number): string {
  const columns = table.byId(resource)?.table ?? [];
  return columns
    .filter((c) => c.priority === 0 && c.name !== 'Name' && c.name !== 'Age')
    .map((c) => String(c.cell(object, now)))
    .filter((v) => v !== '' && v !== '<none>')
    .join(' ');
}
