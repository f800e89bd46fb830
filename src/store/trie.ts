/**
 * A persistent hashed map of plain objects: key → value in a two-level trie with fan-out 64.
 * A write copies at most the root (≤64 entries), one branch (≤64) and one leaf (keys whose hash
 * shares 12 bits: ~25 at 100k entries), so one-object updates stay fast however many objects
 * are stored, while the whole thing stays plain JSON for snapshots and hashing.
 * Keys are read with own-property checks only; containers never use prototypes.
 */
import { hasOwn } from '../core/json.ts';
import { lowerBound } from '../core/lowerBound.ts';

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

/** The 64 slot names of a root or branch, made once: listing or naming slots allocates nothing. */
const slotNames: readonly string[] = Array.from({ length: 64 }, (_, i) => String(i));

function slots(key: string): [string, string] {
  const h = hash(key);
  return [slotNames[h & 63]!, slotNames[(h >>> 6) & 63]!];
}

export function trieGet<T>(trie: Trie<T>, key: string): T | undefined {
  const h = hash(key);
  const a = slotNames[h & 63]!;
  const b = slotNames[(h >>> 6) & 63]!;
  if (!hasOwn(trie, a)) return undefined;
  const branch = trie[a]!;
  if (!hasOwn(branch, b)) return undefined;
  const leaf = branch[b]!;
  return hasOwn(leaf, key) ? leaf[key] : undefined;
}

/** An own data property whatever the key (`__proto__` included); plain assignment otherwise, which is faster. */
function put<V>(out: { [k: string]: V }, key: string, value: V): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
  else out[key] = value;
}

/** The own keys of a container: the slot names present, for a root or branch (no key list made). */
function eachKey(container: object, slotted: boolean, f: (k: string) => void): void {
  if (!slotted) {
    for (const k of Object.keys(container)) f(k);
    return;
  }
  for (const k of slotNames) if (hasOwn(container, k)) f(k);
}

function withKey<V>(container: { readonly [k: string]: V }, key: string, value: V, slotted = false): { readonly [k: string]: V } {
  const out: { [k: string]: V } = {};
  eachKey(container, slotted, (k) => put(out, k, container[k]!));
  put(out, key, value);
  return out;
}

function withoutKey<V>(container: { readonly [k: string]: V }, key: string, slotted = false): { readonly [k: string]: V } {
  const out: { [k: string]: V } = {};
  eachKey(container, slotted, (k) => {
    if (k !== key) put(out, k, container[k]!);
  });
  return out;
}

export function trieSet<T>(trie: Trie<T>, key: string, value: T): Trie<T> {
  const [a, b] = slots(key);
  const branch: Branch<T> = hasOwn(trie, a) ? trie[a]! : {};
  const leaf: Leaf<T> = hasOwn(branch, b) ? branch[b]! : {};
  const out = withKey(trie, a, withKey(branch, b, withKey(leaf, key, value), true), true);
  inherit(trie, out, { key, before: hasOwn(leaf, key), after: true, value });
  return out;
}

export function trieDelete<T>(trie: Trie<T>, key: string): Trie<T> {
  const [a, b] = slots(key);
  if (!hasOwn(trie, a)) return trie;
  const branch = trie[a]!;
  if (!hasOwn(branch, b) || !hasOwn(branch[b]!, key)) return trie;
  const leaf = withoutKey(branch[b]!, key);
  const newBranch = isEmpty(leaf) ? withoutKey(branch, b, true) : withKey(branch, b, leaf, true);
  const out = isEmpty(newBranch) ? withoutKey(trie, a, true) : withKey(trie, a, newBranch, true);
  inherit(trie, out, { key, before: true, after: false, value: undefined });
  return out;
}

export function trieIsEmpty<T>(trie: Trie<T>): boolean {
  return isEmpty(trie);
}

