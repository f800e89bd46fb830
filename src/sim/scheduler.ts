/**
 * settle and advance, pure. `settle` runs every controller in a fixed order and applies its
 * intents, round after round, until a round changes nothing (bounded: a livelock is reported
 * with the controllers still busy); a controller that declares what it watches is skipped while
 * none of it changed since it last had nothing to do (the dirty set, below); a controller a
 * `controller` fault rule pauses or crashed sits out (sim/controllerFaults.ts), and its intents are
 * applied as its client and work queue would (sim/controllerWrites.ts: events, retries, injected
 * faults). `advance` jumps from wake-up to wake-up (controllers' timers and retries, fault windows,
 * history compaction), never backwards, settling at each. What happened comes back as data: each
 * instant visited with the world at its end, which controller wrote which revisions, and every
 * intent the API refused that is a bug (a fault's refusal is not one).
 */
import { limits } from '../core/limits.ts';
import { assert } from '../core/assert.ts';
import type { Instant } from '../core/duration.ts';
import { compactLog, everyEntryAfterEntry, lastLogEntry, type LogEntry } from '../store/history.ts';
import { getObject } from '../store/objects.ts';
import { drawPermutation } from '../ports/rng.ts';
import { worldWith, type World } from '../store/world.ts';
import type { ResourceTable } from '../registry/index.ts';
import { describeIntent, type Controller, type ControllerEnv, type ControllerServices, type Intent } from '../controllers/types.ts';
import { nextRetry } from '../controllers/retries.ts';
import { noCryptoFacts } from '../api/noCryptoFacts.ts';
import type { Rejection } from './intents.ts';
import { applyReconcile } from './controllerWrites.ts';
import { nextWindowEdge, openDueWindows, stoppedControllers } from './controllerFaults.ts';
import { builtInControllers } from './controllers.ts';
import { PlatformSimError } from './options.ts';
import { getOwn, hasOwn } from '../core/json.ts';

/** Who wrote revisions (after, upTo]: `api` for a request, else the controller's name. */
export interface WriteAttribution {
  readonly by: string;
  readonly after: number;
  readonly upTo: number;
}

/** One instant a step visited: the world at its end and the controller writes made there. */
export interface Visit {
  readonly world: World;
  readonly writes: readonly WriteAttribution[];
}

/** What settling or advancing did. */
export interface Progress {
  readonly world: World;
  readonly instants: readonly Visit[];
  readonly rejections: readonly Rejection[];
}

/** Without crypto facts (bootstrap): a controller that asks for one there is a bug. */
export const noServices: ControllerServices = { crypto: noCryptoFacts, signing: { caNotAfter: Number.MAX_SAFE_INTEGER, maxDurationSeconds: 365 * 24 * 3600 } };

function env(table: ResourceTable, services: ControllerServices): ControllerEnv {
  // Two literals rather than a spread of an optional part: every settle makes one.
  return services.checkSkips === true
    ? { registry: table, names: table.names, crypto: services.crypto, signing: services.signing, checkViews: true }
    : { registry: table, names: table.names, crypto: services.crypto, signing: services.signing };
}

/**
 * Postconditions of every reconcile, whatever the controller: it acts only on objects it read
 * (an update or delete names an object of the world it was given, with the uid it had), an update
 * carries the resourceVersion it read, a created object is named, and it remembers only its own
 * state. A failure is a bug in that controller, not in the request that woke it.
 */
function checkIntents(c: Controller, world: World, intents: readonly Intent[]): void {
  for (const i of intents) {
    switch (i.type) {
      case 'create':
        assert((i.object.metadata.name ?? i.object.metadata.generateName ?? '') !== '', `${c.name}: a created object needs a name`);
        break;
      case 'update': {
        const { namespace = '', name = '', uid, resourceVersion = '' } = i.object.metadata;
        const read = getObject(world, i.resource, namespace, name);
        assert(read !== undefined && read.metadata.uid === uid, `${c.name}: updates ${i.resource} ${namespace}/${name}, which it did not read`);
        assert(resourceVersion !== '', `${c.name}: an update must carry the resourceVersion it read`);
        break;
      }
      case 'delete': {
        const read = getObject(world, i.resource, i.namespace, i.name);
        assert(read !== undefined && read.metadata.uid === i.uid, `${c.name}: deletes ${i.resource} ${i.namespace}/${i.name}, which it did not read`);
        break;
      }
      case 'remember':
        assert(i.controller === c.name, `${c.name}: may remember only its own state`);
        break;
    }
  }
}

