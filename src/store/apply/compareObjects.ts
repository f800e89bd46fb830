/**
 * Comparing two versions of an object field by field, as the field manager does on every write.
 *
 * Rules this file keeps:
 * - Leaves (scalars, atomic values, containers empty on both sides) are added, removed or
 *   modified; a list, map or list element appearing or disappearing is added or removed as a
 *   node too. A struct reached through a declared field is not a node of its own (Go value
 *   structs always exist).
 * - `metadata.managedFields` is bookkeeping and never compared; `compareOwned` leaves out the
 *   never-owned fields and the reset top-level fields.
 * Must not know: owners, which manager made the change, how the result is encoded.
 */
import type { ListSchema, Schema } from '../../api/schema.ts';
import { deepEqual, getOwn, hasOwn, isObject, type JsonObject, type JsonValue } from '../../core/json.ts';
import type { FieldSet } from './fieldSet.ts';
import { fieldSetFromPaths } from './fieldSetBuilder.ts';
import { isUnownedPath } from './fieldSetOf.ts';
import { pe, type Path, type PathElement } from './pathElement.ts';
import { serializePathElement } from './pathString.ts';
import { containerOf, fieldSchema, isDeclaredField, isEmptyContainer, listItemElement, shapeOf } from './schemaShape.ts';

export interface Comparison {
  readonly added: FieldSet;
  readonly modified: FieldSet;
  readonly removed: FieldSet;
}

interface Collector {
  readonly added: Path[];
  readonly modified: Path[];
  readonly removed: Path[];
}

/**
 * The fields that differ between `before` and `after` (either may be absent). Leaves (scalars,
 * atomic values, containers empty on both sides) are added, removed or modified; a list, map or
 * list element appearing or disappearing is added or removed as a node too.
 */
export function compareObjects(before: JsonValue | undefined, after: JsonValue | undefined, schema: Schema): Comparison {
  const c: Collector = { added: [], modified: [], removed: [] };
  walk(before, after, schema, [], c, true);
  return { added: fieldSetFromPaths(c.added), modified: fieldSetFromPaths(c.modified), removed: fieldSetFromPaths(c.removed) };
}

function recordLeaf(l: JsonValue | undefined, r: JsonValue | undefined, path: Path, c: Collector): void {
  if (path.length === 0) return;
  if (l === undefined) c.added.push(path);
  else if (r === undefined) c.removed.push(path);
  else if (!deepEqual(l, r)) c.modified.push(path);
}

function walk(l: JsonValue | undefined, r: JsonValue | undefined, schema: Schema | undefined, path: Path, c: Collector, valueStruct: boolean): void {
  // One value on both sides (a subtree a write kept as it was): nothing in it differs.
  if (l === r) return;
  const shape = shapeOf(schema);
  const lc = containerOf(l, shape);
  const rc = containerOf(r, shape);
  const leaf = shape === 'leaf' || lc === 'mismatch' || rc === 'mismatch' || (isEmptyContainer(lc) && isEmptyContainer(rc));
  if (leaf) return recordLeaf(l, r, path, c);
  if (shape === 'list') walkList(lc as JsonValue[] | undefined, rc as JsonValue[] | undefined, schema as ListSchema, path, c);
  else walkEntries(lc as JsonObject | undefined, rc as JsonObject | undefined, schema, path, c);
  if (valueStruct || path.length === 0) return;
  if (l === undefined) c.added.push(path);
  else if (r === undefined) c.removed.push(path);
}

/** Items by element, first occurrence wins, in order. Unindexable items are skipped. */
function indexItems(items: readonly JsonValue[] | undefined, list: ListSchema): Map<string, { e: PathElement; v: JsonValue }> {
  const out = new Map<string, { e: PathElement; v: JsonValue }>();
  for (const v of items ?? []) {
    const e = listItemElement(list, v);
    if (typeof e === 'string') continue;
    const k = serializePathElement(e);
    if (!out.has(k)) out.set(k, { e, v });
  }
  return out;
}

