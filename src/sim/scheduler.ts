/**
 * settle and advance, pure. `settle` runs every controller in a fixed order and applies its
 * intents, round after round, until a round produces nothing (bounded: a livelock is reported
 * with the controllers still busy). `advance` jumps from wake-up to wake-up (controllers' timers
 * and history compaction), never backwards, settling at each.
 */
import { limits } from '../core/limits.ts';
import { assert } from '../core/assert.ts';
import type { Instant } from '../core/duration.ts';
import { compactLog } from '../store/history.ts';
import type { World } from '../store/world.ts';
import type { ResourceTable } from '../endpoints/resourceTable.ts';
import type { Controller, ControllerEnv, ControllerServices } from '../controllers/types.ts';
import { noCryptoFacts } from '../api/noCryptoFacts.ts';
import { garbageCollector } from '../controllers/garbage-collector/garbageCollector.ts';
import { namespaceController } from '../controllers/namespace/namespaceController.ts';
import { defaultServiceAccountController } from '../controllers/service-account/defaultServiceAccount.ts';
import { applyIntent } from './intents.ts';
import { csrSigner } from '../controllers/certificates/signer.ts';
import { nodeAgent } from '../controllers/node-agent/nodeAgent.ts';
import { csrApprover } from '../controllers/certificates/approver.ts';
import { csrCleaner } from '../controllers/certificates/cleaner.ts';
import { PlatformSimError } from './options.ts';

/** Fixed order: the order is part of determinism. */
export const controllers: readonly Controller[] = [namespaceController, defaultServiceAccountController, nodeAgent, csrApprover, csrSigner, csrCleaner, garbageCollector];

/** Without crypto facts (bootstrap): a controller that asks for one there is a bug. */
const noServices: ControllerServices = { crypto: noCryptoFacts, signing: { caNotAfter: Number.MAX_SAFE_INTEGER, maxDurationSeconds: 365 * 24 * 3600 } };

function env(table: ResourceTable, services: ControllerServices): ControllerEnv {
  return { registry: table, names: table.names, crypto: services.crypto, signing: services.signing };
}

/** Told which revisions each controller wrote (for the trace). */
export type WriteObserver = (controller: string, after: number, upTo: number) => void;

export function settleWorld(world: World, table: ResourceTable, observe?: WriteObserver, services: ControllerServices = noServices): World {
  let w = world;
  for (let round = 0; round < limits.settleRoundsMax; round++) {
    let busy = false;
    const busyNames: string[] = [];
    for (const c of controllers) {
      const intents = c.reconcile(w, env(table, services));
      if (intents.length === 0) continue;
      busy = true;
      busyNames.push(c.name);
      const before = w.revision;
      for (const i of intents) w = applyIntent(w, table, c.name, i);
      if (observe !== undefined && w.revision > before) observe(c.name, before, w.revision);
    }
    if (!busy) return w;
    if (round === limits.settleRoundsMax - 1) {
      throw new PlatformSimError('PSIM_SETTLE_LIVELOCK', `settle did not come to rest after ${limits.settleRoundsMax} rounds; still busy: ${busyNames.join(', ')}`);
    }
  }
  return w;
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

function nextWakeup(world: World, table: ResourceTable, services: ControllerServices): Instant {
  let t = world.nextCompactionAt;
  for (const c of controllers) {
    const w = c.nextWakeup(world, env(table, services));
    if (w !== null && w < t) t = w;
  }
  return t;
}

/** Moves time to `until`, firing every wake-up on the way; `onInstant` sees each visited world. */
export function advanceWorld(world: World, table: ResourceTable, until: Instant, onInstant: (w: World) => void = () => {}, observe?: WriteObserver, services: ControllerServices = noServices): World {
  assert(until >= world.now, 'time never moves backwards');
  let w = world;
  for (let visits = 0; visits < limits.advanceWakeupsMax; visits++) {
    const due = nextWakeup(w, table, services);
    if (due > until) break;
    w = { ...w, now: Math.max(w.now, due) };
    if (w.now >= w.nextCompactionAt) w = compact(w);
    w = settleWorld(w, table, observe, services);
    onInstant(w);
  }
  w = settleWorld({ ...w, now: until }, table, observe, services);
  onInstant(w);
  return w;
}
