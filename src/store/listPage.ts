/**
 * One page of a list, at a revision, from a key on: what a paged list (`limit`, `continue`) reads.
 * It costs the page, a binary search per namespace and the changes made since the revision —
 * not the store: the latest objects are walked from the start key in each namespace's key order
 * (kept per stored trie, store/trie.ts), and an older revision is read by laying the state before
 * each later change (from the history) over them, as etcd reads a past revision.
 *
 * A single object is read at a revision the same way (`objectAt`: a lagging cache's GET).
 *
 * Keys are the list's keys: `name` within one namespace, `namespace/name` across namespaces; the
 * order is code-unit order of those keys, the order real list responses have.
 */
import type { KubeObject } from '../api/meta.ts';
import { entriesAfter, oldestLogRevision } from './history.ts';
import { getObject, namespacesInKeyOrder, storageKey } from './objects.ts';
import { compareKeys, emptyTrie, trieGet, trieSortedKeys, trieSortedValues, type Trie } from './trie.ts';
import type { World } from './world.ts';
import { lowerBound } from '../core/lowerBound.ts';

export interface PageRequest {
  /** The first key to include (a continue token's start); absent: from the beginning. */
  readonly start?: string;
  /** Most items to return; 0: all. */
  readonly limit: number;
  readonly filter?: (obj: KubeObject) => boolean;
  /** Count the items after the page (unfiltered lists report remainingItemCount). */
  readonly countRemaining: boolean;
}

export interface Page {
  readonly items: readonly KubeObject[];
  /** Whether a further item (matching the filter) follows the page. */
  readonly more: boolean;
  /** Items after the page (only when asked to count and there are more). */
  readonly remaining?: number;
}

/** One namespace's objects in key order: sorted keys, values in the same order, the prefix of its list keys. */
interface Run {
  readonly prefix: string;
  readonly keys: readonly string[];
  readonly values: readonly KubeObject[];
  /** Index of the first key at or after the start. */
  readonly from: number;
}

/** The namespaces a list covers, in list-key order, each with its run from `start` on. */
function runs(world: World, resource: string, namespace: string | null, start: string): Run[] {
  const byNs: Trie<Trie<KubeObject>> = world.objects[resource] ?? emptyTrie;
  const run = (ns: string, prefix: string, from: (keys: readonly string[]) => number): Run | null => {
    const byName = trieGet(byNs, ns);
    if (byName === undefined) return null;
    const keys = trieSortedKeys(byName);
    return { prefix, keys, values: trieSortedValues(byName), from: from(keys) };
  };
  if (namespace !== null) {
    const r = run(namespace, '', (keys) => lowerBound(keys, start));
    return r === null ? [] : [r];
  }
  // Across namespaces the key is `ns/name`: order the namespaces by `ns/`, then skip those whose
  // keys all sort before the start and search inside the one the start falls in.
  const out: Run[] = [];
  for (const ns of namespacesInKeyOrder(byNs)) {
    const prefix = ns === '' ? '' : `${ns}/`;
    let r: Run | null;
    if (prefix === '' || start.startsWith(prefix)) r = run(ns, prefix, (keys) => lowerBound(keys, start.slice(prefix.length)));
    else if (prefix > start) r = run(ns, prefix, () => 0);
    else r = null;
    if (r !== null) out.push(r);
  }
  return out;
}

/**
 * The state at `at` of every key of the list changed after it, in key order: the object as it was
 * then, or null when it did not exist yet.
 */
function changedSince(world: World, resource: string, namespace: string | null, at: number): Map<string, KubeObject | null> {
  const before = new Map<string, KubeObject | null>();
  if (at >= world.revision) return before;
  for (const e of entriesAfter(world.log, at, resource)) {
    if (namespace !== null && e.namespace !== namespace) continue;
    const key = namespace === null ? storageKey(e.namespace, e.name) : e.name;
    // The first change after `at` tells what was there at `at`.
    if (!before.has(key)) before.set(key, e.type === 'ADDED' ? null : e.prev);
  }
  return before;
}

/** The items of a list at `at` from `start` on, merged from the latest runs and the older states. */
function* itemsAt(rs: readonly Run[], older: ReadonlyMap<string, KubeObject | null>, start: string): Generator<readonly [string, KubeObject]> {
  const olderKeys = [...older.keys()].filter((k) => k >= start).sort(compareKeys);
  let o = 0;
  for (const r of rs) {
    for (let i = r.from; i < r.keys.length; i++) {
      const key = r.prefix + r.keys[i]!;
      for (; o < olderKeys.length && olderKeys[o]! < key; o++) {
        const was = older.get(olderKeys[o]!)!;
        if (was !== null) yield [olderKeys[o]!, was];
      }
      if (older.has(key)) continue;
      yield [key, r.values[i]!];
    }
  }
  for (; o < olderKeys.length; o++) {
    const was = older.get(olderKeys[o]!)!;
    if (was !== null) yield [olderKeys[o]!, was];
  }
}

/** How many items the list has at `at` from `start` on, without walking them. */
function countAt(rs: readonly Run[], older: ReadonlyMap<string, KubeObject | null>, world: World, resource: string, namespace: string | null, start: string): number {
  let n = 0;
  for (const r of rs) n += r.keys.length - r.from;
  for (const [key, was] of older) {
    if (key < start) continue;
    const slash = namespace === null ? key.indexOf('/') : -1;
    const exists = slash < 0 ? existsNow(world, resource, namespace ?? '', key) : existsNow(world, resource, key.slice(0, slash), key.slice(slash + 1));
    n += (was !== null ? 1 : 0) - (exists ? 1 : 0);
  }
  return n;
}

function existsNow(world: World, resource: string, namespace: string, name: string): boolean {
  const byName = trieGet(world.objects[resource] ?? emptyTrie, namespace);
  return byName !== undefined && trieGet(byName, name) !== undefined;
}

/**
 * The oldest revision the log can still answer reads at: every change after it is in the log and
 * it is not compacted. Older starts are refused with 410; a stale read is clamped to it.
 */
export function oldestReadableRevision(world: World): number {
  return Math.max(world.compactedRevision, (oldestLogRevision(world.log) ?? world.revision + 1) - 1);
}

/**
 * One object as it was at `at` (at least `oldestReadableRevision`), or undefined when it did not
 * exist then: the first change after `at` holds the state before it, as in `changedSince`.
 */
export function objectAt(world: World, resource: string, namespace: string, name: string, at: number): KubeObject | undefined {
  if (at < world.revision) {
    for (const e of entriesAfter(world.log, at, resource)) if (e.namespace === namespace && e.name === name) return e.type === 'ADDED' ? undefined : (e.prev ?? undefined);
  }
  return getObject(world, resource, namespace, name);
}

export function listPage(world: World, resource: string, namespace: string | null, at: number, req: PageRequest): Page {
  const start = req.start ?? '';
  const rs = runs(world, resource, namespace, start);
  const older = changedSince(world, resource, namespace, at);
  const items: KubeObject[] = [];
  let seen = 0;
  let more = false;
  for (const [, obj] of itemsAt(rs, older, start)) {
    seen++;
    if (req.filter !== undefined && !req.filter(obj)) continue;
    if (req.limit > 0 && items.length === req.limit) {
      more = true;
      break;
    }
    items.push(obj);
  }
  if (!more || !req.countRemaining) return { items, more };
  return { items, more, remaining: countAt(rs, older, world, resource, namespace, start) - (seen - 1) };
}
