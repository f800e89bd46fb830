/**
 * A persistent hashed map of plain objects: key → value in a trie of three slot levels with
 * fan-out 64 above the leaves. A write copies one container per level (≤ 64 slots each, the slot
 * names 0–63) and one leaf (keys whose hash shares 18 bits: mostly one, still one or two at
 * 100,000 entries), so one-object updates stay fast however many objects are stored, while the
 * whole thing stays plain JSON for snapshots and hashing. Leaves hold few keys on purpose: an
 * object with many arbitrary keys is slow to copy (each new key set is a new hidden class).
 * Worlds saved with the two-level tries of format world@1 are read through store/upgrade.ts.
 * Keys are read with own-property checks only; containers never use prototypes.
 */
import { hasOwn } from '../core/json.ts';
import { lowerBound } from '../core/lowerBound.ts';

export type Leaf<T> = { readonly [key: string]: T };
/** A slot level: slot name → the next level, or at the last level a leaf. */
export interface Trie<T> {
  readonly [slot: string]: Trie<T> | Leaf<T>;
}

export const emptyTrie: Trie<never> = Object.freeze({});

/** Slot levels above the leaves. */
const levels = 3;

type Node = { readonly [k: string]: unknown };
/** A slot level indexed by slot number. */
type Slots = { readonly [slot: number]: Node | undefined };

/** FNV-1a, 32 bit: cheap and stable across platforms. */
function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The 64 slot names of a level, made once: listing or naming slots allocates nothing. */
const slotNames: readonly string[] = Array.from({ length: 64 }, (_, i) => String(i));

/**
 * The slot of a hash at a level, as a number: a level's digit keys are V8 elements, which a
 * number indexes directly (a digit string is converted first: reads took twice as long).
 */
const slotAt = (h: number, level: number): number => (h >>> (6 * level)) & 63;

export function trieGet<T>(trie: Trie<T>, key: string): T | undefined {
  const h = hash(key);
  let node: Node = trie;
  for (let l = 0; l < levels; l++) {
    // Slot names are digits, which no prototype has: a plain read is an own read.
    const child = (node as Slots)[slotAt(h, l)];
    if (child === undefined) return undefined;
    node = child;
  }
  // One lookup: a leaf this module wrote has no prototype, so what it finds is its own; a leaf
  // read back from JSON has one, and what it finds is checked (a key string a request made is
  // looked up in V8's string table by each lookup: a write does a dozen).
  const v = node[key];
  if (v === undefined) return undefined;
  return Object.getPrototypeOf(node) === null || hasOwn(node, key) ? (v as T) : undefined;
}

/** An own data property whatever the key (`__proto__` included); plain assignment otherwise, which is faster. */
function put(out: { [k: string]: unknown }, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
  else out[key] = value;
}

/**
 * Slot levels come in two forms with the same meaning (an absent slot and an undefined one are
 * both empty; JSON and the world digest skip undefined, so both read and hash the same):
 * - full: all 64 slot names in order, empty ones undefined. Every level a write makes is full.
 *   V8 keeps its digit keys as packed elements, which a spread copies as a block: a write copies
 *   three such levels in about a tenth of a microsecond.
 * - sparse: only the slots in use, as JSON.parse makes them (a restored world, the empty trie).
 *   A write makes the level it copies full. Levels were once kept sparse while small; building one
 *   slot by slot made V8 grow its elements store up to the highest slot, once per slot, so even a
 *   one-slot level cost about a third of a microsecond to copy and took as much memory.
 * A full level is known by its last slot name being there (it never loses a key); a sparse level
 * that uses slot 63 is taken for full, which only changes how it is walked.
 */
const lastSlot = slotNames.length - 1;
/** By number, as slots are read: an element lookup. */
const isFull = (level: Node): boolean => lastSlot in level;

/** The children of a slot level, with their slot names. */
function eachSlot(level: Node, f: (slot: string, child: Node) => void): void {
  for (const s of isFull(level) ? slotNames : Object.keys(level)) {
    const child = level[s] as Node | undefined;
    if (child !== undefined) f(s, child);
  }
}

/** The slot level with `slot` holding `child` (undefined: emptied), full (see above). */
function withSlot(level: Node, slot: number, child: Node | undefined): Node {
  if (isFull(level)) {
    const out: { [k: number]: unknown } = { ...level };
    out[slot] = child;
    return out as Node;
  }
  const out: { [k: number]: unknown } = {};
  for (let s = 0; s < slotNames.length; s++) out[s] = s === slot ? child : (level as Slots)[s];
  return out as Node;
}

function isEmptyLevel(level: Node): boolean {
  let empty = true;
  eachSlot(level, () => (empty = false));
  return empty;
}

/**
 * A new leaf, without a prototype. V8 keeps such objects as hash tables from the start, where an
 * ordinary object gets a hidden class per key set: leaves hold arbitrary keys (names, uids), so at
 * 100,000 entries that was 100,000 hidden classes to make, look up and collect, and a write cost
 * twice as much. JSON, the digest and every reader see the same own keys either way (saved worlds
 * read back with ordinary leaves).
 */