function walkList(l: JsonValue[] | undefined, r: JsonValue[] | undefined, list: ListSchema, path: Path, c: Collector): void {
  const li = indexItems(l, list);
  const ri = indexItems(r, list);
  const keys = [...li.keys(), ...[...ri.keys()].filter((k) => !li.has(k))];
  for (const k of keys) {
    const x = li.get(k);
    const y = ri.get(k);
    walk(x?.v, y?.v, list.items, [...path, (x ?? y)!.e], c, false);
  }
}

function walkEntries(l: JsonObject | undefined, r: JsonObject | undefined, schema: Schema | undefined, path: Path, c: Collector): void {
  // `metadata.managedFields` is bookkeeping: skipped here rather than copied out of both sides,
  // which kept a metadata a write did not touch from being skipped as one value.
  const skip = path.length === 1 && path[0]!.kind === 'field' && path[0]!.name === 'metadata' ? 'managedFields' : null;
  const entry = (k: string): void => {
    if (k === skip) return;
    const lv = l === undefined ? undefined : getOwn(l, k);
    const rv = r === undefined ? undefined : getOwn(r, k);
    // The same value on both sides: nothing in it differs (and no path is made for it).
    if (lv === rv) return;
    const child = fieldSchema(schema, k);
    const valueStruct = isDeclaredField(schema, k) && shapeOf(child) === 'struct';
    walk(lv, rv, child, [...path, fieldElement(k)], c, valueStruct);
  };
  if (l !== undefined) for (const k of Object.keys(l)) entry(k);
  if (r !== undefined) for (const k of Object.keys(r)) if (l === undefined || !hasOwn(l, k)) entry(k);
}

/** Field elements are immutable: one per name (bounded), not one per visit. */
const fieldElements = new Map<string, PathElement>();
const fieldElementsMax = 4096;

function fieldElement(name: string): PathElement {
  let e = fieldElements.get(name);
  if (e === undefined) {
    if (fieldElements.size >= fieldElementsMax) fieldElements.clear();
    fieldElements.set(name, (e = pe.field(name)));
  }
  return e;
}

/** Drops `metadata.managedFields` (bookkeeping; compareObjects skips it by itself). */
export function withoutManagedFields(obj: JsonObject): JsonObject {
  const meta = getOwn(obj, 'metadata');
  if (!isObject(meta) || !hasOwn(meta, 'managedFields')) return obj;
  const { managedFields: _drop, ...rest } = meta;
  const out: JsonObject = { ...obj };
  Object.defineProperty(out, 'metadata', { value: rest, writable: true, enumerable: true, configurable: true });
  return out;
}

/**
 * `compareObjects` without the never-owned fields and the reset top-level fields: the sets
 * `withoutUnowned` (fieldSetOf.ts) leaves of each, made by leaving those paths out before the sets
 * are built rather than taking them out of built sets. A path is left out when it is one of the
 * never-owned fields exactly (a member of those does not cover deeper paths), or when it starts
 * at a reset field (which does).
 */
export function compareOwned(before: JsonValue | undefined, after: JsonValue | undefined, schema: Schema, resetFields: readonly string[]): Comparison {
  return comparisonOf(ownedChanges(before, after, schema, resetFields));
}

/** The paths `compareOwned` builds its sets from (none empty): a caller may look at them first. */
export interface OwnedChanges {
  readonly added: readonly Path[];
  readonly modified: readonly Path[];
  readonly removed: readonly Path[];
}

export function ownedChanges(before: JsonValue | undefined, after: JsonValue | undefined, schema: Schema, resetFields: readonly string[]): OwnedChanges {
  const c: Collector = { added: [], modified: [], removed: [] };
  walk(before, after, schema, [], c, true);
  const owned = (paths: Path[]): Path[] => paths.filter((p) => p.length > 0 && isOwnable(p, resetFields));
  return { added: owned(c.added), modified: owned(c.modified), removed: owned(c.removed) };
}

/** The sets of a comparison's paths. */
export function comparisonOf(c: OwnedChanges): Comparison {
  return { added: fieldSetFromPaths(c.added), modified: fieldSetFromPaths(c.modified), removed: fieldSetFromPaths(c.removed) };
}

function isOwnable(path: Path, resetFields: readonly string[]): boolean {
  const first = path[0];
  if (first !== undefined && first.kind === 'field' && resetFields.includes(first.name)) return false;
  return !isUnownedPath(path);
}
