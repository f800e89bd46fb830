/**
 * The fields an object sets, as a manager owns them.
 *
 * Rules this file keeps:
 * - `fieldSetOf` lists what an apply configuration sets: every scalar, every element of a granular
 *   list, every entry of a granular map (keys not declared as struct fields), every explicit null
 *   or `{}`; atomic lists/maps and `any` values are one field. A non-empty struct is not a field of
 *   its own. A list element that appears twice is owned as a whole.
 * - apiVersion, kind, metadata and metadata's system fields are never owned; top-level fields the
 *   caller resets (status) are never owned either.
 * Must not know: owners, managedFields, how the set is encoded.
 */
import type { ListSchema, Schema } from '../../api/schema.ts';
import { isObject, type JsonObject, type JsonValue } from '../../core/json.ts';
import { difference, recursiveDifference, type FieldSet } from './fieldSet.ts';
import { builderFinish, builderInsert, fieldSetFromPaths, newBuilder, type FieldSetBuilder } from './fieldSetBuilder.ts';
import { pe, type Path } from './pathElement.ts';
import { serializePathElement } from './pathString.ts';
import { fieldSchema, isDeclaredField, listItemElement, shapeOf } from './schemaShape.ts';

/** Every field a value sets, by schema, with nothing stripped (see the file header). */
export function rawFieldSetOf(obj: JsonValue, schema: Schema): FieldSet {
  const b = newBuilder();
  collect(obj, schema, [], b);
  return builderFinish(b);
}

function collect(v: JsonValue, schema: Schema | undefined, path: Path, b: FieldSetBuilder): void {
  const shape = shapeOf(schema);
  if (shape === 'list' && Array.isArray(v)) return collectList(v, schema as ListSchema, path, b);
  if ((shape === 'struct' || shape === 'map') && isObject(v)) return collectEntries(v, schema, path, b);
  if (v === null && shape !== 'leaf') return;
  if (path.length > 0) builderInsert(b, path);
}

function collectList(items: readonly JsonValue[], list: ListSchema, path: Path, b: FieldSetBuilder): void {
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

function collectEntries(obj: JsonObject, schema: Schema | undefined, path: Path, b: FieldSetBuilder): void {
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

const unownedTopFields: ReadonlySet<string> = new Set(['apiVersion', 'kind', 'metadata']);
const unownedMetadataFields: ReadonlySet<string> = new Set(systemMetadataFields);

/**
 * Whether a path is one of `unownedFields` (`hasPath(unownedFields, path)`), answered from its
 * two levels directly: every write asks it of each path it changed, and the general lookup
 * compared path elements one by one.
 */
export function isUnownedPath(path: Path): boolean {
  const first = path[0];
  if (first === undefined || first.kind !== 'field') return false;
  if (path.length === 1) return unownedTopFields.has(first.name);
  if (path.length !== 2 || first.name !== 'metadata') return false;
  const second = path[1]!;
  return second.kind === 'field' && unownedMetadataFields.has(second.name);
}

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
