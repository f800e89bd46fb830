/**
 * Capping Update owners: past `limits.updateManagersMax`, the oldest fold into `ancient-changes`.
 *
 * Rules this file keeps:
 * - Only Update owners count and fold; Apply owners are never touched.
 * - Owners of distinct apiVersions are never folded together (one bucket per apiVersion), so
 *   the cap may not be reached, as upstream.
 * Must not know: objects, requests, how owners are encoded.
 */
import { limits } from '../../core/limits.ts';
import { union } from './fieldSet.ts';
import { ownerId, ownerTimeSeconds, type Owner } from './owners.ts';

export const ancientChangesManager = 'ancient-changes';

/**
 * Keeps at most `max` Update owners. Oldest first (time, then identifier), the first owner seen
 * for an apiVersion stays; each later one of that version is folded into the version's
 * `ancient-changes` bucket (the first one moving in with it when the bucket is new), until the
 * count fits. The bucket takes the time of the owner folded in last. Owners of distinct
 * apiVersions are never folded together, so the cap may not be reached (as upstream).
 */
export function capUpdateOwners(owners: Map<string, Owner>, max: number = limits.updateManagersMax): Map<string, Owner> {
  const updaters = [...owners.entries()].filter(([, o]) => o.operation === 'Update');
  if (updaters.length <= max) return owners;
  updaters.sort(([ia, a], [ib, b]) => ownerTimeSeconds(a.time) - ownerTimeSeconds(b.time) || (ia < ib ? -1 : ia > ib ? 1 : 0));
  const out = new Map(owners);
  const firstOfVersion = new Map<string, string>();
  let count = updaters.length;
  for (const [id, o] of updaters) {
    if (count <= max) break;
    const first = firstOfVersion.get(o.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(o.apiVersion, id);
      continue;
    }
    const bucketId = ownerId({ manager: ancientChangesManager, operation: 'Update', apiVersion: o.apiVersion, subresource: '' });
    // Upstream would fold the bucket into itself and lose it; it is already where folds go.
    if (id === bucketId) continue;
    let bucket = out.get(bucketId);
    if (bucket === undefined) {
      bucket = { ...out.get(first)!, manager: ancientChangesManager, subresource: '' };
      out.delete(first);
    }
    const { time: _previousTime, ...rest } = bucket;
    const merged: Owner = { ...rest, fields: union(o.fields, bucket.fields), ...(o.time === undefined ? {} : { time: o.time }) };
    out.delete(id);
    out.set(bucketId, merged);
    count--;
  }
  return out;
}
