/**
 * Field sets: the paths a field manager owns, as structured-merge-diff models them.
 *
 * Rules this file keeps:
 * - A path element is a struct/map field (`f:name`, `.name`), a list-map key (`k:{"name":"s1"}`,
 *   `[name="s1"]`), a set value (`v:"a"`, `[="a"]`) or an index (`i:0`, `[0]`). Key fields are
 *   sorted by name. Elements order as fields < keys < values < indices, each by content.
 * - A set is a trie. At each level `members` are the paths that end there and `children` the
 *   paths that go on; a path may be both (`".": {}` in fieldsV1). Arrays are kept sorted and
 *   child sets are never empty, so equal sets are deep-equal and output is deterministic.
 * - `fieldSetOf` lists what an apply configuration sets: every scalar, every element of a granular
 *   list, every entry of a granular map (keys not declared as struct fields), every explicit null
 *   or `{}`; atomic lists/maps and `any` values are one field. A non-empty struct is not a field of
 *   its own. apiVersion, kind, metadata and metadata's system fields are never owned; top-level
 *   fields the caller resets (status) are never owned either.
 * - Everything is pure: sets are immutable values, functions return new sets.
 */
import type { ListSchema, Schema } from '../../api/schema.ts';
import { canonicalJson, hasOwn, isObject, setOwn, type JsonObject, type JsonValue } from '../../core/json.ts';

export interface KeyField {
  readonly name: string;
  readonly value: JsonValue;
}

export type PathElement =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'key'; readonly fields: readonly KeyField[] }
  | { readonly kind: 'value'; readonly value: JsonValue }
  | { readonly kind: 'index'; readonly index: number };

export type Path = readonly PathElement[];

export interface FieldSetChild {
  readonly element: PathElement;
  readonly set: FieldSet;
}

export interface FieldSet {
  readonly members: readonly PathElement[];
  readonly children: readonly FieldSetChild[];
}

export const emptyFieldSet: FieldSet = { members: [], children: [] };

/** Constructors for path elements (key fields are sorted here so every key has one form). */
export const pe = {
  field: (name: string): PathElement => ({ kind: 'field', name }),
  key: (fields: Readonly<Record<string, JsonValue>>): PathElement => ({
    kind: 'key',
    fields: Object.keys(fields)
      .sort(compareStrings)
      .map((name) => ({ name, value: fields[name] as JsonValue })),
  }),
  value: (value: JsonValue): PathElement => ({ kind: 'value', value }),
  index: (index: number): PathElement => ({ kind: 'index', index }),
};

// ---------------------------------------------------------------------------------------------
// Ordering

/** Code-point order, which is the byte order Go uses on UTF-8 strings. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  // UTF-16 order differs from code-point order only when surrogates are involved.
  if (!/[\ud800-\udfff]/.test(a + b)) return a < b ? -1 : 1;
  const ca = [...a];
  const cb = [...b];
  const n = Math.min(ca.length, cb.length);
  for (let i = 0; i < n; i++) {
    const x = ca[i]!.codePointAt(0)!;
    const y = cb[i]!.codePointAt(0)!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return ca.length === cb.length ? 0 : ca.length < cb.length ? -1 : 1;
}

function valueRank(v: JsonValue): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  return v === null ? 5 : 4;
}

/** Total order of JSON values: numbers, strings, booleans, lists, maps, null. */
export function compareValues(a: JsonValue, b: JsonValue): number {
  const ra = valueRank(a);
  const rb = valueRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return a === b ? 0 : a < b ? -1 : 1;
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (Array.isArray(a) && Array.isArray(b)) return compareLists(a, b);
  if (isObject(a) && isObject(b)) return compareMaps(a, b);
  return 0;
}

