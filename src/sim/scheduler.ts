/**
 * settle and advance, pure. `settle` runs every controller in a fixed order and applies its
 * intents, round after round, until a round changes nothing (bounded: a livelock is reported
 * with the controllers still busy). `advance` jumps from wake-up to wake-up (controllers' timers
 * and history compaction), never backwards, settling at each. What happened comes back as data:
 * each instant visited with the world at its end, which controller wrote which revisions, and
 * every intent the API refused.
 */
import { limits } from '../core/limits.ts';
import { assert } from '../core/assert.ts';
import type { Instant } from '../core/duration.ts';
import { compactLog } from '../store/history.ts';
import type { World } from '../store/world.ts';
import type { ResourceTable } from '../registry/index.ts';
import type { Controller, ControllerEnv, ControllerServices, Intent } from '../controllers/types.ts';
import { noCryptoFacts } from '../api/noCryptoFacts.ts';
import { applyIntent, type Rejection } from './intents.ts';
import { builtInControllers } from './controllers.ts';
import { PlatformSimError } from './options.ts';

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
  return { registry: table, names: table.names, crypto: services.crypto, signing: services.signing };
}

/** Postconditions every reconcile must meet, whatever the controller. */
function checkIntents(c: Controller, intents: readonly Intent[]): void {
  for (const i of intents) {
    if (i.type === 'update') assert((i.object.metadata.resourceVersion ?? '') !== '', `${c.name}: an update must carry the resourceVersion it read`);
    if (i.type === 'delete') assert(i.uid !== '', `${c.name}: a delete must carry the uid it saw`);
    if (i.type === 'remember') assert(i.controller === c.name, `${c.name}: may remember only its own state`);
  }
}

/** Settles at the current instant; the writes and rejections are appended to the given lists. */
function settleInto(world: World, table: ResourceTable, services: ControllerServices, controllers: readonly Controller[], writes: WriteAttribution[], rejections: Rejection[]): World {
  let w = world;
  const e = env(table, services);
  for (let round = 0; round < limits.settleRoundsMax; round++) {
    const busy: string[] = [];
    for (const c of controllers) {
      const intents = c.reconcile(w, e);
      if (intents.length === 0) continue;
      checkIntents(c, intents);
      const actor = c.actor(table.names);
      const before = w;
      for (const i of intents) {
        const applied = applyIntent(w, table, c.name, actor, i, services.crypto);
        if (applied.ok) w = applied.world;
        else rejections.push(applied.rejection);
      }
      // Busy means the world changed: a controller whose intents were all refused (or changed
      // nothing) would only repeat them.
      if (w === before) continue;
      busy.push(c.name);
      if (w.revision > before.revision) writes.push({ by: c.name, after: before.revision, upTo: w.revision });
    }
    if (busy.length === 0) return w;
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
  return {
    ...world,
    compactedRevision,
    revisionAtLastCompaction: world.revision,
    nextCompactionAt: world.nextCompactionAt + world.config.compactionIntervalMs,
    log: compactLog(world.log, compactedRevision),
  };
}

function nextWakeup(world: World, table: ResourceTable, services: ControllerServices, controllers: readonly Controller[]): Instant {
  let t = world.nextCompactionAt;
  for (const c of controllers) {
    const w = c.nextWakeup(world, env(table, services));
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
    w = { ...w, now: Math.max(w.now, due) };
    if (w.now >= w.nextCompactionAt) w = compact(w);
    const writes: WriteAttribution[] = [];
    w = settleInto(w, table, services, controllers, writes, rejections);
    instants.push({ world: w, writes });
  }
  const writes: WriteAttribution[] = [];
  w = settleInto({ ...w, now: until }, table, services, controllers, writes, rejections);
  instants.push({ world: w, writes });
  return { world: w, instants, rejections };
}