/**
 * Everything a controller that declares `watches` reads, by identity: the stores of the resources
 * it watches, its remembered state, the retries, the fault rules, the config and the registry.
 * Stored versions never change, so the same identities mean the same inputs.
 */
interface Reading {
  /** Brought up to date in place when a controller stays quiet over changes it does not react to. */
  readonly stores: unknown[];
  readonly own: unknown;
  readonly retries: unknown;
  /** Rules installed or cleared change what the node agent and the node controller do. */
  readonly faults: unknown;
  readonly config: unknown;
  readonly registry: unknown;
}

function readingOf(c: Controller, world: World, e: ControllerEnv): Reading | null {
  if (c.watches === undefined) return null;
  return { stores: c.watches.map((r) => getOwn(world.objects, r)), own: getOwn(world.controllers, c.name), retries: world.retries, faults: world.faults, config: world.config, registry: e.registry };
}

/**
 * The dirty set, kept as its complement: per controller, what it read when a reconcile last found
 * nothing to do, and at which instant. Until one of those inputs changes (or time moves) it would
 * find nothing again, so it is skipped — a write to a ServiceAccount costs the StatefulSet
 * controller nothing. A controller that says which changes it reacts to (`reactsTo`) stays
 * skipped over the others: the watch log's entries since the reading tell which changes came
 * (`revision`, and `entry`, the log entry at that revision: the same entry object in the current
 * world's log proves it grew from that one). A cache, not state: a reconcile is a function of its
 * reading, so skipping one changes no result (verified under `checkInvariants`).
 */
interface QuietReading {
  readonly reading: Reading;
  readonly now: Instant;
  /** With `entry`, moved on in place as the controller stays quiet (isQuiet). */
  revision: number;
  entry: LogEntry | undefined;
}
const quiet = new WeakMap<Controller, QuietReading>();

/** A controller's last answered `nextWakeup`, valid for the same reading until that instant. */
const wakeups = new WeakMap<Controller, { readonly reading: Reading; readonly from: Instant; readonly next: Instant | null }>();

/** Whether `world` gives `c` the same reading as `r`, compared in place: most checks find it quiet, and allocate nothing. */
function readsAsBefore(c: Controller, world: World, e: ControllerEnv, r: Reading): boolean {
  if (!readsAsBeforeButStores(c, world, e, r)) return false;
  const watches = c.watches!;
  for (let i = 0; i < watches.length; i++) if (r.stores[i] !== getOwn(world.objects, watches[i]!)) return false;
  return true;
}

function isQuiet(c: Controller, world: World, e: ControllerEnv): boolean {
  if (c.watches === undefined) return false;
  const q = quiet.get(c);
  if (q === undefined || q.now !== world.now) return false;
  if (readsAsBefore(c, world, e, q.reading)) return true;
  if (c.reactsTo === undefined || !readsAsBeforeButStores(c, world, e, q.reading) || !changesLeaveQuiet(c, world, q)) return false;
  // The same reading but for the stores, which move on: taken over in place (a cache entry).
  const watches = c.watches;
  for (let i = 0; i < watches.length; i++) q.reading.stores[i] = getOwn(world.objects, watches[i]!);
  q.revision = world.revision;
  q.entry = lastEntryAt(world);
  return true;
}

/** Whether `world` gives `c` the reading `r`, the watched stores aside. */
function readsAsBeforeButStores(c: Controller, world: World, e: ControllerEnv, r: Reading): boolean {
  return r.own === getOwn(world.controllers, c.name) && r.retries === world.retries && r.faults === world.faults && r.config === world.config && r.registry === e.registry;
}

