/**
 * Reading and writing stored objects by resource, namespace and name. No resourceVersion or
 * log bookkeeping here (commit.ts does that); lists come back in storage-key order
 * (`namespace/name`), which is the order real list responses have.
 */
import type { KubeObject } from '../api/meta.ts';
import { compareKeys, emptyTrie, trieAsWritten, trieDelete, trieGet, trieIsEmpty, trieSet, trieSortedKeys, trieSortedValues, type Trie } from './trie.ts';
import { worldWith, type World } from './world.ts';
import { getOwn, setOwn, withEntry } from '../core/json.ts';

export function getObject(world: World, resource: string, namespace: string, name: string): KubeObject | undefined {
  const byNs = world.objects[resource];
  if (byNs === undefined) return undefined;
  const byName = trieGet(byNs, namespace);
  return byName === undefined ? undefined : trieGet(byName, name);
}

export function putObject(world: World, resource: string, namespace: string, name: string, object: KubeObject): World {
  return worldWith(world, { objects: objectsWith(world.objects, resource, namespace, name, object) });
}

export function removeObject(world: World, resource: string, namespace: string, name: string): World {
  const objects = objectsWithout(world.objects, resource, namespace, name);
  return objects === world.objects ? world : worldWith(world, { objects });
}

/** The stores of every resource with one object put (commit.ts builds its world once from it). */
export function objectsWith(objects: World['objects'], resource: string, namespace: string, name: string, object: KubeObject): World['objects'] {
  const byNs = objects[resource] ?? emptyTrie;
  const byName = trieGet(byNs, namespace) ?? emptyTrie;
  return withEntry(objects, resource, trieSet(byNs, namespace, trieSet(byName, name, object)));
}

/** The stores of every resource with one object removed (the same stores when it was absent). */
export function objectsWithout(objects: World['objects'], resource: string, namespace: string, name: string): World['objects'] {
  const byNs = objects[resource];
  if (byNs === undefined) return objects;
  const byName = trieGet(byNs, namespace);
  if (byName === undefined) return objects;
  const rest = trieDelete(byName, name);
  const nextNs = trieIsEmpty(rest) ? trieDelete(byNs, namespace) : trieSet(byNs, namespace, rest);
  return withEntry(objects, resource, nextNs);
}

/** Objects of one namespace (or all namespaces when `namespace` is null), in key order. */
export function listObjects(world: World, resource: string, namespace: string | null): KubeObject[] {
  const byNs: Trie<Trie<KubeObject>> = world.objects[resource] ?? emptyTrie;
  if (namespace !== null) {
    const byName = trieGet(byNs, namespace);
    return byName === undefined ? [] : trieSortedValues(byName).slice();
  }
  const out: KubeObject[] = [];
  for (const ns of namespacesInKeyOrder(byNs)) {
    const byName = trieGet(byNs, ns);
    if (byName === undefined) continue;
    for (const object of trieSortedValues(byName)) out.push(object);
  }
  return out;
}

/** Namespace orders by namespace trie (stored tries never change). */
const namespaceOrders = new WeakMap<object, readonly string[]>();

/**
 * The namespaces of a resource in storage-key order: sorted by `ns/`, so that `a-b/x` comes
 * before `a/x` as etcd's keys do. Worked out once per version of the namespace trie.
 */
export function namespacesInKeyOrder(byNs: Trie<Trie<KubeObject>>): readonly string[] {
  let order = namespaceOrders.get(byNs);
  if (order === undefined) {
    order = [...trieSortedKeys(byNs)].sort((x, y) => compareKeys(`${x}/`, `${y}/`));
    namespaceOrders.set(byNs, order);
  }
  return order;
}

/** Storage key of an object below its resource prefix: `ns/name`, or `name` when cluster-scoped. */
export function storageKey(namespace: string, name: string): string {
  return namespace === '' ? name : `${namespace}/${name}`;
}

export function compareStorageKeys(a: KubeObject, b: KubeObject): number {
  return compareKeys(storageKey(a.metadata.namespace ?? '', a.metadata.name ?? ''), storageKey(b.metadata.namespace ?? '', b.metadata.name ?? ''));
}

/** Number of objects of a resource across namespaces. */
export function countObjects(world: World, resource: string): number {
  const byNs: Trie<Trie<KubeObject>> = world.objects[resource] ?? emptyTrie;
  let n = 0;
  for (const ns of trieSortedKeys(byNs)) n += trieSortedKeys(trieGet(byNs, ns)!).length;
  return n;
}

/**
 * A world read from JSON (a snapshot, the bootstrap template) with its stores and owner index as
 * writes make them (trie.ts `trieAsWritten`): the same world, JSON and digest, faster to read.
 */
export function storesAsWritten(world: World): World {
  const objects: Record<string, Trie<Trie<KubeObject>>> = {};
  for (const resource of Object.keys(world.objects)) setOwn(objects, resource, trieAsWritten(getOwn(world.objects, resource)!, (byName) => trieAsWritten(byName)));
  return worldWith(world, { objects, owners: trieAsWritten(world.owners, (dependents) => trieAsWritten(dependents)) });
}
