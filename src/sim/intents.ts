/**
 * A controller's intents, applied as its API client would send them: creates, updates through
 * the subresource the real controller uses, and deletes run through the same store operations,
 * strategies, validation, admission and managed fields as a request, with the controller's own
 * field manager and user. Controllers are trusted components: their writes are not put through
 * RBAC (the real ones hold roles that allow exactly these writes), but they do meet the API
 * server's injected faults, as any client's requests. A write the API refuses comes back as a
 * rejection with its Status: a bug in the controller, reported by the caller — unless a fault
 * rule or a storage limit refused it (store/storageLimits.ts: a kind holding all it may),
 * which is the server's trouble: the caller retries it with backoff.
 */
import type { Status } from '../core/status.ts';
import { storageRefusal } from '../store/storageLimits.ts';
import { assert, assertNever } from '../core/assert.ts';
import { withEntry } from '../core/json.ts';
import { getObject } from '../store/objects.ts';
import { create } from '../store/ops/create.ts';
import { deleteObject } from '../store/ops/delete.ts';
import { update } from '../store/ops/update.ts';
import { bindPod } from '../store/ops/bind.ts';
import { updateScale } from '../store/ops/scale.ts';
import type { OpContext, OpResult } from '../store/ops/context.ts';
import { worldWith, type World } from '../store/world.ts';
import type { ResourceTable } from '../registry/index.ts';
import { describeIntent, type Actor, type Intent } from '../controllers/types.ts';
import type { CryptoFacts } from '../api/crypto.ts';
import { faultOfWrite } from './intentFaults.ts';

/** A controller write the API refused. */
export interface Rejection {
  readonly controller: string;
  readonly intent: string;
  readonly status: Status;
}

/**
 * The outcome of a write. Refused, `world` is the world with the fault rules' counts moved on (the
 * write itself did nothing), and `serverSide` says the server refused it for a reason of its own
 * (a fault rule, a storage limit) rather than for a bug in the controller.
 */
export type Applied = { readonly ok: true; readonly world: World } | { readonly ok: false; readonly world: World; readonly rejection: Rejection; readonly serverSide: boolean };

function context(world: World, table: ResourceTable, resource: string, actor: Actor, subresource: string, crypto: CryptoFacts): OpContext {
  const rt = table.byId(resource);
  assert(rt !== undefined, `an intent names the unknown resource ${resource}`);
  return { world, rt, registry: table, names: table.names, dryRun: false, fieldManager: actor.manager, subresource, user: actor.user, crypto, may: () => true };
}

function run(ctx: OpContext, intent: Intent): OpResult {
  switch (intent.type) {
    case 'create': {
      const namespace = intent.object.metadata.namespace ?? '';
      if (intent.subresource === 'binding') return bindPod(ctx, namespace, intent.object);
      return create(ctx, intent.object, namespace);
    }
    case 'update': {
      const { namespace = '', name = '' } = intent.object.metadata;
      if (intent.subresource === 'scale') return updateScale(ctx, intent.object, namespace, name);
      return update(ctx, intent.object, namespace, name);
    }
    case 'delete':
      return deleteObject(ctx, intent.namespace, intent.name, {
        preconditions: { uid: intent.uid },
        ...(intent.propagationPolicy === undefined ? {} : { propagationPolicy: intent.propagationPolicy }),
        ...(intent.gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds: intent.gracePeriodSeconds }),
      });
    case 'remember':
      return assertNever(intent as never, 'remember intent in run');
  }
}

export function applyIntent(world: World, table: ResourceTable, controller: string, actor: Actor, intent: Intent, crypto: CryptoFacts): Applied {
  if (intent.type === 'remember') return { ok: true, world: worldWith(world, { controllers: withEntry(world.controllers, intent.controller, intent.state) }) };
  // Faults act before the handler, as in the request pipeline: even a delete of an object already gone meets them.
  const fault = faultOfWrite(world, table, controller, actor, intent);
  if (fault.error !== null) return { ok: false, world: fault.world, rejection: { controller, intent: describeIntent(intent), status: fault.error.status }, serverSide: true };
  if (alreadyDone(fault.world, intent)) return { ok: true, world: fault.world };
  const subresource = intent.type === 'update' ? intent.subresource : intent.type === 'create' ? (intent.subresource ?? '') : '';
  const ctx = context(fault.world, table, intent.resource, actor, subresource, crypto);
  const result = run(ctx, intent);
  if (result.ok) {
    // The objects-per-kind limit a request meets (handleResource.ts) bounds the controllers'
    // creates too: a StatefulSet of 2^31 − 1 replicas stops at the kind's limit and retries with
    // backoff.
    const refused = storageRefusal({ before: fault.world, after: result.world, rt: ctx.rt, code: result.code, body: result.body }, 'count');
    if (refused === null) return { ok: true, world: result.world };
    return { ok: false, world: fault.world, rejection: { controller, intent: describeIntent(intent), status: refused.status }, serverSide: true };
  }
  return { ok: false, world: fault.world, rejection: { controller, intent: describeIntent(intent), status: result.error.status }, serverSide: false };
}

/**
 * A delete of an object that is already gone, or was replaced, is done: real controllers take
 * NotFound on delete as success (two controllers may condemn the same object in one round).
 */
function alreadyDone(world: World, intent: Intent): boolean {
  if (intent.type !== 'delete') return false;
  const current = getObject(world, intent.resource, intent.namespace, intent.name);
  return current === undefined || current.metadata.uid !== intent.uid;
}