/** Whether every change of a watched resource since the quiet reading is one `c` does not react to. */
function changesLeaveQuiet(c: Controller, world: World, q: QuietReading): boolean {
  // The log must hold every entry since, and be the log the reading was taken from.
  if (q.entry === undefined || world.compactedRevision > q.revision) return false;
  return everyEntryAfterEntry(world.log, q.revision, q.entry, c, leavesQuiet);
}

/** Whether a change can give `c` work: of a resource it watches, and one it reacts to (any, without `reactsTo`). */
function reactsToChange(c: Controller, change: LogEntry): boolean {
  return c.watches !== undefined && c.watches.includes(change.resource) && (c.reactsTo === undefined || c.reactsTo(change));
}

/** Whether a change leaves `c` with nothing new to do. */
function leavesQuiet(c: Controller, change: LogEntry): boolean {
  return !reactsToChange(c, change);
}

function quietReading(c: Controller, world: World, e: ControllerEnv): QuietReading {
  return { reading: readingOf(c, world, e)!, now: world.now, revision: world.revision, entry: lastEntryAt(world) };
}

/** The log entry of the world's revision, when the log still holds it. */
function lastEntryAt(world: World): LogEntry | undefined {
  const last = lastLogEntry(world.log);
  return last?.rv === world.revision ? last : undefined;
}

/** Under `checkInvariants`: a controller skipped as quiet must find nothing to do when run. */
function checkQuietSkip(c: Controller, world: World, e: ControllerEnv): void {
  const intents = c.reconcile(world, e);
  const how = c.reactsTo === undefined ? '' : ' in a way it reacts to';
  assert(intents.length === 0, `${c.name} was skipped as nothing it watches (${(c.watches ?? []).join(', ')}) changed${how}, yet it had work: ${intents.map(describeIntent).join('; ')}`);
}

function reconcileUnlessQuiet(c: Controller, world: World, e: ControllerEnv, services: ControllerServices): readonly Intent[] {
  if (isQuiet(c, world, e)) {
    if (services.checkSkips === true) checkQuietSkip(c, world, e);
    return [];
  }
  const intents = c.reconcile(world, e);
  if (intents.length === 0 && c.watches !== undefined) quiet.set(c, quietReading(c, world, e));
  return intents;
}

function wakeupOf(c: Controller, world: World, e: ControllerEnv, services: ControllerServices): Instant | null {
  if (c.watches !== undefined) {
    const known = wakeups.get(c);
    if (known !== undefined && known.from <= world.now && (known.next === null || known.next > world.now) && readsAsBefore(c, world, e, known.reading)) {
      if (services.checkSkips === true) {
        const next = c.nextWakeup(world, e);
        assert(next === known.next, `${c.name}: nextWakeup ${String(next)} differs from the ${String(known.next)} reused for the same inputs`);
      }
      return known.next;
    }
  }
  const next = c.nextWakeup(world, e);
  const reading = readingOf(c, world, e);
  if (reading !== null) wakeups.set(c, { reading, from: world.now, next });
  return next;
}

/**
 * The controllers in this round's order: as listed, or (`schedule: 'seeded'`) drawn from the seed
 * and the point reached — the revision, the instant and the round — so the same run draws the
 * same orders, and a settle with nothing to do leaves the world as it was.
 */
function roundOrder(world: World, controllers: readonly Controller[], round: number): readonly Controller[] {
  if (world.config.schedule !== 'seeded') return controllers;
  const { order } = drawPermutation(world.seed, {}, `schedule/${world.revision}/${world.now}/${round}`, controllers.length);
  return order.map((k) => controllers[k]!);
}

/**
 * Whether `after` differs from `before` only in the memory of controller `name` — what no other
 * controller reads (a controller reads and remembers only its own state: checkIntents).
 */
function changedOnlyMemoryOf(before: World, after: World, name: string): boolean {
  return sameBut(before as unknown as Record<string, unknown>, after as unknown as Record<string, unknown>, 'controllers') && sameBut(before.controllers, after.controllers, name);
}

