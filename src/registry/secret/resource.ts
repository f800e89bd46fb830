/**
 * Secret (core/v1), a supporting kind: base64 `data`, write-only `stringData` merged into `data`
 * on every write (as the real decoder does), `type` defaulted to `Opaque` and immutable, and the
 * `immutable` switch. Field selectors: metadata.name, metadata.namespace and `type`.
 */
import { s } from '../../api/schema.ts';
import { objectMetaSchema, type KubeObject } from '../../api/meta.ts';
import { fieldError, type FieldError } from '../../core/fieldErrors.ts';
import { isObject, setOwn, type JsonObject } from '../../core/json.ts';
import { allVerbs, strategy } from '../common/defaultStrategy.ts';
import { ageColumn, nameColumn } from '../common/tables.ts';
import { validateDataKeys, validateImmutableData } from '../common/dataKeys.ts';
import type { ResourceType } from '../types.ts';

export const secretSchema = s.struct('Secret', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  immutable: s.boolean(),
  data: s.map(s.bytes()),
  stringData: s.map(s.string()),
  type: s.string(),
});

/** stringData is write-only: each value is base64-encoded into data (text as UTF-8). */
function foldStringData(obj: KubeObject): KubeObject {
  const stringData = obj['stringData'];
  const out: KubeObject = { ...obj };
  delete out['stringData'];
  if (!isObject(stringData)) return out;
  const data: JsonObject = {};
  const existing = obj['data'];
  if (isObject(existing)) for (const k of Object.keys(existing)) setOwn(data, k, existing[k]!);
  for (const k of Object.keys(stringData)) setOwn(data, k, base64Utf8(String(stringData[k])));
  out['data'] = data;
  return out;
}

function base64Utf8(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

function withDefaults(obj: KubeObject): KubeObject {
  const out = foldStringData(obj);
  if (out['type'] === undefined || out['type'] === '') out['type'] = 'Opaque';
  return out;
}

const secretDataBytesMax = 1024 * 1024;

function validateSecret(obj: KubeObject): FieldError[] {
  const errs = validateDataKeys(obj['data'], 'data');
  const data = obj['data'];
  if (isObject(data)) {
    let total = 0;
    for (const k of Object.keys(data)) total += Math.floor((String(data[k]).length * 3) / 4);
    if (total > secretDataBytesMax) errs.push(fieldError.tooLong('data', secretDataBytesMax));
  }
  return errs;
}

function validateSecretUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateSecret(obj);
  if (obj['type'] !== old['type']) errs.push(fieldError.immutable('type', obj['type']));
  return [...errs, ...validateImmutableData(obj, old, ['data'])];
}

export const secretResource: ResourceType = {
  id: 'core/secrets',
  group: '',
  version: 'v1',
  resource: 'secrets',
  singular: 'secret',
  kind: 'Secret',
  listKind: 'SecretList',
  namespaced: true,
  shortNames: [],
  categories: [],
  verbs: allVerbs,
  schema: secretSchema,
  nameRule: 'subdomain',
  strategy: strategy({
    prepareForCreate: withDefaults,
    prepareForUpdate: (obj) => withDefaults(obj),
    validate: validateSecret,
    validateUpdate: validateSecretUpdate,
  }),
  subresources: [],
  fieldSelectors: {
    fields: ['metadata.name', 'metadata.namespace', 'type'],
    custom: true,
    extract: (obj) => ({ 'metadata.name': obj.metadata.name ?? '', 'metadata.namespace': obj.metadata.namespace ?? '', type: String(obj['type'] ?? '') }),
  },
  deleteReturnsObject: false,
  allowUnconditionalUpdate: true,
  hasGeneration: false,
  resetFields: [],
  table: [
    nameColumn,
    { name: 'Type', type: 'string', format: '', description: 'The type of the secret', priority: 0, cell: (obj) => String(obj['type'] ?? '') },
    {
      name: 'Data',
      type: 'string',
      format: '',
      description: 'The number of entries in the data map',
      priority: 0,
      cell: (obj) => Object.keys((obj['data'] as object | undefined) ?? {}).length,
    },
    ageColumn,
  ],
};
