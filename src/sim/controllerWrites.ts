/**
 * One reconcile's intents applied as the controller's client and work queue would:
 *
 * - a reported write (`Intent.report`) records its events, and a refusal records the Warning
 *   event of the report and one failure of the work item per reconcile (controllers/retries.ts:
 *   it waits 5 ms × 2^(n−1), at most 1000 s); an item none of whose writes was refused is
 *   forgotten;
 * - a write an injected fault refuses is the API server's trouble, not a bug: its work item (the
 *   report's key, or for a write the controller does not report, the write itself) is retried
 *   with backoff, as client-go's work queue requeues with rate limiting. The retry comes on
 *   `advance`, never again in the same settle: a later round re-issuing the item's writes (the
 *   StatefulSet controller re-syncs a set whose status write failed) is held back, so a settle
 *   comes to rest while a fault keeps refusing. An event write a fault refuses is dropped, as the
 *   event broadcaster gives up on one;
 * - any other refusal of an unreported write is a rejection: a bug in the controller.
 *
 * A refused write the item's later writes need (`Report.prerequisite`) ends the item's sync: its
 * later writes in this reconcile are not sent (but its status, for `members`), as the real
 * controller returns at that error.
 *
 * A sync a fault cut short (a write refused, or held back for its retry) did not complete: the
 * controller keeps the memory it had (its `remember` is not applied) and does that work again,
 * as a kubelet retries a status it could not write and the garbage collector requeues an owner.
 * Its writes that went through are then found done (a delete of what is gone, a status as it is).
 */
import { assert } from '../core/assert.ts';
import type { ResourceTable } from '../registry/index.ts';
import type { World } from '../store/world.ts';
import { describeIntent, type Actor, type Controller, type ControllerServices, type Intent, type Report } from '../controllers/types.ts';
import { forget, forgetDue, isBackingOff, recordFailure } from '../controllers/retries.ts';
import { EventRecorder } from '../controllers/events.ts';
import { applyIntent, type Rejection } from './intents.ts';

/** Work-item keys of writes a controller does not report (a report key names no such thing). */
const writePrefix = 'write:';

function itemOf(i: Intent): string | null {
  if (i.type === 'remember') return null;
  return i.report?.key ?? `${writePrefix}${describeIntent(i)}`;
}

/** A reconcile without intents issued nothing (shared: a quiet controller's round allocates nothing). */
const nothingIssued: ReadonlySet<string> = new Set();

/**
 * Applies a reconcile's intents (none: only its due unreported retries are settled). `held`: the
 * `<controller>/<item>` refused by a fault earlier in this settle, shared by its rounds.
 */
export function applyReconcile(
  world: World,
  table: ResourceTable,
  c: Controller,
  intents: readonly Intent[],
  services: ControllerServices,
  rejections: Rejection[],
  held: Set<string>,
): World {
  if (intents.length === 0) return forgetDue(world, c.name, writePrefix, nothingIssued);
  const actor = c.actor(table.names);
  const recorder = new EventRecorder(c.name);
  const reportedItems = new Set<string>();
  const refused = new Set<string>();
  const issued = new Set<string>();
  const faulted = new Set<string>();
  const memories: Intent[] = [];
  /** Items whose sync ended at a refused prerequisite, and how far (Report.prerequisite). */
  const ended = new Map<string, 'sync' | 'members'>();
  let cutShort = false;
  let w = world;
  for (const i of intents) {
    const item = itemOf(i);
    if (item === null) {
      memories.push(i);
      continue;
    }
    if (i.report === undefined) issued.add(item);
    else reportedItems.add(item);
    const end = ended.get(item);
    if (end === 'sync' || (end === 'members' && !(i.type === 'update' && i.subresource === 'status'))) continue;
    // Waiting for its retry: the controller's queue would not hand the item out now.
    if (held.has(`${c.name}/${item}`) || (i.report === undefined && isBackingOff(w, c.name, item))) {
      refused.add(item);
      cutShort = true;
      continue;
    }
    const applied = applyIntent(w, table, c.name, actor, i, services.crypto);
    w = applied.world;
    if (applied.ok) {
      if (i.report !== undefined) w = reported(w, table, c, actor, recorder, i.report, null, services, rejections);
      else w = forget(w, c.name, item);
      continue;
    }
    if (i.report === undefined && !applied.serverSide) {
      rejections.push(applied.rejection);
      continue;
    }
    if (applied.serverSide) {
      faulted.add(item);
      cutShort = true;
    }
    if (!refused.has(item)) w = recordFailure(w, c.name, item);
    refused.add(item);
    const prerequisite = i.report?.prerequisite;
    if (prerequisite !== undefined && ended.get(item) !== 'sync') ended.set(item, prerequisite);
    if (i.report !== undefined) w = reported(w, table, c, actor, recorder, i.report, applied.rejection, services, rejections);
  }
  if (!cutShort) for (const m of memories) w = remember(w, table, c, actor, m, services);
  for (const key of reportedItems) if (!refused.has(key)) w = forget(w, c.name, key);
  for (const key of faulted) held.add(`${c.name}/${key}`);
  return forgetDue(w, c.name, writePrefix, issued);
}

function remember(world: World, table: ResourceTable, c: Controller, actor: Actor, intent: Intent, services: ControllerServices): World {
  const applied = applyIntent(world, table, c.name, actor, intent, services.crypto);
  assert(applied.ok, `${c.name}: remembering its state cannot fail`);
  return applied.world;
}

/** The events a reported write calls for: the accepted ones, or the Warning of a refusal. */
function reported(world: World, table: ResourceTable, c: Controller, actor: Actor, recorder: EventRecorder, report: Report, refusal: Rejection | null, services: ControllerServices, rejections: Rejection[]): World {
  const events =
    refusal === null
      ? (report.accepted ?? []).map((e) => ({ type: e.type ?? 'Normal', reason: e.reason, message: e.message }))
      : report.refused === undefined
        ? []
        : [{ type: 'Warning' as const, reason: report.refused.reason, message: `${report.refused.messagePrefix}${refusal.status.message ?? ''}` }];
  let w = world;
  for (const event of events) {
    const intent = recorder.record(w, { involved: report.involved, ...event });
    const applied = applyIntent(w, table, c.name, actor, intent, services.crypto);
    w = applied.world;
    if (!applied.ok && !applied.serverSide) rejections.push(applied.rejection);
  }
  return w;
}
