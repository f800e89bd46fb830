/**
 * Server-side apply (`application/apply-patch+yaml`) as a pure function, following
 * structured-merge-diff's Updater.Apply and apimachinery's field manager:
 *
 * 1. Checks, first failure wins: the body is an object; its apiVersion (and kind, when the caller
 *    names it) is the endpoint's (400 `invalid object type: <g>/<v>, Kind=<K>`); it carries no
 *    managedFields (400 `metadata.managedFields must be nil`); it fits the schema (400 `failed to
 *    create typed patch object (...)`: undeclared fields, list keys, scalar types).
 * 2. Top-level fields the strategy resets (`status` on the main resource) are dropped from the
 *    configuration: they are neither applied nor owned.
 * 3. The configuration is merged into the live object: structs and granular maps key by key,
 *    list-maps by key and sets by value (order as upstream: live items keep their place, applied
 *    items follow the applied order), atomic values and scalars replaced.
 * 4. The applier's Apply entry becomes exactly the fields of this configuration. Fields it applied
 *    last time, does not apply now, and nobody else owns are removed (a struct whose owned fields
 *    all go is removed whole).
 * 5. Fields whose value changed (or that appeared) and that another manager owns are conflicts:
 *    409 with upstream's message, unless `force`, which takes them from their owners. Equal values
 *    are shared. Fields that disappeared leave every owner.
 * 6. The Apply entry gets `time` only when the object changed (upstream keeps the old time on a
 *    no-op apply, and a new entry from a no-op apply has no time). Explicit nulls are owned but
 *    dropped from the stored object.
 * Errors are returned, never thrown.
 */
import { parseGroupVersion } from '../../api/meta.ts';
import type { ListSchema, Schema } from '../../api/schema.ts';
import { cloneJson, deepEqual, getOwn, hasOwn, isObject, setOwn, type JsonObject, type JsonValue } from '../../core/json.ts';
import { errors, type ApiError, type StatusCause } from '../../core/status.ts';
import {
  childSet,
  compareStrings,
  containerOf,
  difference,
  emptyFieldSet,
  fieldSchema,
  fieldSetOf,
  goQuote,
  hasMember,
  intersection,
  isEmptyContainer,
  isEmptySet,
  listItemElement,
  pathElementString,
  pathString,
  pathsOf,
  pe,
  serializePathElement,
  shapeOf,
  union,
  unownedFields,
  withNamedFieldsAsMembers,
  type FieldSet,
} from './fieldSet.ts';
import {
  compareObjects,
  decodeManagedFields,
  encodeManagedFields,
  ownedComparison,
  ownerId,
  takeFields,
  withoutManagedFields,
  type Owner,
} from './managedFields.ts';

export interface ServerSideApplyInput {
  readonly live: JsonObject | null;
  readonly applied: JsonObject;
  readonly manager: string;
  /** The endpoint's `group/version` (`v1` for core). */
  readonly apiVersion: string;
  readonly force: boolean;
  readonly time: string;
  readonly schema: Schema;
  readonly subresource?: string;
  /** Top-level fields reset by the strategy, e.g. `['status']` on the main resource. */
  readonly resetFields?: readonly string[];
  /** The endpoint's Kind; when given, a body of another kind is refused like upstream does. */
  readonly kind?: string;
}

export type ServerSideApplyResult = { ok: true; object: JsonObject; created: boolean } | { ok: false; error: ApiError };

