/**
 * Applying controller intents to the world through the same store operations as API requests
 * (as a controller's client would), with the controller's name as field manager.
 */
import type { KubeObject } from '../api/meta.ts';
import { commit } from '../store/commit.ts';
import { getObject } from '../store/objects.ts';
import { create } from '../store/ops/create.ts';
import { deleteObject } from '../store/ops/delete.ts';
import type { OpContext } from '../store/ops/context.ts';
import type { World } from '../store/world.ts';
import type { ResourceTable } from '../endpoints/resourceTable.ts';
import type { Intent } from '../controllers/types.ts';
import { assert } from '../core/assert.ts';

function ctxFor(world: World, table: ResourceTable, resource: string, manager: string): OpContext {
  const rt = table.byId(resource);
  assert(rt !== undefined, `intent names unknown resource ${resource}`);
  return { world, rt, registry: table, names: table.names, dryRun: false, fieldManager: manager, subresource: '' };
}

/** A trusted whole-object write; a terminating object with nothing left to wait for goes. */
function write(world: World, table: ResourceTable, resource: string, obj: KubeObject): World {
  const rt = table.byId(resource)!;
  const old = getObject(world, resource, obj.metadata.namespace ?? '', obj.metadata.name ?? '');
  if (old === undefined || old.metadata.uid !== obj.metadata.uid) return world;
  const finished =
    obj.metadata.deletionTimestamp !== undefined &&
    (obj.metadata.finalizers ?? []).length === 0 &&
    (rt.specFinalizers?.(obj).length ?? 0) === 0 &&
    (obj.metadata.deletionGracePeriodSeconds ?? 0) === 0;
  return commit(world, resource, finished ? 'DELETED' : 'MODIFIED', finished ? old : obj, old).world;
}

export function applyIntent(world: World, table: ResourceTable, controller: string, intent: Intent): World {
  switch (intent.type) {
    case 'create': {
      const r = create(ctxFor(world, table, intent.resource, controller), intent.object, intent.object.metadata.namespace ?? '');
      return r.ok ? r.world : world;
    }
    case 'write':
      return write(world, table, intent.resource, intent.object);
    case 'delete': {
      const current = getObject(world, intent.resource, intent.namespace, intent.name);
      if (current === undefined || current.metadata.uid !== intent.uid) return world;
      const r = deleteObject(ctxFor(world, table, intent.resource, controller), intent.namespace, intent.name, {
        preconditions: { uid: intent.uid },
        ...(intent.propagationPolicy === undefined ? {} : { propagationPolicy: intent.propagationPolicy }),
      });
      return r.ok ? r.world : world;
    }
    case 'remember':
      return { ...world, controllers: { ...world.controllers, [intent.controller]: intent.state } };
  }
}
