/**
 * The objects of one resource a step stored (created or changed), found as views find them
 * (store/views.ts `objectChanges`): in time proportional to the step's writes, not to the store.
 * For checkers of a property of every stored object: given that `before` had it, only these can
 * have lost it.
 */
import type { KubeObject } from '../../api/meta.ts';
import { getOwn } from '../../core/json.ts';
import { compareStorageKeys } from '../../store/objects.ts';
import { objectChanges, storeOf } from '../../store/views.ts';
import type { World } from '../../store/world.ts';

export function forEachStoredByStep(before: World, after: World, resource: string, visit: (object: KubeObject) => void): void {
  const stored: KubeObject[] = [];
  objectChanges(storeOf(before, resource), storeOf(after, resource), (_namespace, _name, _was, object) => {
    if (object !== undefined) stored.push(object);
  });
  // In storage-key order, as a full listing visits them: the same step reports the same sentences.
  stored.sort(compareStorageKeys);
  for (const object of stored) visit(object);
}

/** The resources whose stores differ between the two worlds (by identity), sorted. */
export function resourcesChangedByStep(before: World, after: World): string[] {
  return Object.keys(after.objects)
    .filter((r) => getOwn(after.objects, r) !== getOwn(before.objects, r))
    .sort();
}
