/**
 * Step 4 of server-side apply: removing what the applier stopped applying.
 *
 * Rules this file keeps:
 * - A field goes when the applier owned it last time, does not apply it now, and no other owner
 *   owns it; never-owned fields (apiVersion, kind, metadata's system fields) never go.
 * - Declared struct fields on the way to an owned path count as owned nodes, so a struct whose
 *   owned contents all go is removed whole; a list element emptied of everything stays as `{}`.
 * Must not know: conflicts, how owners are encoded, how the configuration was merged.
 */
import type { ListSchema, Schema } from '../../api/schema.ts';
import { isObject, setOwn, type JsonObject, type JsonValue } from '../../core/json.ts';
import { childSet, difference, emptyFieldSet, hasMember, isEmptySet, union, type FieldSet } from './fieldSet.ts';
import { unownedFields } from './fieldSetOf.ts';
import type { Owner } from './owners.ts';
import { comparePathElements, pe } from './pathElement.ts';
import { childSchemaOf, fieldSchema, isDeclaredField, isEmptyContainer, listItemElement, shapeOf } from './schemaShape.ts';

/**
 * Removes from `merged` what the applier owned last time (`lastSet`) that no owner, the applier's
 * new configuration included, owns now. Declared struct fields on the way count as owned nodes,
 * so a struct left with nothing owned goes whole.
 */
export function pruneUnapplied(merged: JsonObject, owners: ReadonlyMap<string, Owner>, lastSet: FieldSet | undefined, schema: Schema): JsonObject {
  if (lastSet === undefined || isEmptySet(lastSet)) return merged;
  let owned = emptyFieldSet;
  for (const o of owners.values()) owned = union(owned, o.fields);
  const last = withNamedFieldsAsMembers(lastSet, schema);
  const toRemove = difference(difference(last, withNamedFieldsAsMembers(owned, schema)), unownedFields);
  return (removeItems(merged, toRemove, schema) ?? {}) as JsonObject;
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

/** `v` without the paths of `set`; undefined when a container loses everything it had. */
function removeItems(v: JsonValue, set: FieldSet, schema: Schema | undefined): JsonValue | undefined {
  const shape = shapeOf(schema);
  if (isEmptyContainer(v) || isEmptySet(set)) return v;
  if (shape === 'list' && Array.isArray(v)) return removeFromList(v, set, schema as ListSchema);
  if ((shape === 'struct' || shape === 'map') && isObject(v)) return removeFromEntries(v, set, schema);
  return v;
}

function removeFromList(items: readonly JsonValue[], set: FieldSet, list: ListSchema): JsonValue[] | undefined {
  const out: JsonValue[] = [];
  for (const item of items) {
    const e = listItemElement(list, item);
    if (typeof e === 'string') {
      out.push(item);
      continue;
    }
    if (hasMember(set, e)) continue;
    const sub = childSet(set, e);
    // An element emptied of everything stays as an empty element (Go's zero value).
    out.push(sub === undefined ? item : (removeItems(item, sub, list.items) ?? {}));
  }
  return out.length > 0 ? out : undefined;
}

function removeFromEntries(obj: JsonObject, set: FieldSet, schema: Schema | undefined): JsonObject | undefined {
  const out: JsonObject = {};
  for (const k of Object.keys(obj)) {
    const e = pe.field(k);
    if (hasMember(set, e)) continue;
    const sub = childSet(set, e);
    const v = sub === undefined ? obj[k] : removeItems(obj[k]!, sub, fieldSchema(schema, k));
    if (v !== undefined) setOwn(out, k, v);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
