/**
 * Owner index: owner uid → dependents (`resource|namespace|name`). Kept current on every commit
 * so that the garbage collector finds an owner's dependents without scanning the store.
 */
import type { KubeObject } from '../api/meta.ts';
import { trieDelete, trieGet, trieSet, type Trie } from './trie.ts';

export type OwnerIndex = Trie<Readonly<Record<string, true>>>;

export function dependentKey(resource: string, namespace: string, name: string): string {
  return `${resource}|${namespace}|${name}`;
}

export function parseDependentKey(key: string): { resource: string; namespace: string; name: string } {
  const [resource = '', namespace = '', name = ''] = key.split('|');
  return { resource, namespace, name };
}

function ownerUids(obj: KubeObject | null): string[] {
  return (obj?.metadata.ownerReferences ?? []).map((r) => r.uid).filter((u) => typeof u === 'string' && u !== '');
}

export function updateOwnerIndex(index: OwnerIndex, resource: string, prev: KubeObject | null, next: KubeObject | null): OwnerIndex {
  const before = ownerUids(prev);
  const after = ownerUids(next);
  if (before.length === 0 && after.length === 0) return index;
  const obj = next ?? prev!;
  const key = dependentKey(resource, obj.metadata.namespace ?? '', obj.metadata.name ?? '');
  let out = index;
  for (const uid of before) {
    if (after.includes(uid)) continue;
    const deps = { ...(trieGet(out, uid) ?? {}) };
    delete deps[key];
    out = Object.keys(deps).length === 0 ? trieDelete(out, uid) : trieSet(out, uid, deps);
  }
  for (const uid of after) {
    const deps = trieGet(out, uid) ?? {};
    if (deps[key] === true) continue;
    out = trieSet(out, uid, { ...deps, [key]: true as const });
  }
  return out;
}

/** Dependents of an owner, sorted. */
export function dependentsOf(index: OwnerIndex, ownerUid: string): string[] {
  const deps = trieGet(index, ownerUid);
  return deps === undefined ? [] : Object.keys(deps).sort();
}

