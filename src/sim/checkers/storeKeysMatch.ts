/**
 * Every stored object has a resourceVersion not beyond the revision, and a uid. A step from a world
 * that had them (the revision never goes back: revisionsIncrease.ts) is judged by the objects it
 * stored alone.
 */
import type { KubeObject } from '../../api/meta.ts';
import { listObjects } from '../../store/objects.ts';
import type { World } from '../../store/world.ts';
import { forEachStoredByStep, resourcesChangedByStep } from './changedObjects.ts';
import type { Checker } from './types.ts';

function problemsOf(resource: string, obj: KubeObject, after: World, problems: string[]): void {
  const rv = Number(obj.metadata.resourceVersion);
  if (!(rv > 0 && rv <= after.revision)) problems.push(`${resource} ${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''} has resourceVersion ${obj.metadata.resourceVersion}`);
  if ((obj.metadata.uid ?? '') === '') problems.push(`${resource} ${obj.metadata.name ?? ''} has no uid`);
}

export const storeKeysMatch: Checker = {
  name: 'store-keys-match',
  check(_before, after) {
    const problems: string[] = [];
    for (const resource of Object.keys(after.objects).sort()) for (const obj of listObjects(after, resource, null)) problemsOf(resource, obj, after, problems);
    return problems;
  },
  checkStep(before, after) {
    // Objects a step left alone keep their resourceVersion under the revision only if it did not go back.
    if (after.revision < before.revision) return storeKeysMatch.check(before, after);
    const problems: string[] = [];
    for (const resource of resourcesChangedByStep(before, after)) forEachStoredByStep(before, after, resource, (obj) => problemsOf(resource, obj, after, problems));
    return problems;
  },
};
