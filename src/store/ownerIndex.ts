/**
 * Owner index: owner uid → dependents (`resource|namespace|name`). Kept current on every commit
 * so that the garbage collector finds an owner's dependents without scanning the store. Each
 * owner's dependents are a trie of their own, so that adding or removing one of a StatefulSet's
 * 1,000 pods copies small containers, not the whole set.
 */
import type { KubeObject } from '../api/meta.ts';
import { emptyTrie, trieDelete, trieGet, trieIsEmpty, trieSet, trieSortedKeys, type Trie } from './trie.ts';

export type OwnerIndex = Trie<Trie<true>>;

export interface DependentRef {
  readonly resource: string;
  readonly namespace: string;
  readonly name: string;
}

export function dependentKey(resource: string, namespace: string, name: string): string {
  return `${resource}|${namespace}|${name}`;
}

/** Parsed keys, shared (frozen): the garbage collector parses an owner's dependents at every change. */
const parsed = new Map<string, DependentRef>();
const parsedMax = 100_000;

export function parseDependentKey(key: string): DependentRef {
  let ref = parsed.get(key);
  if (ref === undefined) {
    const [resource = '', namespace = '', name = ''] = key.split('|');
    ref = Object.freeze({ resource, namespace, name });
    if (parsed.size >= parsedMax) parsed.clear();
    parsed.set(key, ref);
  }
  return ref;
}

function ownerUids(obj: KubeObject | null): string[] {
  return (obj?.metadata.ownerReferences ?? []).map((r) => r.uid).filter((u) => typeof u === 'string' && u !== '');
}

export function updateOwnerIndex(index: OwnerIndex, resource: string, prev: KubeObject | null, next: KubeObject | null): OwnerIndex {
  // Most objects have no owner: nothing to index, and no lists made to find that out.
  if (prev?.metadata.ownerReferences === undefined && next?.metadata.ownerReferences === undefined) return index;
  const before = ownerUids(prev);
  const after = ownerUids(next);
  if (before.length === 0 && after.length === 0) return index;
  const obj = next ?? prev!;
  const key = dependentKey(resource, obj.metadata.namespace ?? '', obj.metadata.name ?? '');
  let out = index;
  for (const uid of before) {
    if (after.includes(uid)) continue;
    const deps = trieGet(out, uid);
    if (deps === undefined) continue;
    const rest = trieDelete(deps, key);
    if (rest === deps) continue;
    out = trieIsEmpty(rest) ? trieDelete(out, uid) : trieSet(out, uid, rest);
  }
  for (const uid of after) {
    const deps: Trie<true> = trieGet(out, uid) ?? emptyTrie;
    if (trieGet(deps, key) === true) continue;
    out = trieSet(out, uid, trieSet(deps, key, true as const));
  }
  return out;
}

/** Dependents of an owner, sorted. */
export function dependentsOf(index: OwnerIndex, ownerUid: string): string[] {
  // No owner has dependents (a cluster of accounts and requests): no uid to hash.
  if (index === emptyTrie) return [];
  const deps = trieGet(index, ownerUid);
  return deps === undefined ? [] : [...trieSortedKeys(deps)];
}