function newLeaf(): { [k: string]: unknown } {
  return Object.create(null) as { [k: string]: unknown };
}

function withKey(leaf: Node, key: string, value: unknown): Node {
  const out = newLeaf();
  for (const k of Object.keys(leaf)) put(out, k, leaf[k]);
  put(out, key, value);
  return out;
}

function withoutKey(leaf: Node, key: string): Node {
  const out = newLeaf();
  for (const k of Object.keys(leaf)) if (k !== key) put(out, k, leaf[k]);
  return out;
}

/** The containers from the root down to the leaf of `key` (absent ones as empty), with their slots. */
function pathTo(trie: Node, h: number): { nodes: Node[]; slots: number[]; leaf: Node } {
  const nodes: Node[] = [];
  const slots: number[] = [];
  let node: Node = trie;
  for (let l = 0; l < levels; l++) {
    const s = slotAt(h, l);
    nodes.push(node);
    slots.push(s);
    node = (node as Slots)[s] ?? {};
  }
  return { nodes, slots, leaf: node };
}

export function trieSet<T>(trie: Trie<T>, key: string, value: T): Trie<T> {
  const { nodes, slots, leaf } = pathTo(trie, hash(key));
  let child = withKey(leaf, key, value);
  for (let l = levels - 1; l >= 0; l--) child = withSlot(nodes[l]!, slots[l]!, child);
  const out = child as Trie<T>;
  inherit(trie, out, { key, before: hasOwn(leaf, key), after: true, value });
  noteWrite(trie, out, key);
  return out;
}

export function trieDelete<T>(trie: Trie<T>, key: string): Trie<T> {
  const { nodes, slots, leaf } = pathTo(trie, hash(key));
  if (!hasOwn(leaf, key)) return trie;
  // Containers left empty go too, so that a trie is a function of its keys and values.
  let child: Node = withoutKey(leaf, key);
  let empty = Object.keys(child).length === 0;
  for (let l = levels - 1; l >= 0; l--) {
    child = withSlot(nodes[l]!, slots[l]!, empty ? undefined : child);
    empty = isEmptyLevel(child);
  }
  const out = child as Trie<T>;
  inherit(trie, out, { key, before: true, after: false, value: undefined });
  noteWrite(trie, out, key);
  return out;
}

/**
 * The same trie (same keys, values, JSON and digest) with its containers as writes make them:
 * every slot level full, every leaf without a prototype. A trie read from JSON has sparse levels,
 * some of which V8 keeps as dictionaries, and ordinary leaves; lookups that meet both kinds of
 * container run slower on all of them (a third of a write's lookups, measured). `value` maps each
 * value (a trie of tries: its inner tries). Every container is new, none frozen: a restored world
 * is the reader's own (the state file's journal is replayed into it in place).
 */
export function trieAsWritten<T, U = T>(trie: Trie<T>, value: (v: T) => U = (v) => v as unknown as U): Trie<U> {
  if (isEmptyLevel(trie)) return {};
  const rebuild = (node: Node, depth: number): Node => {
    if (depth === levels) {
      const leaf = newLeaf();
      for (const k of Object.keys(node)) put(leaf, k, value(node[k] as T));
      return leaf;
    }
    const out: { [slot: number]: unknown } = {};
    for (let s = 0; s < slotNames.length; s++) {
      const child = (node as Slots)[s];
      out[s] = child === undefined ? undefined : rebuild(child, depth + 1);
    }
    return out as Node;
  };
  return rebuild(trie, 0) as Trie<U>;
}

export function trieIsEmpty<T>(trie: Trie<T>): boolean {
  return isEmptyLevel(trie);
}

