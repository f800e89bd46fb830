/**
 * The only way a stored object changes: take the next revision, stamp it as the object's
 * resourceVersion, store or remove the object, append the change to the watch log and keep the
 * owner index current. One call is one etcd transaction.
 */
import type { KubeObject } from '../api/meta.ts';
import { assert } from '../core/assert.ts';
import { appendLog, compactLog, oldestLogRevision, type ChangeType } from './history.ts';
import { objectsWith, objectsWithout } from './objects.ts';
import { updateOwnerIndex } from './ownerIndex.ts';
import { copyWorld, type World } from './world.ts';

export interface Committed {
  readonly world: World;
  readonly object: KubeObject;
}

function stamp(object: KubeObject, rv: number, own: boolean): KubeObject {
  if (!own) return { ...object, metadata: { ...object.metadata, resourceVersion: String(rv) } };
  (object.metadata as { resourceVersion?: string }).resourceVersion = String(rv);
  return object;
}

/**
 * `own`: the object and its metadata were made by this write and nobody else holds them (a create
 * or an update that built them just now), so they are stamped in place instead of copied.
 */
export function commit(world: World, resource: string, type: ChangeType, object: KubeObject, prev: KubeObject | null, own = false): Committed {
  const namespace = object.metadata.namespace ?? '';
  const name = object.metadata.name ?? '';
  assert(name !== '', 'commit needs a named object');
  assert((type === 'ADDED') === (prev === null), 'ADDED exactly when there is no previous state');
  const rv = world.revision + 1;
  assert(rv <= Number.MAX_SAFE_INTEGER, 'revisions ran out of exact integers (a world taken over by a server stays below limits.revisionMax)');
  const stored = stamp(object, rv, own);
  const objects = type === 'DELETED' ? objectsWithout(world.objects, resource, namespace, name) : objectsWith(world.objects, resource, namespace, name, stored);
  let log = appendLog(world.log, { rv, type, resource, namespace, name, object: stored, prev });
  log = compactLog(log, world.compactedRevision);
  // A log trimmed by its size bound raises the compaction mark: older starts must get 410.
  const oldest = oldestLogRevision(log);
  const compactedRevision = oldest !== null && oldest - 1 > world.compactedRevision ? oldest - 1 : world.compactedRevision;
  const next = copyWorld(world);
  next.objects = objects;
  next.revision = rv;
  next.log = log;
  next.compactedRevision = compactedRevision;
  next.owners = updateOwnerIndex(world.owners, resource, prev, type === 'DELETED' ? null : stored);
  return { world: next, object: stored };
}