/** Whether two records have the same entries (by identity), but perhaps the one at `except`. */
function sameBut(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>, except: string): boolean {
  // for…in rather than Object.keys: this runs after every controller write, and allocates nothing.
  for (const k in a) if (hasOwn(a, k) && k !== except && (!hasOwn(b, k) || getOwn(b, k) !== getOwn(a, k))) return false;
  for (const k in b) if (hasOwn(b, k) && k !== except && !hasOwn(a, k)) return false;
  return true;
}

/**
 * The dirty set for a whole settle: where the last settle with these controllers came to rest, every
 * controller having nothing to do there (none stopped). In a world grown from that one by writes
 * alone — the same instant, memories, retries, fault rules and config; its log holding the rest's
 * last entry, so the entries after it are every change since — a controller that watches has work
 * only if it watches a changed resource and reacts to the change. When none does, the first round
 * skips them all at once, without a quiet check each (the controllers that watch nothing run as
 * in every round). A cache, as `quiet`: each skip is verified under `checkInvariants`.
 */
interface Rest {
  /** The parts of the rest's world that must not have changed (not the world: a closed simulation's stays collectable). */
  readonly at: {
    readonly now: Instant;
    readonly revision: number;
    readonly controllers: World['controllers'];
    readonly retries: World['retries'] | undefined;
    readonly faults: World['faults'] | undefined;
    readonly config: World['config'];
  };
  readonly table: ResourceTable;
  readonly entry: LogEntry | undefined;
}
const rests = new WeakMap<readonly Controller[], Rest>();

function restAt(world: World, table: ResourceTable): Rest {
  const at = { now: world.now, revision: world.revision, controllers: world.controllers, retries: world.retries, faults: world.faults, config: world.config };
  return { at, table, entry: lastEntryAt(world) };
}

function watchersAtRest(world: World, table: ResourceTable, controllers: readonly Controller[]): boolean {
  if (world.faults !== undefined && world.faults.length > 0) return false;
  const rest = rests.get(controllers);
  if (rest === undefined || rest.table !== table || rest.entry === undefined) return false;
  const r = rest.at;
  if (r.now !== world.now || r.controllers !== world.controllers || r.retries !== world.retries || r.faults !== world.faults || r.config !== world.config) return false;
  return world.compactedRevision <= r.revision && everyEntryAfterEntry(world.log, r.revision, rest.entry, controllers, noWatcherReacts);
}

/** Whether the change leaves every controller with nothing new to do. */
function noWatcherReacts(controllers: readonly Controller[], change: LogEntry): boolean {
  for (const c of controllers) if (reactsToChange(c, change)) return false;
  return true;
}

/**
 * Settles at the current instant; the writes and rejections are appended to the given lists.
 * Controller fault windows due now open first; a paused or crashed controller sits the settle out.
 */
