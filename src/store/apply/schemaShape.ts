/**
 * The schema facts field ownership walks by (shared by the field-set, compare, merge and prune
 * steps): how a value is walked, the schema below a step, and the path element of a list item.
 *
 * Rules this file keeps:
 * - Atomic structs, maps and lists, scalars, `any` and undeclared fields are leaves: owned and
 *   replaced as one field. Granular structs and maps are walked entry by entry, granular lists
 *   item by item (list-maps by key, sets by value).
 * - A value that is not the container its shape expects is handled as a leaf.
 * - List-item errors are upstream's texts, returned as strings, never thrown.
 * Must not know: field sets, owners, what a caller does with the walk.
 */
import type { ListSchema, Schema } from '../../api/schema.ts';
import { goQuoteList } from '../../core/goFormat.ts';
import { hasOwn, isObject, setOwn, type JsonObject, type JsonValue } from '../../core/json.ts';
import { pe, type PathElement } from './pathElement.ts';

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

/** The schema below one path element. */
export function childSchemaOf(schema: Schema | undefined, e: PathElement): Schema | undefined {
  if (e.kind === 'field') return fieldSchema(schema, e.name);
  return schema?.type === 'list' ? schema.items : undefined;
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
