/**
 * A persistent hashed map of plain objects: key → value in a two-level trie with fan-out 64.
 * A write copies at most the root (≤64 entries), one branch (≤64) and one leaf (keys whose hash
 * shares 12 bits: ~25 at 100k entries), so one-object updates stay fast however many objects
 * are stored, while the whole thing stays plain JSON for snapshots and hashing.
 * Keys are read with own-property checks only; containers never use prototypes.
 */
import { hasOwn } from '../core/json.ts';

export type Leaf<T> = { readonly [key: string]: T };
export type Branch<T> = { readonly [slot: string]: Leaf<T> };
export type Trie<T> = { readonly [slot: string]: Branch<T> };

export const emptyTrie: Trie<never> = Object.freeze({});

/** FNV-1a, 32 bit: cheap and stable across platforms. */
function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function slots(key: string): [string, string] {
  const h = hash(key);
  return [String(h & 63), String((h >>> 6) & 63)];
}

export function trieGet<T>(trie: Trie<T>, key: string): T | undefined {
  const [a, b] = slots(key);
  if (!hasOwn(trie, a)) return undefined;
  const branch = trie[a]!;
  if (!hasOwn(branch, b)) return undefined;
  const leaf = branch[b]!;
  return hasOwn(leaf, key) ? leaf[key] : undefined;
}

function withKey<V>(container: { readonly [k: string]: V }, key: string, value: V): { readonly [k: string]: V } {
  const out: { [k: string]: V } = {};
  for (const k of Object.keys(container)) out[k] = container[k]!;
  Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
  return out;
}

function withoutKey<V>(container: { readonly [k: string]: V }, key: string): { readonly [k: string]: V } {
  const out: { [k: string]: V } = {};
  for (const k of Object.keys(container)) if (k !== key) out[k] = container[k]!;
  return out;
}

export function trieSet<T>(trie: Trie<T>, key: string, value: T): Trie<T> {
  const [a, b] = slots(key);
  const branch: Branch<T> = hasOwn(trie, a) ? trie[a]! : {};
  const leaf: Leaf<T> = hasOwn(branch, b) ? branch[b]! : {};
  return withKey(trie, a, withKey(branch, b, withKey(leaf, key, value)));
}

export function trieDelete<T>(trie: Trie<T>, key: string): Trie<T> {
  const [a, b] = slots(key);
  if (!hasOwn(trie, a)) return trie;
  const branch = trie[a]!;
  if (!hasOwn(branch, b) || !hasOwn(branch[b]!, key)) return trie;
  const leaf = withoutKey(branch[b]!, key);
  const newBranch = Object.keys(leaf).length === 0 ? withoutKey(branch, b) : withKey(branch, b, leaf);
  return Object.keys(newBranch).length === 0 ? withoutKey(trie, a) : withKey(trie, a, newBranch);
}

export function trieIsEmpty<T>(trie: Trie<T>): boolean {
  return Object.keys(trie).length === 0;
}

/** Every key, unsorted (callers sort: iteration order must never leak). */
export function trieKeys<T>(trie: Trie<T>): string[] {
  const out: string[] = [];
  for (const a of Object.keys(trie)) {
    const branch = trie[a]!;
    for (const b of Object.keys(branch)) out.push(...Object.keys(branch[b]!));
  }
  return out;
}

const sortedKeysCache = new WeakMap<object, readonly string[]>();

/** Keys in code-unit order (storage-key order, as etcd). Memoised per immutable trie. */
export function trieSortedKeys<T>(trie: Trie<T>): readonly string[] {
  let keys = sortedKeysCache.get(trie);
  if (keys === undefined) {
    keys = trieKeys(trie).sort(compareKeys);
    sortedKeysCache.set(trie, keys);
  }
  return keys;
}

export function compareKeys(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}
