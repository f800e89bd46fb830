/**
 * Path elements: the steps of a field path, as structured-merge-diff models them, and their order.
 *
 * Rules this file keeps:
 * - A path element is a struct/map field, a list-map key, a set value or a list index. Key
 *   fields are sorted by name, so every key has one form.
 * - Elements order as fields < keys < values < indices, each by content; JSON values order as
 *   numbers, strings, booleans, lists, maps, null. Strings compare in Go's (code-point) order.
 * Must not know: how paths are written (pathString.ts), field sets, schemas.
 */
import { compareStrings } from '../../core/compareStrings.ts';
import { isObject, type JsonObject, type JsonValue } from '../../core/json.ts';

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

/**
 * Walks two arrays sorted by path element in step, calling `visit` with the items of equal
 * elements (one of them missing where only one array has the element).
 */
export function zipByElement<A, B>(
  a: readonly A[],
  b: readonly B[],
  ka: (x: A) => PathElement,
  kb: (y: B) => PathElement,
  visit: (x: A | undefined, y: B | undefined) => void,
): void {
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