/** Every key, unsorted (callers sort: iteration order must never leak). */
export function trieKeys<T>(trie: Trie<T>): string[] {
  const out: string[] = [];
  const walk = (node: Node, level: number): void => {
    if (level === levels) {
      for (const k of Object.keys(node)) out.push(k);
      return;
    }
    eachSlot(node, (_, child) => walk(child, level + 1));
  };
  walk(trie, 0);
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

/**
 * The writes that made a trie version from a `base` version: this one and, through `previous`,
 * the ones before it — a chain, so that a write adds one link instead of copying a list. Two are
 * kept per version: its lineage (edits since a version whose key order is known, for listing)
 * and its derivation (keys written since a base, for changes).
 *
 * A chain never points at a trie version, only at what it needs of its base (the base's key order,
 * or a number naming it): the chains live in WeakMaps keyed by versions, and values that point at
 * other keys make every garbage collection trace chains of ephemerons, which cost each write
 * several microseconds.
 */
interface WriteChain<W, B> {
  readonly base: B;
  readonly write: W;
  readonly previous: WriteChain<W, B> | undefined;
  /** Writes since the base, this one included. */
  readonly length: number;
}

function chainOn<W, B>(base: B, write: W, previous?: WriteChain<W, B>): WriteChain<W, B> {
  return { base, write, previous, length: previous === undefined ? 1 : previous.length + 1 };
}

/** The writes of `chain` after `until` (one of its links; undefined: from the base), oldest first. */
function writesOf<W, B>(chain: WriteChain<W, B>, until?: WriteChain<W, B>): W[] {
  const writes: W[] = [];
  for (let p: WriteChain<W, B> | undefined = chain; p !== undefined && p !== until; p = p.previous) writes.push(p.write);
  return writes.reverse();
}

/** A listed version's key order, and its values in key order when they were known. */
interface Listed {
  readonly keys: readonly string[];
  readonly values: readonly unknown[] | undefined;
}

type Lineage = WriteChain<Edit, Listed>;
const lineages = new WeakMap<object, Lineage>();
/** Beyond this many writes since the last listing, sorting again is as cheap. */
const lineageMax = 64;

function inherit(from: object, to: object, edit: Edit): void {
  const keys = sortedKeysCache.get(from);
  if (keys !== undefined) {
    lineages.set(to, chainOn({ keys, values: sortedValuesCache.get(from) }, edit));
    return;
  }
  const l = lineages.get(from);
  if (l !== undefined && l.length < lineageMax) lineages.set(to, chainOn(l.base, edit, l));
}

/**
 * Key order (and values in key order, when the base's are known) from the lineage: the base's
 * copied, keys that went removed and keys that came inserted at their places, values rewritten.
 */
function derive(l: Lineage): { keys: readonly string[]; values: unknown[] | undefined } {
  const baseKeys = l.base.keys;
  const baseValues = l.base.values;
  const was = new Map<string, boolean>();
  const last = new Map<string, Edit>();
  for (const e of writesOf(l)) {
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
 * Which keys a trie was written at since a base version, for up to `derivationMax` writes: two
 * versions derived from one base differ at most at the keys either was written at, so their
 * changes are found by looking those keys up instead of walking the slot levels. A version that
 * becomes a base forgets its own derivation.
 *
 * Only versions that were compared (trieChanges) become bases: the versions a view or a checker
 * reads are the ones it compares next, and a write from one of them is what the next comparison
 * spans. Versions of a trie nobody compares (the kinds no view reads) keep no notes: a note is a
 * WeakMap entry, and taking one for every write of every trie cost a write about a microsecond.
 */
type Derivation = WriteChain<string, number>;
const derivations = new WeakMap<object, Derivation>();
const derivationMax = 32;
/** Numbers naming the versions that were compared: a derivation's possible bases (a number points at no key). */
const baseNumbers = new WeakMap<object, number>();
let basesNamed = 0;

function nameBase(version: object): void {
  if (!baseNumbers.has(version)) baseNumbers.set(version, ++basesNamed);
}

function noteWrite(from: object, to: object, key: string): void {
  const d = derivations.get(from);
  if (d !== undefined && d.length < derivationMax) {
    derivations.set(to, chainOn(d.base, key, d));
    return;
  }
  const base = baseNumbers.get(from);
  if (base === undefined) return;
  derivations.delete(from);
  derivations.set(to, chainOn(base, key));
}

/** The keys at which `before` and `after` may differ, when their derivations tell; else null. */
function writtenBetween(before: object, after: object): readonly string[] | null {
  const a = derivations.get(after);
  if (a !== undefined && a.base === baseNumbers.get(before)) return writesOf(a);
  const b = derivations.get(before);
  if (b !== undefined && b.base === baseNumbers.get(after)) return writesOf(b);
  if (a === undefined || b === undefined || a.base !== b.base) return null;
  // `before` written on to `after` (the common case: a view reads one version, then a later one):
  // only the writes after it.
  for (let p: Derivation | undefined = a; p !== undefined; p = p.previous) if (p === b) return writesOf(a, b);
  return [...writesOf(a), ...writesOf(b)];
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
  const written = writtenBetween(before, after);
  nameBase(before);
  nameBase(after);
  if (written !== null) {
    const seen = new Set<string>();
    for (const key of written) {
      if (seen.has(key)) continue;
      seen.add(key);
      const b = trieGet(before, key);
      const a = trieGet(after, key);
      if (b !== a) visit(key, b, a);
    }
    return;
  }
  const level = (b: Node, a: Node, depth: number): void => {
    if (b === a) return;
    if (depth === levels) {
      diffLeaves(b, a, (vb, va, key) => visit(key, vb as T | undefined, va as T | undefined));
      return;
    }
    for (const k of slotNames) {
      const x = b[k] as Node | undefined;
      const y = a[k] as Node | undefined;
      if (x !== y) level(x ?? {}, y ?? {}, depth + 1);
    }
  };
  level(before, after, 0);
}

/** The entries of two leaves that are not the same value, each key once. */
function diffLeaves(x: Node, y: Node, onDiffering: (b: unknown, a: unknown, key: string) => void): void {
  if (x === y) return;
  for (const k of Object.keys(x)) {
    const a = hasOwn(y, k) ? y[k] : undefined;
    if (a !== x[k]) onDiffering(x[k], a, k);
  }
  for (const k of Object.keys(y)) if (!hasOwn(x, k)) onDiffering(undefined, y[k], k);
}