export function serverSideApply(input: ServerSideApplyInput): ServerSideApplyResult {
  const checked = checkConfiguration(input);
  if (checked !== null) return { ok: false, error: checked };
  const resetFields = input.resetFields ?? [];
  const config = withoutFields(input.applied, resetFields);
  const liveBody = input.live === null ? {} : withoutManagedFields(input.live);
  const decoded = decodeManagedFields(getOwn(metadataOf(input.live), 'managedFields'));
  const owners = decoded.ok ? decoded.owners : new Map<string, Owner>();
  const me = { manager: input.manager === '' ? 'unknown' : input.manager, operation: 'Apply' as const, apiVersion: input.apiVersion, subresource: input.subresource ?? '' };
  const id = ownerId(me);
  const lastApplied = owners.get(id);
  owners.set(id, { ...me, fields: fieldSetOf(config, input.schema, resetFields) });
  const merged = (mergeValue(liveBody, config, input.schema) ?? {}) as JsonObject;
  const pruned = prune(merged, owners, lastApplied?.fields, input.schema);
  const settled = settleOwnership(owners, id, liveBody, pruned, input);
  if (!settled.ok) return settled;
  const changed = !deepEqual(liveBody, pruned);
  const mine = settled.owners.get(id);
  // Upstream stamps the applier only when the object changed.
  if (mine !== undefined) settled.owners.set(id, withTime(mine, changed ? input.time : lastApplied?.time));
  const object = changed ? (stripNulls(pruned, input.schema) as JsonObject) : cloneJson(liveBody);
  const entries = encodeManagedFields(settled.owners.values()) as unknown as JsonValue[];
  return { ok: true, object: withManagedFields(object, entries), created: input.live === null };
}

/** Step 5: conflicts (409 unless forced), forced fields taken, vanished fields released. */
function settleOwnership(
  owners: Map<string, Owner>,
  applierId: string,
  before: JsonObject,
  after: JsonObject,
  input: ServerSideApplyInput,
): { ok: true; owners: Map<string, Owner> } | { ok: false; error: ApiError } {
  const cmp = ownedComparison(compareObjects(before, after, input.schema), input.resetFields ?? []);
  const changedFields = union(cmp.modified, cmp.added);
  const conflicts = findConflicts(owners, applierId, changedFields);
  if (conflicts.length > 0 && !input.force) return { ok: false, error: conflictError(conflicts) };
  return { ok: true, owners: takeFields(owners, changedFields, cmp.removed, applierId) };
}

function withTime(o: Owner, time: string | undefined): Owner {
  const { time: _old, ...rest } = o;
  return time === undefined ? rest : { ...rest, time };
}

function metadataOf(obj: JsonObject | null): JsonObject {
  const m = obj === null ? undefined : getOwn(obj, 'metadata');
  return isObject(m) ? m : {};
}

function withoutFields(obj: JsonObject, fields: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(obj)) if (!fields.includes(k)) setOwn(out, k, obj[k]!);
  return out;
}

function withManagedFields(obj: JsonObject, entries: JsonValue[]): JsonObject {
  const meta: JsonObject = { ...metadataOf(obj) };
  if (entries.length > 0) setOwn(meta, 'managedFields', entries);
  else delete meta['managedFields'];
  const out: JsonObject = { ...obj };
  setOwn(out, 'metadata', meta);
  return out;
}

// ---------------------------------------------------------------------------------------------
// 1. Checks on the configuration

function stringAt(obj: JsonObject, key: string): string {
  const v = getOwn(obj, key);
  return typeof v === 'string' ? v : '';
}

function gvkString(applied: JsonObject): string {
  const gv = parseGroupVersion(stringAt(applied, 'apiVersion'));
  return `${gv.group}/${gv.version}, Kind=${stringAt(applied, 'kind')}`;
}

function goTypeName(v: JsonValue): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

function checkConfiguration(input: ServerSideApplyInput): ApiError | null {
  const applied = input.applied as JsonValue;
  if (!isObject(applied)) return errors.badRequest(`error decoding YAML: json: cannot unmarshal ${goTypeName(applied)} into Go value of type map[string]interface {}`);
  const kindMismatch = input.kind !== undefined && stringAt(applied, 'kind') !== input.kind;
  if (stringAt(applied, 'apiVersion') !== input.apiVersion || kindMismatch) return errors.badRequest(`invalid object type: ${gvkString(applied)}`);
  const meta = getOwn(applied, 'metadata');
  if (isObject(meta) && hasOwn(meta, 'managedFields') && meta['managedFields'] !== null) return errors.badRequest('metadata.managedFields must be nil');
  const typeErrors: string[] = [];
  validate(applied, input.schema, '', typeErrors);
  if (typeErrors.length === 0) return null;
  const m = isObject(meta) ? meta : {};
  const what = typeErrors.length === 1 ? typeErrors[0]! : ['errors:', ...typeErrors.map((e) => `  ${e}`)].join('\n');
  return errors.badRequest(`failed to create typed patch object (${stringAt(m, 'namespace')}/${stringAt(m, 'name')}; ${gvkString(applied)}): ${what}`);
}