function compareLists(a: readonly JsonValue[], b: readonly JsonValue[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compareValues(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

function compareMaps(a: JsonObject, b: JsonObject): number {
  const ka = Object.keys(a).sort(compareStrings);
  const kb = Object.keys(b).sort(compareStrings);
  for (let i = 0; i < Math.min(ka.length, kb.length); i++) {
    const c = compareStrings(ka[i]!, kb[i]!) || compareValues(a[ka[i]!]!, b[kb[i]!]!);
    if (c !== 0) return c;
  }
  return ka.length === kb.length ? 0 : ka.length < kb.length ? -1 : 1;
}

function compareKeys(a: readonly KeyField[], b: readonly KeyField[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compareStrings(a[i]!.name, b[i]!.name) || compareValues(a[i]!.value, b[i]!.value);
    if (c !== 0) return c;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

const kindRank = { field: 0, key: 1, value: 2, index: 3 } as const;

export function comparePathElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return kindRank[a.kind] < kindRank[b.kind] ? -1 : 1;
  switch (a.kind) {
    case 'field':
      return compareStrings(a.name, (b as typeof a).name);
    case 'key':
      return compareKeys(a.fields, (b as typeof a).fields);
    case 'value':
      return compareValues(a.value, (b as typeof a).value);
    case 'index': {
      const j = (b as typeof a).index;
      return a.index === j ? 0 : a.index < j ? -1 : 1;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Rendering: fieldsV1 keys and conflict paths

/** JSON as Go's encoder writes it: sorted map keys, `<`, `>`, `&`, U+2028/9 escaped. */
export function goJson(v: JsonValue): string {
  return canonicalJson(v).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Go's `%q` of a string: printable characters kept, the rest escaped. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (c < 0x20 || c === 0x7f) out += goControlEscape(c);
    else if ((c >= 0x80 && c <= 0x9f) || c === 0xad || c === 0x2028 || c === 0x2029 || c === 0xfeff) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

function goControlEscape(c: number): string {
  const named: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r' };
  return named[c] ?? `\\x${c.toString(16).padStart(2, '0')}`;
}

/** Go's `%v` of a decoded JSON value, as structured-merge-diff prints key and set values. */
function goValueString(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(v).replace(/e([+-])(\d)$/, 'e$10$2');
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(goValueString).join(',')}]`;
  return Object.keys(v)
    .sort(compareStrings)
    .map((k) => `${k}=${goValueString(v[k]!)}`)
    .join('');
}

/** The fieldsV1 key of an element: `f:name`, `k:{"name":"s1"}`, `v:"a"`, `i:0`. */
export function serializePathElement(e: PathElement): string {
  switch (e.kind) {
    case 'field':
      return `f:${e.name}`;
    case 'key':
      return `k:{${e.fields.map((f) => `${goJson(f.name)}:${goJson(f.value)}`).join(',')}}`;
    case 'value':
      return `v:${goJson(e.value)}`;
    case 'index':
      return `i:${e.index}`;
  }
}

/** The conflict rendering of one element: `.name`, `[name="s1"]`, `[="a"]`, `[0]`. */
export function pathElementString(e: PathElement): string {
  switch (e.kind) {
    case 'field':
      return `.${e.name}`;
    case 'key':
      return `[${e.fields.map((f) => `${f.name}=${goValueString(f.value)}`).join(',')}]`;
    case 'value':
      return `[=${goValueString(e.value)}]`;
    case 'index':
      return `[${e.index}]`;
  }
}

export function pathString(path: Path): string {
  return path.map(pathElementString).join('');
}

export type ParsedElement = { ok: true; element: PathElement | null } | { ok: false; error: string };

/** Parses a fieldsV1 key. Unknown element types parse to null: they are skipped, as upstream does. */
export function parsePathElement(s: string): ParsedElement {
  if (s.length < 2) return { ok: false, error: 'key must be 2 characters long:' };
  if (s[1] !== ':') return { ok: false, error: `missing colon: ${s}` };
  const body = s.slice(2);
  switch (s[0]) {
    case 'f':
      return { ok: true, element: pe.field(body) };
    case 'v': {
      const v = parseJson(body);
      return v.ok ? { ok: true, element: pe.value(v.value) } : v;
    }
    case 'k': {
      const v = parseJson(body);
      if (!v.ok) return v;
      if (!isObject(v.value)) return { ok: false, error: `key must be a JSON object: ${s}` };
      return { ok: true, element: pe.key(v.value) };
    }
    case 'i':
      return /^[+-]?\d+$/.test(body) ? { ok: true, element: pe.index(Number.parseInt(body, 10)) } : { ok: false, error: `invalid index: ${s}` };
    default:
      return { ok: true, element: null };
  }
}

function parseJson(text: string): { ok: true; value: JsonValue } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) as JsonValue };
  } catch {
    return { ok: false, error: `invalid JSON in path element: ${text}` };
  }
}

// ---------------------------------------------------------------------------------------------
// Building sets (a mutable builder keyed by the serialized element, sorted once at the end)

interface Builder {
  readonly members: Map<string, PathElement>;
  readonly children: Map<string, { element: PathElement; node: Builder }>;
}

function newBuilder(): Builder {
  return { members: new Map(), children: new Map() };
}

function builderInsert(b: Builder, path: Path): void {
  let node = b;
  for (let i = 0; i < path.length; i++) {
    const e = path[i]!;
    const k = serializePathElement(e);
    if (i === path.length - 1) {
      node.members.set(k, e);
      return;
    }
    let child = node.children.get(k);
    if (child === undefined) {
      child = { element: e, node: newBuilder() };
      node.children.set(k, child);
    }
    node = child.node;
  }
}

function builderFinish(b: Builder): FieldSet {
  const members = [...b.members.values()].sort(comparePathElements);
  const children: FieldSetChild[] = [];
  for (const { element, node } of b.children.values()) {
    const set = builderFinish(node);
    if (!isEmptySet(set)) children.push({ element, set });
  }
  children.sort((x, y) => comparePathElements(x.element, y.element));
  return { members, children };
}

export function fieldSetFromPaths(paths: Iterable<Path>): FieldSet {
  const b = newBuilder();
  for (const p of paths) if (p.length > 0) builderInsert(b, p);
  return builderFinish(b);
}

// ---------------------------------------------------------------------------------------------
// Queries and set algebra

export function isEmptySet(s: FieldSet): boolean {
  return s.members.length === 0 && s.children.length === 0;
}

export function hasMember(s: FieldSet, e: PathElement): boolean {
  return s.members.some((m) => comparePathElements(m, e) === 0);
}

export function childSet(s: FieldSet, e: PathElement): FieldSet | undefined {
  return s.children.find((c) => comparePathElements(c.element, e) === 0)?.set;
}

export function hasPath(s: FieldSet, path: Path): boolean {
  let node: FieldSet | undefined = s;
  for (let i = 0; i < path.length - 1 && node !== undefined; i++) node = childSet(node, path[i]!);
  const last = path[path.length - 1];
  return node !== undefined && last !== undefined && hasMember(node, last);
}

/** Every path, in upstream iteration order: at each level the members, then the children. */
export function pathsOf(s: FieldSet, prefix: Path = []): Path[] {
  const out: Path[] = s.members.map((m) => [...prefix, m]);
  for (const c of s.children) out.push(...pathsOf(c.set, [...prefix, c.element]));
  return out;
}

/** Walks two sorted arrays in step, calling `visit` with the matching items (one may be missing). */
function zip<A, B>(a: readonly A[], b: readonly B[], ka: (x: A) => PathElement, kb: (y: B) => PathElement, visit: (x: A | undefined, y: B | undefined) => void): void {
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    const c = x === undefined ? 1 : y === undefined ? -1 : comparePathElements(ka(x), kb(y));
    if (c === 0) {
      visit(x, y);
      i++;
      j++;
    } else if (c < 0) {
      visit(x, undefined);
      i++;
    } else {
      visit(undefined, y);
      j++;
    }
  }
}

const self = (e: PathElement): PathElement => e;
const elementOf = (c: FieldSetChild): PathElement => c.element;

function mergeMembers(a: FieldSet, b: FieldSet, keep: (inA: boolean, inB: boolean) => boolean): PathElement[] {
  const out: PathElement[] = [];
  zip(a.members, b.members, self, self, (x, y) => {
    if (keep(x !== undefined, y !== undefined)) out.push((x ?? y)!);
  });
  return out;
}

function pushChild(out: FieldSetChild[], element: PathElement, set: FieldSet): void {
  if (!isEmptySet(set)) out.push({ element, set });
}

export function union(a: FieldSet, b: FieldSet): FieldSet {
  if (isEmptySet(a)) return b;
  if (isEmptySet(b)) return a;
  const children: FieldSetChild[] = [];
  zip(a.children, b.children, elementOf, elementOf, (x, y) => {
    if (x !== undefined && y !== undefined) pushChild(children, x.element, union(x.set, y.set));
    else children.push((x ?? y)!);
  });
  return { members: mergeMembers(a, b, (x, y) => x || y), children };
}

export function intersection(a: FieldSet, b: FieldSet): FieldSet {
  const children: FieldSetChild[] = [];
  zip(a.children, b.children, elementOf, elementOf, (x, y) => {
    if (x !== undefined && y !== undefined) pushChild(children, x.element, intersection(x.set, y.set));
  });
  return { members: mergeMembers(a, b, (x, y) => x && y), children };
}

/** Paths of `a` that are not paths of `b` (a member of `b` does not cover `a`'s deeper paths). */
export function difference(a: FieldSet, b: FieldSet): FieldSet {
  if (isEmptySet(a) || isEmptySet(b)) return a;
  const children: FieldSetChild[] = [];
  zip(a.children, b.children, elementOf, elementOf, (x, y) => {
    if (x === undefined) return;
    if (y === undefined) children.push(x);
    else pushChild(children, x.element, difference(x.set, y.set));
  });
  return { members: mergeMembers(a, b, (x, y) => x && !y), children };
}

/** Like `difference`, but a member of `b` also removes every path of `a` below it. */
export function recursiveDifference(a: FieldSet, b: FieldSet): FieldSet {
  if (isEmptySet(a) || isEmptySet(b)) return a;
  const children: FieldSetChild[] = [];
  for (const c of a.children) {
    if (hasMember(b, c.element)) continue;
    const sub = childSet(b, c.element);
    if (sub === undefined) children.push(c);
    else pushChild(children, c.element, recursiveDifference(c.set, sub));
  }
  return { members: mergeMembers(a, b, (x, y) => x && !y), children };
}

// ---------------------------------------------------------------------------------------------
// fieldsV1

/** The fieldsV1 trie of a set, keys in set order (`"."` first where a node is also owned). */
export function toFieldsV1(s: FieldSet): JsonObject {
  const out: JsonObject = {};
  zip(s.members, s.children, self, elementOf, (m, c) => {
    const node: JsonObject = {};
    if (c !== undefined) {
      if (m !== undefined) setOwn(node, '.', {});
      const inner = toFieldsV1(c.set);
      for (const k of Object.keys(inner)) setOwn(node, k, inner[k]!);
    }
    setOwn(out, serializePathElement((m ?? c!.element)), node);
  });
  return out;
}

export type ParsedFieldSet = { ok: true; set: FieldSet } | { ok: false; error: string };

/** Strict reading of a fieldsV1 trie: malformed keys or non-object nodes are errors. */
export function parseFieldsV1(json: JsonValue): ParsedFieldSet {
  const b = newBuilder();
  const r = readLevel(json, b);
  return r === null ? { ok: true, set: builderFinish(b) } : { ok: false, error: r };
}

/** Lenient reading: an invalid trie gives the empty set. */
export function fromFieldsV1(json: JsonValue): FieldSet {
  const r = parseFieldsV1(json);
  return r.ok ? r.set : emptyFieldSet;
}

/** Reads one node into `b`; returns an error text or null. A node with no children is a member. */
function readLevel(json: JsonValue, b: Builder): string | null {
  if (!isObject(json)) return 'fieldsV1 nodes must be JSON objects';
  for (const key of Object.keys(json)) {
    if (key === '.') continue;
    const parsed = parsePathElement(key);
    if (!parsed.ok) return parsed.error;
    if (parsed.element === null) continue;
    const child = newBuilder();
    const err = readLevel(json[key]!, child);
    if (err !== null) return err;
    const k = serializePathElement(parsed.element);
    const sub = json[key] as JsonObject;
    const hasChildren = child.members.size > 0 || child.children.size > 0;
    if (!hasChildren || hasOwn(sub, '.')) b.members.set(k, parsed.element);
    if (hasChildren) b.children.set(k, { element: parsed.element, node: child });
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Walking values by schema (shared with the compare, merge and prune steps)

/** How a value is walked: a leaf is owned as one field; the others are walked entry by entry. */
export type Shape = 'leaf' | 'struct' | 'map' | 'list';

export function shapeOf(schema: Schema | undefined): Shape {
  if (schema === undefined) return 'leaf';
  switch (schema.type) {
    case 'struct':
      return schema.atomic === true ? 'leaf' : 'struct';
    case 'map':
      return schema.atomic === true ? 'leaf' : 'map';
    case 'list':
      return schema.listType === 'atomic' ? 'leaf' : 'list';
    default:
      return 'leaf';
  }
}

/** The schema of a struct field or map value; undefined for undeclared fields and `any`. */
export function fieldSchema(schema: Schema | undefined, key: string): Schema | undefined {
  if (schema?.type === 'struct') return hasOwn(schema.fields, key) ? schema.fields[key] : undefined;
  if (schema?.type === 'map') return schema.values;
  return undefined;
}

/** Whether `key` is a declared field of a struct (such fields are not owned as map entries). */
export function isDeclaredField(schema: Schema | undefined, key: string): boolean {
  return schema?.type === 'struct' && hasOwn(schema.fields, key);
}

/** Go's `%q` of a []string: `["a" "b"]`. */
function goQuoteList(xs: readonly string[]): string {
  return `[${xs.map(goQuote).join(' ')}]`;
}

/** The path element of a list item (list-map key or set value), or the upstream error text. */
export function listItemElement(list: ListSchema, item: JsonValue): PathElement | string {
  const keys = list.listType === 'map' ? (list.mapKeys ?? []) : [];
  if (keys.length > 0) {
    if (item === null) return 'associative list with keys may not have a null element';
    if (!isObject(item)) return 'associative list with keys may not have non-map elements';
    const fields: Record<string, JsonValue> = {};
    for (const k of keys) if (hasOwn(item, k)) setOwn(fields as JsonObject, k, item[k]!);
    if (Object.keys(fields).length === 0) {
      return `associative list with keys has an element that omits all key fields ${goQuoteList(keys)} (and doesn't have default values for any key fields)`;
    }
    return pe.key(fields);
  }
  if (isObject(item)) return "associative list without keys has an element that's a map type";
  if (Array.isArray(item)) return 'not supported: associative list with lists as elements';
  if (item === null) return "associative list without keys has an element that's an explicit null";
  return pe.value(item);
}

/**
 * The value as the container its shape expects: an array for lists, an object for structs and
 * maps; undefined when absent or null; 'mismatch' when it is something else (then the value is
 * handled as a leaf).
 */
export function containerOf(v: JsonValue | undefined, shape: Shape): 'mismatch' | undefined | JsonValue[] | JsonObject {
  if (v === undefined || v === null) return undefined;
  if (shape === 'list') return Array.isArray(v) ? v : 'mismatch';
  return isObject(v) ? v : 'mismatch';
}

export function isEmptyContainer(v: JsonValue | undefined): boolean {
  return v === undefined || v === null || (Array.isArray(v) ? v.length === 0 : isObject(v) && Object.keys(v).length === 0);
}

// ---------------------------------------------------------------------------------------------
// The fields an object sets

/** Every field a value sets, by schema, with nothing stripped (see the file header). */
export function rawFieldSetOf(obj: JsonValue, schema: Schema): FieldSet {
  const b = newBuilder();
  collect(obj, schema, [], b);
  return builderFinish(b);
}

function collect(v: JsonValue, schema: Schema | undefined, path: Path, b: Builder): void {
  const shape = shapeOf(schema);
  if (shape === 'list' && Array.isArray(v)) return collectList(v, schema as ListSchema, path, b);
  if ((shape === 'struct' || shape === 'map') && isObject(v)) return collectEntries(v, schema, path, b);
  if (v === null && shape !== 'leaf') return;
  if (path.length > 0) builderInsert(b, path);
}

function collectList(items: readonly JsonValue[], list: ListSchema, path: Path, b: Builder): void {
  const seen = new Set<string>();
  const duplicated = new Set<string>();
  for (const item of items) {
    const e = listItemElement(list, item);
    if (typeof e === 'string') continue;
    const k = serializePathElement(e);
    if (seen.has(k)) duplicated.add(k);
    seen.add(k);
  }
  for (const item of items) {
    const e = listItemElement(list, item);
    if (typeof e === 'string') continue;
    const itemPath = [...path, e];
    // A duplicated element is owned as a whole: its inside cannot be told apart.
    if (!duplicated.has(serializePathElement(e))) collect(item, list.items, itemPath, b);
    builderInsert(b, itemPath);
  }
}

function collectEntries(obj: JsonObject, schema: Schema | undefined, path: Path, b: Builder): void {
  for (const key of Object.keys(obj)) {
    const child = obj[key]!;
    const childPath = [...path, pe.field(key)];
    collect(child, fieldSchema(schema, key), childPath, b);
    const emptyObject = isObject(child) && Object.keys(child).length === 0;
    if (child === null || emptyObject || !isDeclaredField(schema, key)) builderInsert(b, childPath);
  }
}

const systemMetadataFields = [
  'name',
  'namespace',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'managedFields',
  'selfLink',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'clusterName',
];

/** Fields no manager ever owns (upstream's strip set plus the deletion fields). */
export const unownedFields: FieldSet = fieldSetFromPaths([
  [pe.field('apiVersion')],
  [pe.field('kind')],
  [pe.field('metadata')],
  ...systemMetadataFields.map((f) => [pe.field('metadata'), pe.field(f)]),
]);

/** Removes the never-owned fields, and everything under the top-level fields being reset. */
export function withoutUnowned(set: FieldSet, resetFields: readonly string[] = []): FieldSet {
  const reset = fieldSetFromPaths(resetFields.map((f) => [pe.field(f)]));
  return recursiveDifference(difference(set, unownedFields), reset);
}

/**
 * The fields an object sets, as owned by a manager: `rawFieldSetOf` minus the never-owned
 * fields and minus everything under `resetFields` (e.g. `['status']` when status is reset).
 */
export function fieldSetOf(obj: JsonValue, schema: Schema, resetFields: readonly string[] = []): FieldSet {
  return withoutUnowned(rawFieldSetOf(obj, schema), resetFields);
}

/**
 * The set with every declared struct field on the way to an owned path made a member too
 * (upstream's EnsureNamedFieldsAreMembers). Pruning works on these sets so that a struct whose
 * owned contents all go is removed as a whole.
 */
export function withNamedFieldsAsMembers(s: FieldSet, schema: Schema | undefined): FieldSet {
  const extra = s.children.filter((c) => c.element.kind === 'field' && isDeclaredField(schema, c.element.name)).map((c) => c.element);
  const members = [...s.members];
  for (const e of extra) if (!hasMember(s, e)) members.push(e);
  members.sort(comparePathElements);
  const children = s.children.map((c) => ({ element: c.element, set: withNamedFieldsAsMembers(c.set, childSchemaOf(schema, c.element)) }));
  return { members, children };
}

/** The schema below one path element. */
export function childSchemaOf(schema: Schema | undefined, e: PathElement): Schema | undefined {
  if (e.kind === 'field') return fieldSchema(schema, e.name);
  return schema?.type === 'list' ? schema.items : undefined;
}
