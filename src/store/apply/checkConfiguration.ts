/**
 * Step 1 of server-side apply: is the body an apply configuration this endpoint takes?
 *
 * Rules this file keeps:
 * - Checks run in upstream's order and the first failure wins: the body is an object; its
 *   apiVersion (and kind, when the endpoint names it) is the endpoint's (400 `invalid object type:
 *   <g>/<v>, Kind=<K>`); it carries no managedFields (400 `metadata.managedFields must be nil`);
 *   it fits the schema (400 `failed to create typed patch object (...)`: undeclared fields, list
 *   keys, scalar types), with every type error listed.
 * - Keys are visited in sorted order, so the listed errors are deterministic.
 * Must not know: the live object, owners, what happens after the check.
 */
import { parseGroupVersion } from '../../api/meta.ts';
import type { ListSchema, Schema } from '../../api/schema.ts';
import { compareStrings } from '../../core/compareStrings.ts';
import { goJsonTypeName, goSharpV, goV, goValueType } from '../../core/goFormat.ts';
import { getOwn, hasOwn, isObject, objectField, type JsonObject, type JsonValue } from '../../core/json.ts';
import { errors, type ApiError } from '../../core/status.ts';
import { pathElementString, serializePathElement } from './pathString.ts';
import { fieldSchema, listItemElement } from './schemaShape.ts';

export interface ConfigurationCheckInput {
  readonly applied: JsonObject;
  /** The endpoint's `group/version` (`v1` for core). */
  readonly apiVersion: string;
  /** The endpoint's Kind; when given, a body of another kind is refused. */
  readonly kind?: string;
  readonly schema: Schema;
}

/** The 400 that refuses the configuration, or null when it may be applied. */
export function checkConfiguration(input: ConfigurationCheckInput): ApiError | null {
  const applied = input.applied as JsonValue;
  if (!isObject(applied)) return errors.badRequest(`error decoding YAML: json: cannot unmarshal ${goJsonTypeName(applied)} into Go value of type map[string]interface {}`);
  const kindMismatch = input.kind !== undefined && stringAt(applied, 'kind') !== input.kind;
  if (stringAt(applied, 'apiVersion') !== input.apiVersion || kindMismatch) return errors.badRequest(`invalid object type: ${gvkString(applied)}`);
  const meta = objectField(applied, 'metadata');
  if (hasOwn(meta, 'managedFields') && meta['managedFields'] !== null) return errors.badRequest('metadata.managedFields must be nil');
  const typeErrors: string[] = [];
  validate(applied, input.schema, '', typeErrors);
  if (typeErrors.length === 0) return null;
  const what = typeErrors.length === 1 ? typeErrors[0]! : ['errors:', ...typeErrors.map((e) => `  ${e}`)].join('\n');
  return errors.badRequest(`failed to create typed patch object (${stringAt(meta, 'namespace')}/${stringAt(meta, 'name')}; ${gvkString(applied)}): ${what}`);
}

function stringAt(obj: JsonObject, key: string): string {
  const v = getOwn(obj, key);
  return typeof v === 'string' ? v : '';
}

/** How an apply error names the configuration: `<namespace>/<name>; <group>/<version>, Kind=<kind>` (objectGVKNN). */
export function appliedObjectName(applied: JsonObject): string {
  const meta = objectField(applied, 'metadata');
  return `${stringAt(meta, 'namespace')}/${stringAt(meta, 'name')}; ${gvkString(applied)}`;
}

function gvkString(applied: JsonObject): string {
  const gv = parseGroupVersion(stringAt(applied, 'apiVersion'));
  return `${gv.group}/${gv.version}, Kind=${stringAt(applied, 'kind')}`;
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
      return typeof v === 'number' ? null : `expected numeric (int or float), got ${goValueType(v)}`;
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