function settleInto(world: World, table: ResourceTable, services: ControllerServices, controllers: readonly Controller[], writes: WriteAttribution[], rejections: Rejection[]): World {
  const atRest = watchersAtRest(world, table, controllers);
  let w = openDueWindows(world, controllers);
  const stopped = stoppedControllers(w, controllers);
  const e = env(table, services);
  const held = new Set<string>();
  // Controllers that found nothing to do, and nothing they read changed since: a change to
  // another controller's memory alone (a cursor, the node agent's record) gives them nothing new,
  // so the round it ends runs only the controller that remembered.
  // An array, not a Set: a dozen controllers, most of them added every settle.
  const idle: Controller[] = [];
  for (let round = 0; round < limits.settleRoundsMax; round++) {
    const busy: string[] = [];
    for (const c of roundOrder(w, controllers, round)) {
      if (stopped.size > 0 && stopped.has(c.name)) continue;
      if (idle.includes(c)) {
        if (services.checkSkips === true) {
          const intents = c.reconcile(w, e);
          assert(intents.length === 0, `${c.name} was skipped as only other controllers' memory changed since it found nothing to do, yet it had work: ${intents.map(describeIntent).join('; ')}`);
        }
        continue;
      }
      // At rest as the settle began, and nothing a watcher reads changed since (another controller's
      // memory is not read).
      if (atRest && c.watches !== undefined && w.revision === world.revision && w.retries === world.retries) {
        if (services.checkSkips === true) checkQuietSkip(c, w, e);
        idle.push(c);
        continue;
      }
      const intents = reconcileUnlessQuiet(c, w, e, services);
      if (intents.length > 0) checkIntents(c, w, intents);
      const before = w;
      w = applyReconcile(w, table, c, intents, services, rejections, held);
      // Busy means the world changed: a controller whose intents were all refused (or changed
      // nothing) would only repeat them.
      if (w === before) {
        if (intents.length === 0) idle.push(c);
        continue;
      }
      if (!changedOnlyMemoryOf(before, w, c.name)) idle.length = 0;
      busy.push(c.name);
      if (w.revision > before.revision) writes.push({ by: c.name, after: before.revision, upTo: w.revision });
    }
    if (busy.length === 0) {
      if (stopped.size === 0) rests.set(controllers, restAt(w, table));
      return w;
    }
    if (round === limits.settleRoundsMax - 1) {
      throw new PlatformSimError('PSIM_SETTLE_LIVELOCK', `settle did not come to rest after ${limits.settleRoundsMax} rounds; still busy: ${busy.join(', ')}`);
    }
  }
  return w;
}

export function settleWorld(world: World, table: ResourceTable, services: ControllerServices = noServices, controllers: readonly Controller[] = builtInControllers): Progress {
  const writes: WriteAttribution[] = [];
  const rejections: Rejection[] = [];
  const w = settleInto(world, table, services, controllers, writes, rejections);
  return { world: w, instants: [{ world: w, writes }], rejections };
}

/** History compaction at every multiple of the interval, as etcd's periodic compactor. */
function compact(world: World): World {
  const compactedRevision = Math.max(world.compactedRevision, world.revisionAtLastCompaction);
  return worldWith(world, {
    compactedRevision,
    revisionAtLastCompaction: world.revision,
    nextCompactionAt: world.nextCompactionAt + world.config.compactionIntervalMs,
    log: compactLog(world.log, compactedRevision),
  });
}

/** The next instant something is due: compaction, a retry, a fault window's edge, a controller's timer. */
function nextWakeup(world: World, table: ResourceTable, services: ControllerServices, controllers: readonly Controller[]): Instant {
  let t = world.nextCompactionAt;
  // A paused or crashed controller's wake-ups are ignored; it catches up when it runs again.
  const stopped = stoppedControllers(world, controllers);
  const retry = nextRetry(world, stopped);
  if (retry !== null && retry < t) t = retry;
  const edge = nextWindowEdge(world);
  if (edge !== null && edge < t) t = edge;
  const e = env(table, services);
  for (const c of controllers) {
    if (stopped.has(c.name)) continue;
    const w = wakeupOf(c, world, e, services);
    if (w !== null && w < t) t = w;
  }
  return t;
}

/** Moves time to `until`, firing every wake-up on the way and settling at each. */
export function advanceWorld(world: World, table: ResourceTable, until: Instant, services: ControllerServices = noServices, controllers: readonly Controller[] = builtInControllers): Progress {
  assert(until >= world.now, 'time never moves backwards');
  const instants: Visit[] = [];
  const rejections: Rejection[] = [];
  let w = world;
  for (let visits = 0; visits < limits.advanceWakeupsMax; visits++) {
    const due = nextWakeup(w, table, services, controllers);
    if (due > until) break;
    w = worldWith(w, { now: Math.max(w.now, due) });
    if (w.now >= w.nextCompactionAt) w = compact(w);
    const writes: WriteAttribution[] = [];
    w = settleInto(w, table, services, controllers, writes, rejections);
    instants.push({ world: w, writes });
  }
  const writes: WriteAttribution[] = [];
  w = settleInto(worldWith(w, { now: until }), table, services, controllers, writes, rejections);
  instants.push({ world: w, writes });
  return { world: w, instants, rejections };
}
