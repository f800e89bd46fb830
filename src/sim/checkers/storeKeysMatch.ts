/** Every stored object sits under its own namespace and name, with a resourceVersion not beyond the revision. */
import { listObjects } from '../../store/objects.ts';
import type { Checker } from './types.ts';

export const storeKeysMatch: Checker = {
  name: 'store-keys-match',
  check(_before, after) {
    const problems: string[] = [];
    for (const resource of Object.keys(after.objects).sort()) {
      for (const obj of listObjects(after, resource, null)) {
        const rv = Number(obj.metadata.resourceVersion);
        if (!(rv > 0 && rv <= after.revision)) problems.push(`${resource} ${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''} has resourceVersion ${obj.metadata.resourceVersion}`);
        if ((obj.metadata.uid ?? '') === '') problems.push(`${resource} ${obj.metadata.name ?? ''} has no uid`);
      }
    }
    return problems;
  },
};
