/**
 * Duplicate owner references, as the API server's handlers treat them (apiserver
 * pkg/endpoints/handlers/rest.go dedupOwnerReferencesAndAddWarning): an entry equal in every
 * field to an earlier one is dropped and the request gets a warning naming the duplicate uids.
 * Entries that share a uid but differ in another field are kept. Create and update dedup the
 * body as decoded; a patch dedups its result after (mutating) admission, with that wording.
 */
import type { KubeObject, OwnerReference } from '../../api/meta.ts';
import { deepEqual } from '../../core/json.ts';

const advice = 'API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed:';

export function duplicateOwnerReferencesWarning(uids: readonly string[], afterMutatingAdmission: boolean): string {
  const what = afterMutatingAdmission ? 'contains duplicate entries after mutating admission happens' : 'contains duplicate entries';
  return `.metadata.ownerReferences ${what}; ${advice} ${uids.join(', ')}`;
}

export interface Deduped {
  readonly object: KubeObject;
  readonly warnings: readonly string[];
}

export function dedupOwnerReferences(obj: KubeObject, afterMutatingAdmission: boolean): Deduped {
  const refs = obj.metadata.ownerReferences;
  if (refs === undefined || refs.length < 2) return { object: obj, warnings: [] };
  const kept: OwnerReference[] = [];
  const duplicates: string[] = [];
  for (const ref of refs) {
    if (kept.some((k) => k.uid === ref.uid && deepEqual(k, ref))) duplicates.push(ref.uid ?? '');
    else kept.push(ref);
  }
  if (duplicates.length === 0) return { object: obj, warnings: [] };
  return { object: { ...obj, metadata: { ...obj.metadata, ownerReferences: kept } }, warnings: [duplicateOwnerReferencesWarning(duplicates, afterMutatingAdmission)] };
}
