/**
 * A controller's intents, applied as its API client would send them: creates, updates through
 * the subresource the real controller uses, and deletes run through the same store operations,
 * strategies, validation, admission and managed fields as a request, with the controller's own
 * field manager and user. Controllers are trusted components: their writes are not put through
 * RBAC (the real ones hold roles that allow exactly these writes). A write the API refuses comes
 * back as a rejection with its Status: a bug in the controller, reported by the caller.
 */
import type { Status } from '../core/status.ts';
import { assert, assertNever } from '../core/assert.ts';
import { getObject } from '../store/objects.ts';
import { create } from '../store/ops/create.ts';
import { deleteObject } from '../store/ops/delete.ts';
import { update } from '../store/ops/update.ts';
import { bindPod } from '../store/ops/bind.ts';
import { updateScale } from '../store/ops/scale.ts';
import type { OpContext, OpResult } from '../store/ops/context.ts';
import type { World } from '../store/world.ts';
import type { ResourceTable } from '../registry/index.ts';
import { describeIntent, type Actor, type Intent } from '../controllers/types.ts';
import type { CryptoFacts } from '../api/crypto.ts';

/** A controller write the API refused. */
export interface Rejection {
  readonly controller: string;
  readonly intent: string;
  readonly status: Status;
}

export type Applied = { readonly ok: true; readonly world: World } | { readonly ok: false; readonly rejection: Rejection };

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
  if (intent.type === 'remember') return { ok: true, world: { ...world, controllers: { ...world.controllers, [intent.controller]: intent.state } } };
  if (alreadyDone(world, intent)) return { ok: true, world };
  const subresource = intent.type === 'update' ? intent.subresource : intent.type === 'create' ? (intent.subresource ?? '') : '';
  const ctx = context(world, table, intent.resource, actor, subresource, crypto);
  const result = run(ctx, intent);
  if (result.ok) return { ok: true, world: result.world };
  return { ok: false, rejection: { controller, intent: describeIntent(intent), status: result.error.status } };
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
