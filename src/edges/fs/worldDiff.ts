/**
 * What changed between two versions of a world, as a list of changes that turn a JSON copy of
 * the first into a JSON copy of the second: the journal of a state file writes one list per
 * committed step (journal.ts). Versions of a world share structure — a write copies only the
 * containers on the path from the root to what it changed (store/trie.ts, store/history.ts) — so
 * walking both and descending only where references differ costs what changed, not the world.
 *
 * Key order is kept as well as content, so that a restarted server answers the same bytes: a
 * container whose keys would come out of the changes in another order than the new version's is
 * written whole (JSON keeps key order; JavaScript puts integer-like keys first, ascending).
 * `undefined` is absent, as in JSON (empty trie slots).
 */
export type Key = string | number;

/**
 * `set` a value (a new key is appended), `del` a key, `drop` the first n elements of an array
 * (the watch log losing its oldest chunks), `len`: shorten an array to n elements.
 */
export type Change =
  | readonly ['set', readonly Key[], unknown]
  | readonly ['del', readonly Key[]]
  | readonly ['drop', readonly Key[], number]
  | readonly ['len', readonly Key[], number];

type Rec = Record<string, unknown>;

const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
/** An own key with a value (a record may hold `undefined`, which JSON leaves out). */
const has = (o: Rec, k: string): boolean => Object.hasOwn(o, k) && o[k] !== undefined;
const isIndexKey = (k: string): boolean => /^(?:0|[1-9]\d{0,9})$/.test(k) && Number(k) < 4294967295;

export function worldChanges(before: unknown, after: unknown): Change[] {
  const out: Change[] = [];
  changes(before, after, [], out);
  return out;
}

function changes(a: unknown, b: unknown, path: readonly Key[], out: Change[]): void {
  if (a === b) return;
  if (isRecord(a) && isRecord(b)) recordChanges(a, b, path, out);
  else if (Array.isArray(a) && Array.isArray(b)) arrayChanges(a, b, path, out);
  else out.push(['set', path, b === undefined ? null : b]);
}

/** The order JavaScript gives these keys: integer-like ones first, ascending, then the rest as inserted. */
function jsOrder(keys: readonly string[]): string[] {
  const ints = keys.filter(isIndexKey).sort((x, y) => Number(x) - Number(y));
  return ints.length === 0 ? [...keys] : [...ints, ...keys.filter((k) => !isIndexKey(k))];
}

function recordChanges(a: Rec, b: Rec, path: readonly Key[], out: Change[]): void {
  const bKeys = Object.keys(b).filter((k) => b[k] !== undefined);
  // Applied to a copy of `a`, kept keys stay where they are and new ones are appended.
  const expected = jsOrder([...Object.keys(a).filter((k) => a[k] !== undefined && has(b, k)), ...bKeys.filter((k) => !has(a, k))]);
  if (expected.some((k, i) => k !== bKeys[i])) {
    out.push(['set', path, b]);
    return;
  }
  for (const k of bKeys) {
    const av = has(a, k) ? a[k] : undefined;
    if (av === b[k]) continue;
    if (av === undefined) out.push(['set', [...path, k], b[k]]);
    else changes(av, b[k], [...path, k], out);
  }
  for (const k of Object.keys(a)) if (a[k] !== undefined && !has(b, k)) out.push(['del', [...path, k]]);
}

/** Small arrays change in place; the watch log's chunk index drops its head and grows at its tail. */
function arrayChanges(a: readonly unknown[], b: readonly unknown[], path: readonly Key[], out: Change[]): void {
  let drop = 0;
  const head = b[0];
  if (a.length > 0 && head !== a[0] && typeof head === 'object' && head !== null) drop = Math.max(0, a.indexOf(head));
  const kept = a.length - drop;
  const common = Math.min(kept, b.length);
  let differing = 0;
  for (let i = 0; i < common; i++) if (a[drop + i] !== b[i]) differing++;
  // Much changed (a random stream's state): the whole array says it more briefly than a
  // change per element, each of which repeats the path.
  if (differing > 4 && differing * 8 > common) {
    out.push(['set', path, b]);
    return;
  }
  if (drop > 0) out.push(['drop', path, drop]);
  for (let i = 0; i < common; i++) if (a[drop + i] !== b[i]) changes(a[drop + i], b[i], [...path, i], out);
  for (let i = common; i < b.length; i++) out.push(['set', [...path, i], b[i] === undefined ? null : b[i]]);
  if (b.length < kept) out.push(['len', path, b.length]);
}

/** Thrown when a change does not fit the world it is applied to: the journal is not this world's. */
export class ChangeMismatch extends Error {}

/** Applies changes to a JSON value in place (it must be a private copy); returns the new root. */
export function applyChanges(root: unknown, list: readonly Change[]): unknown {
  let value = root;
  for (const change of list) value = applyOne(value, change);
  return value;
}

function at(root: unknown, path: readonly Key[]): unknown {
  let v = root;
  for (const k of path) {
    if (Array.isArray(v) && typeof k === 'number' && Number.isInteger(k) && k >= 0 && k < v.length) v = v[k];
    else if (isRecord(v) && typeof k === 'string' && Object.hasOwn(v, k)) v = v[k];
    else throw new ChangeMismatch(`no ${JSON.stringify(path)} to change`);
  }
  return v;
}

function applyOne(root: unknown, change: Change): unknown {
  const [op, path] = change;
  if (!Array.isArray(path)) throw new ChangeMismatch(`a change without a path: ${JSON.stringify(change).slice(0, 200)}`);
  if (op === 'drop' || op === 'len') {
    const target = at(root, path);
    const n = change[2];
    if (!Array.isArray(target) || !Number.isInteger(n) || n < 0 || n > target.length) throw new ChangeMismatch(`cannot ${op} ${n} at ${JSON.stringify(path)}`);
    if (op === 'drop') target.splice(0, n);
    else target.length = n;
    return root;
  }
  if (op !== 'set' && op !== 'del') throw new ChangeMismatch(`unknown change ${JSON.stringify(op)}`);
  if (path.length === 0) {
    if (op === 'del') throw new ChangeMismatch('cannot delete the whole world');
    return change[2];
  }
  const parent = at(root, path.slice(0, -1));
  const key = path[path.length - 1];
  if (Array.isArray(parent) && op === 'set' && typeof key === 'number' && Number.isInteger(key) && key >= 0 && key <= parent.length) {
    parent[key] = change[2];
  } else if (isRecord(parent) && typeof key === 'string') {
    // defineProperty: a key named `__proto__` (a ConfigMap's data may have one) is data, not the prototype.
    if (op === 'set') Object.defineProperty(parent, key, { value: change[2], writable: true, enumerable: true, configurable: true });
    else delete parent[key];
  } else {
    throw new ChangeMismatch(`cannot ${op} ${JSON.stringify(path)}`);
  }
  return root;
}