function isEmpty(container: object): boolean {
  for (const k in container) if (hasOwn(container, k)) return false;
  return true;
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

// Key order and values in key order, memoised per immutable trie. A trie written a few times since
// one whose order is known derives its own from that one's instead of sorting again: lists of a
// resource written between listings (a controller's pods, events) cost a copy, not a sort.
const sortedKeysCache = new WeakMap<object, readonly string[]>();
const sortedValuesCache = new WeakMap<object, readonly unknown[]>();

/** One write: the key, whether it was there before and after, and the value written. */
interface Edit {
  readonly key: string;
  readonly before: boolean;
  readonly after: boolean;
  readonly value: unknown;
}

/** The writes (in order) that made a trie from `base`, whose key order is known. */
interface Lineage {
  readonly base: object;
  readonly edits: readonly Edit[];
}

const lineages = new WeakMap<object, Lineage>();
/** Beyond this many writes since the last listing, sorting again is as cheap. */
const lineageMax = 64;

function inherit(from: object, to: object, edit: Edit): void {
  if (sortedKeysCache.has(from)) {
    lineages.set(to, { base: from, edits: [edit] });
    return;
  }
  const l = lineages.get(from);
  if (l !== undefined && l.edits.length < lineageMax) lineages.set(to, { base: l.base, edits: [...l.edits, edit] });
}

/**
 * Key order (and values in key order, when the base's are known) from the lineage: the base's
 * copied, keys that went removed and keys that came inserted at their places, values rewritten.
 */
function derive(l: Lineage): { keys: readonly string[]; values: unknown[] | undefined } {
  const baseKeys = sortedKeysCache.get(l.base)!;
  const baseValues = sortedValuesCache.get(l.base);
  const was = new Map<string, boolean>();
  const last = new Map<string, Edit>();
  for (const e of l.edits) {
    if (!was.has(e.key)) was.set(e.key, e.before);
    last.set(e.key, e);
  }
  // Splices against the base, applied from the highest index down (removal before insertion
  // at one index, insertions at one index in descending key order) so that indices stay valid.
  const ops: { at: number; key: string; insert: boolean }[] = [];
  for (const [key, e] of last) {
    const before = was.get(key)!;
    if (before && !e.after) ops.push({ at: lowerBound(baseKeys, key), key, insert: false });
    else if (!before && e.after) ops.push({ at: lowerBound(baseKeys, key), key, insert: true });
  }
  ops.sort((x, y) => y.at - x.at || Number(x.insert) - Number(y.insert) || compareKeys(y.key, x.key));
  const keys = ops.length === 0 ? baseKeys : baseKeys.slice();
  const values = baseValues === undefined ? undefined : baseValues.slice();
  for (const op of ops) {
    if (op.insert) {
      (keys as string[]).splice(op.at, 0, op.key);
      values?.splice(op.at, 0, last.get(op.key)!.value);
    } else {
      (keys as string[]).splice(op.at, 1);
      values?.splice(op.at, 1);
    }
  }
  if (values !== undefined) {
    for (const [key, e] of last) if (was.get(key)! && e.after) values[lowerBound(keys, key)] = e.value;
  }
  return { keys, values };
}

/** Keys in code-unit order (storage-key order, as etcd). Memoised per immutable trie. */
export function trieSortedKeys<T>(trie: Trie<T>): readonly string[] {
  let keys = sortedKeysCache.get(trie);
  if (keys === undefined) {
    const l = lineages.get(trie);
    if (l === undefined) keys = trieKeys(trie).sort(compareKeys);
    else {
      const d = derive(l);
      keys = d.keys;
      if (d.values !== undefined) sortedValuesCache.set(trie, d.values);
      lineages.delete(trie);
    }
    sortedKeysCache.set(trie, keys);
  }
  return keys;
}

/** Values in key order (as `trieSortedKeys`). Memoised per immutable trie: do not mutate. */
export function trieSortedValues<T>(trie: Trie<T>): readonly T[] {
  let values = sortedValuesCache.get(trie) as readonly T[] | undefined;
  if (values === undefined) {
    const keys = trieSortedKeys(trie);
    values = sortedValuesCache.get(trie) as readonly T[] | undefined;
    if (values === undefined) {
      const out = new Array<T>(keys.length);
      for (let i = 0; i < keys.length; i++) out[i] = trieGet(trie, keys[i]!)!;
      values = out;
      sortedValuesCache.set(trie, values);
    }
  }
  return values;
}

export function compareKeys(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Every key whose value differs between two versions of a trie, with both values (undefined where
 * absent), in no particular order. Versions that share structure (one written from the other)
 * cost the change: equal slots are skipped by identity, so a one-object write between them is a
 * walk of one branch and one leaf. Unrelated tries cost both their sizes. Values are compared by
 * identity, which is equality for stored objects (a stored version never changes).
 */
export function trieChanges<T>(before: Trie<T>, after: Trie<T>, visit: (key: string, before: T | undefined, after: T | undefined) => void): void {
  if (before === after) return;
  diffSlots(before, after, (b, a) =>
    diffSlots(b ?? {}, a ?? {}, (lb, la) =>
      diffLeaves(lb ?? {}, la ?? {}, (vb, va, key) => {
        if (vb !== va) visit(key, vb, va);
      }),
    ),
  );
}

/** The slots of two roots (or branches) that do not hold the same object. */
function diffSlots<V>(x: { readonly [k: string]: V }, y: { readonly [k: string]: V }, onDiffering: (b: V | undefined, a: V | undefined) => void): void {
  if (x === y) return;
  for (const k of slotNames) {
    const b = hasOwn(x, k) ? x[k] : undefined;
    const a = hasOwn(y, k) ? y[k] : undefined;
    if (a !== b) onDiffering(b, a);
  }
}

/** The entries of two leaves that are not the same value, each key once. */
function diffLeaves<V>(x: { readonly [k: string]: V }, y: { readonly [k: string]: V }, onDiffering: (b: V | undefined, a: V | undefined, key: string) => void): void {
  if (x === y) return;
  for (const k of Object.keys(x)) {
    const a = hasOwn(y, k) ? y[k] : undefined;
    if (a !== x[k]) onDiffering(x[k], a, k);
  }
  for (const k of Object.keys(y)) if (!hasOwn(x, k)) onDiffering(undefined, y[k], k);
}