/** Go's `%v` of a decoded JSON value. */
function goV(v: JsonValue): string {
  if (v === null) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goV).join(' ')}]`;
  if (isObject(v)) return `map[${Object.keys(v).sort(compareStrings).map((k) => `${k}:${goV(v[k]!)}`).join(' ')}]`;
  return String(v);
}

/** Go's `%#v` of a decoded JSON value. */
function goSharpV(v: JsonValue): string {
  if (v === null) return 'interface {}(nil)';
  if (typeof v === 'string') return goQuote(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharpV).join(', ')}}`;
  if (isObject(v)) return `map[string]interface {}{${Object.keys(v).sort(compareStrings).map((k) => `${goQuote(k)}:${goSharpV(v[k]!)}`).join(', ')}}`;
  return String(v);
}

function goDynamicType(v: JsonValue): string {
  if (Array.isArray(v)) return '[]interface {}';
  if (isObject(v)) return 'map[string]interface {}';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return typeof v === 'boolean' ? 'bool' : 'string';
}

function scalarError(schema: Schema, v: JsonValue): string | null {
  const isScalar = typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
  switch (schema.type) {
    case 'string':
      return typeof v === 'string' ? null : `expected string, got &value.valueUnstructured{Value:${goSharpV(v)}}`;
    case 'boolean':
      return typeof v === 'boolean' ? null : `expected boolean, got &{${goV(v)}}`;
    case 'integer':
    case 'number':
      return typeof v === 'number' ? null : `expected numeric (int or float), got ${goDynamicType(v)}`;
    case 'int-or-string':
    case 'quantity':
      return isScalar ? null : `expected any scalar, got &{${goV(v)}}`;
    default:
      return null;
  }
}

/**
 * The typed-conversion check of an apply configuration. Errors read `<path>: <message>`; the
 * first undeclared field of an object stops that object's check, a list item without its keys
 * stops the list's, as upstream does. Keys are visited in sorted order for determinism.
 */
function validate(v: JsonValue, schema: Schema | undefined, path: string, out: string[]): void {
  if (schema === undefined || schema.type === 'any' || v === null) return;
  const at = (msg: string): void => void out.push(path === '' ? msg : `${path}: ${msg}`);
  if (schema.type === 'struct' || schema.type === 'map') {
    if (!isObject(v)) return at(`expected map, got &{${goV(v)}}`);
    for (const k of Object.keys(v).sort(compareStrings)) {
      if (schema.type === 'struct' && !hasOwn(schema.fields, k)) return void out.push(`${path}.${k}: field not declared in schema`);
      validate(v[k]!, fieldSchema(schema, k), `${path}.${k}`, out);
    }
    return;
  }
  if (schema.type === 'list') {
    if (!Array.isArray(v)) return at(`expected list, got &{${goV(v)}}`);
    return validateList(v, schema, path, out, at);
  }
  const e = scalarError(schema, v);
  if (e !== null) at(e);
}

function validateList(items: readonly JsonValue[], list: ListSchema, path: string, out: string[], at: (msg: string) => void): void {
  const seen = new Set<string>();
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (list.listType === 'atomic') {
      validate(item, list.items, `${path}[${i}]`, out);
      continue;
    }
    const e = listItemElement(list, item);
    if (typeof e === 'string') return at(`element ${i}: ${e}`);
    const k = serializePathElement(e);
    if (seen.has(k)) at(`duplicate entries for key ${pathElementString(e)}`);
    seen.add(k);
    validate(item, list.items, `${path}${pathElementString(e)}`, out);
  }
}

// ---------------------------------------------------------------------------------------------
// 3. Merging the configuration into the live object

/** `r` merged into `l`; undefined only when both are. */
function mergeValue(l: JsonValue | undefined, r: JsonValue | undefined, schema: Schema | undefined): JsonValue | undefined {
  if (r === undefined) return l;
  if (l === undefined) return cloneJson(r);
  const shape = shapeOf(schema);
  const lc = containerOf(l, shape);
  const rc = containerOf(r, shape);
  if (shape === 'leaf' || lc === 'mismatch' || rc === 'mismatch' || (isEmptyContainer(lc) && isEmptyContainer(rc))) return cloneJson(r);
  if (shape === 'list') return mergeList((lc ?? []) as JsonValue[], (rc ?? []) as JsonValue[], schema as ListSchema);
  return mergeEntries((lc ?? {}) as JsonObject, (rc ?? {}) as JsonObject, schema);
}

function mergeEntries(l: JsonObject, r: JsonObject, schema: Schema | undefined): JsonObject {
  const out: JsonObject = {};
  const put = (k: string, v: JsonValue | undefined): void => {
    if (v !== undefined) setOwn(out, k, v);
  };
  for (const k of Object.keys(l)) put(k, hasOwn(r, k) ? mergeValue(l[k], r[k], fieldSchema(schema, k)) : l[k]);
  for (const k of Object.keys(r)) if (!hasOwn(l, k)) put(k, cloneJson(r[k]!));
  return out;
}

interface ListItem {
  readonly key: string;
  readonly value: JsonValue;
}

/** Items with their element keys; unkeyable live items get a key of their own so they stay. */
function keyItems(items: readonly JsonValue[], list: ListSchema, tag: string): ListItem[] {
  return items.map((value, i) => {
    const e = listItemElement(list, value);
    return { key: typeof e === 'string' ? `${tag}${i}` : serializePathElement(e), value };
  });
}

/**
 * Merges a granular list. Walking both lists at once: a live item the configuration does not
 * mention is kept where it is; a live item it does mention is emitted when the configuration
 * reaches it (so shared items follow the applied order); configuration items are emitted in order,
 * each merged with its live counterpart. A live element listed twice merges as null.
 */
function mergeList(l: readonly JsonValue[], r: readonly JsonValue[], list: ListSchema): JsonValue[] | undefined {
  const lhs = keyItems(l, list, '\u0000live:');
  const rhs = keyItems(r, list, '\u0000applied:');
  const liveByKey = new Map<string, JsonValue>();
  for (const it of lhs) liveByKey.set(it.key, liveByKey.has(it.key) ? null : it.value);
  const appliedKeys = new Set(rhs.map((it) => it.key));
  const shared = rhs.filter((it) => liveByKey.has(it.key)).map((it) => it.key);
  const emitted = new Set<string>();
  const out: JsonValue[] = [];
  let nextShared = 0;
  const emitApplied = (it: ListItem): void => {
    emitted.add(it.key);
    const v = mergeValue(liveByKey.get(it.key), it.value, list.items);
    if (v !== undefined) out.push(v);
    if (shared[nextShared] === it.key) nextShared++;
  };
  let li = 0;
  let ri = 0;
  // Every round consumes a live or an applied item, so lhs + rhs rounds are enough.
  for (let round = 0; round <= lhs.length + rhs.length && (li < lhs.length || ri < rhs.length); round++) {
    const lk = lhs[li]?.key;
    if (lk !== undefined && ri < rhs.length) {
      if (lk === rhs[ri]!.key) {
        emitApplied(rhs[ri]!);
        li++;
        ri++;
        continue;
      }
      // A shared live item that is not the next one the configuration reaches: it comes later.
      if (appliedKeys.has(lk) && nextShared < shared.length && shared[nextShared] !== lk) {
        li++;
        continue;
      }
    }
    if (lk !== undefined) {
      if (!appliedKeys.has(lk)) {
        out.push(lhs[li]!.value);
        li++;
        continue;
      }
      if (emitted.has(lk)) li++;
    }
    if (ri < rhs.length) {
      emitApplied(rhs[ri]!);
      ri++;
    }
  }
  return out.length > 0 ? out : undefined;
}

// ---------------------------------------------------------------------------------------------
// 4. Removing what the applier stopped applying

/**
 * Removes from `merged` what the applier owned last time (`lastSet`) that no owner, the applier's
 * new configuration included, owns now. Declared struct fields on the way count as owned nodes,
 * so a struct left with nothing owned goes whole.
 */
function prune(merged: JsonObject, owners: ReadonlyMap<string, Owner>, lastSet: FieldSet | undefined, schema: Schema): JsonObject {
  if (lastSet === undefined || isEmptySet(lastSet)) return merged;
  let owned = emptyFieldSet;
  for (const o of owners.values()) owned = union(owned, o.fields);
  const last = withNamedFieldsAsMembers(lastSet, schema);
  const toRemove = difference(difference(last, withNamedFieldsAsMembers(owned, schema)), unownedFields);
  return (removeItems(merged, toRemove, schema) ?? {}) as JsonObject;
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

/** Explicit nulls of the configuration are owned but not stored (Go decodes them to nothing). */
function stripNulls(v: JsonValue, schema: Schema | undefined): JsonValue {
  const shape = shapeOf(schema);
  if (Array.isArray(v)) return shape === 'list' ? v.map((x) => stripNulls(x, (schema as ListSchema).items)) : v;
  if (!isObject(v) || schema === undefined || schema.type === 'any') return v;
  if (schema.type !== 'struct' && schema.type !== 'map') return v;
  const out: JsonObject = {};
  for (const k of Object.keys(v)) {
    const x = v[k]!;
    if (x !== null) setOwn(out, k, stripNulls(x, fieldSchema(schema, k)));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// 5. Conflicts

interface Conflict {
  readonly id: string;
  readonly owner: Owner;
  readonly fields: FieldSet;
}

function findConflicts(owners: ReadonlyMap<string, Owner>, applierId: string, changed: FieldSet): Conflict[] {
  const out: Conflict[] = [];
  for (const [id, owner] of owners) {
    if (id === applierId) continue;
    const fields = intersection(owner.fields, changed);
    if (!isEmptySet(fields)) out.push({ id, owner, fields });
  }
  // Upstream sorts managers by identifier (which starts with the name).
  return out.sort((a, b) => compareStrings(a.id, b.id));
}

/** `"name"`, then ` with subresource "x"`, then ` using <apiVersion>` for Update owners. */
export function printManager(o: Pick<Owner, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string {
  let s = goQuote(o.manager);
  if (o.subresource !== '') s += ` with subresource ${goQuote(o.subresource)}`;
  return o.operation === 'Update' ? `${s} using ${o.apiVersion}` : s;
}

function conflictError(conflicts: readonly Conflict[]): ApiError {
  const flat = conflicts.flatMap((c) => pathsOf(c.fields).map((p) => ({ who: printManager(c.owner), path: pathString(p) })));
  let message: string;
  if (flat.length === 1) message = `Apply failed with 1 conflict: conflict with ${flat[0]!.who}: ${flat[0]!.path}`;
  else {
    const lines = conflicts.flatMap((c) => [`conflicts with ${printManager(c.owner)}:`, ...pathsOf(c.fields).map((p) => `- ${pathString(p)}`)]);
    message = `Apply failed with ${flat.length} conflicts: ${lines.join('\n')}`;
  }
  const causes: StatusCause[] = flat.map((f) => ({ reason: 'FieldManagerConflict', message: `conflict with ${f.who}`, field: f.path }));
  return {
    kind: 'ApiError',
    status: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Conflict', details: { causes }, code: 409 },
  };
}
