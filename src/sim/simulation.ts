/**
 * The in-process simulation: owns the current world, feeds requests and time to the pure core,
 * keeps watches informed. Everything that changes the world goes through `handle`,
 * `settleWorld` or `advanceWorld`; this class only holds the result and runs the watchers.
 */
import { formatInstant, parseDuration } from '../core/duration.ts';
import { errors } from '../core/status.ts';
import { namesFor } from '../api/names.ts';
import { buildResourceTable, type ResourceTable } from '../endpoints/resourceTable.ts';
import { respondError } from '../endpoints/respond.ts';
import type { ApiResponse } from '../endpoints/types.ts';
import { route } from '../endpoints/route.ts';
import { parseListQuery } from '../endpoints/listQuery.ts';
import { create } from '../store/ops/create.ts';
import { emptyWorld, type World } from '../store/world.ts';
import { adminUser, authenticate, type AsIdentity } from './authenticate.ts';
import { hashWorld } from './hash.ts';
import { PlatformSimError, resolveOptions, type ResolvedOptions, type SimulationOptions } from './options.ts';
import { settleWorld } from './scheduler.ts';
import { step } from './step.ts';
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

export class Simulation {
  #world: World;
  readonly #table: ResourceTable;
  readonly #opts: ResolvedOptions;
  readonly #raw: SimulationOptions;
  readonly #hub = new WatchHub();

  constructor(raw: SimulationOptions, world?: World) {
    this.#raw = raw;
    this.#opts = resolveOptions(raw);
    this.#table = buildResourceTable(namesFor(this.#opts.config.groupDomain));
    this.#world = world ?? this.#bootstrap();
  }

  #bootstrap(): World {
    let w = emptyWorld(this.#opts.seed, this.#opts.start, this.#opts.config);
    const rt = this.#table.byId('core/namespaces')!;
    for (const name of this.#table.names.systemNamespaces) {
      const r = create({ world: w, rt, registry: this.#table, names: this.#table.names, dryRun: false, fieldManager: 'platform-sim', subresource: '' }, { metadata: { name } }, '');
      if (r.ok) w = r.world;
    }
    return settleWorld(w, this.#table);
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
    return this.requestSync(req);
  }

  /** The synchronous core of `request` (no edge work needed yet for these kinds). */
  requestSync(req: SimRequest): SimResponse {
    const raw = this.requestRaw(req);
    return { status: raw.status, headers: raw.headers, body: decodeResponseBody(raw), ...(raw.watch === undefined ? {} : { watch: raw.watch }) };
  }

  /** As `requestSync`, with the body as the exact text an HTTP server would send. */
  requestRaw(req: SimRequest): ApiResponse & { readonly watch?: WatchStream } {
    const headers = lowerCase(req.headers ?? {});
    const encoded = encodeBody(req.body, headers);
    const inProcessAdmin = req.transport !== 'http' && req.as === undefined && headers['authorization'] === undefined;
    const user = inProcessAdmin ? adminUser : authenticate(headers, req.as, this.#opts.users, this.#opts.anonymousAuth);
    if (user === null) return respondError(errors.unauthorized(), { output: { type: 'json' }, pretty: false });
    const request = { method: req.method.toUpperCase(), path: req.path, headers: encoded.headers, body: encoded.body, user };
    const result = step(this.#world, { type: 'api/requestArrived', request, settle: this.#opts.settle === 'auto' }, this.#table);
    this.#set(result.world);
    const handled = result.output!;
    if (handled.watch === undefined) return handled.response;
    const r = handled.watch.route;
    const stream = this.#hub.open(this.#world, r.rt, r.namespace, handled.watch.query);
    return { status: 200, headers: { 'content-type': 'application/json' }, body: '', watch: stream };
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

  /** Who a request is, for edges that serve more than the API (the /sim/v1 control endpoints). */
  whoIs(headers: Readonly<Record<string, string | readonly string[]>>): { username: string; groups: readonly string[] } | null {
    return authenticate(lowerCase(headers), undefined, this.#opts.users, this.#opts.anonymousAuth);
  }

  /** Replaces the whole world (PUT /sim/v1/snapshot); open watches are ended. */
  replaceWorld(world: World): void {
    this.#hub.closeAll();
    this.#world = world;
  }

  async settle(): Promise<void> {
    this.#set(step(this.#world, { type: 'controllers/settleRequested' }, this.#table).world);
  }

  async advance(duration: string | number): Promise<void> {
    const ms = typeof duration === 'number' ? duration : parseDuration(duration);
    if (ms === null || ms < 0) throw new PlatformSimError('PSIM_DURATION_INVALID', `advance: "${String(duration)}" is not a non-negative Go duration`);
    const until = this.#world.now + ms;
    const onInstant = (w: World): void => {
      this.#check(this.#world, w);
      this.#world = w;
      this.#hub.publish(w);
    };
    this.#world = step(this.#world, { type: 'clock/advanced', to: until }, this.#table, onInstant).world;
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

export async function createSimulation(options: SimulationOptions = {}): Promise<Simulation> {
  return new Simulation(options);
}

export async function restoreSimulation(snapshot: Snapshot): Promise<Simulation> {
  if (snapshot?.format !== 'platform-sim/snapshot@1' || snapshot.world?.format !== 'platform-sim/world@1') {
    throw new PlatformSimError('PSIM_SNAPSHOT_INVALID', 'not a platform-sim snapshot (format platform-sim/snapshot@1)');
  }
  return new Simulation(snapshot.options, JSON.parse(JSON.stringify(snapshot.world)) as World);
}

