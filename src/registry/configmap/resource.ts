/**
 * ConfigMap (core/v1), a supporting kind: `data` and `binaryData` with config-key names, and the
 * `immutable` switch that freezes both once set.
 */
import { s } from '../../api/schema.ts';
import { objectMetaSchema, type KubeObject } from '../../api/meta.ts';
import { fieldError, type FieldError } from '../../core/fieldErrors.ts';
import { deepEqual } from '../../core/json.ts';
import { allVerbs, metadataFieldSelectors, strategy } from '../common/defaultStrategy.ts';
import { ageColumn, nameColumn } from '../common/tables.ts';
import type { ResourceType } from '../types.ts';
import { validateDataKeys } from '../common/dataKeys.ts';

export const configMapSchema = s.struct('ConfigMap', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  immutable: s.boolean(),
  data: s.map(s.string()),
  binaryData: s.map(s.bytes()),
});

function validateConfigMap(obj: KubeObject): FieldError[] {
  return [...validateDataKeys(obj['data'], 'data'), ...validateDataKeys(obj['binaryData'], 'binaryData')];
}

function validateImmutable(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (old['immutable'] === true) {
    if (obj['immutable'] !== true) errs.push(fieldError.forbidden('immutable', 'field is immutable when `immutable` is set'));
    if (!deepEqual(obj['data'], old['data'])) errs.push(fieldError.forbidden('data', 'field is immutable when `immutable` is set'));
    if (!deepEqual(obj['binaryData'], old['binaryData'])) errs.push(fieldError.forbidden('binaryData', 'field is immutable when `immutable` is set'));
  }
  return errs;
}

export const configMapResource: ResourceType = {
  id: 'core/configmaps',
  group: '',
  version: 'v1',
  resource: 'configmaps',
  singular: 'configmap',
  kind: 'ConfigMap',
  listKind: 'ConfigMapList',
  namespaced: true,
  shortNames: ['cm'],
  categories: [],
  verbs: allVerbs,
  schema: configMapSchema,
  nameRule: 'subdomain',
  strategy: strategy({
    validate: validateConfigMap,
    validateUpdate: (obj, old) => [...validateConfigMap(obj), ...validateImmutable(obj, old)],
  }),
  subresources: [],
  fieldSelectors: metadataFieldSelectors,
  deleteReturnsObject: false,
  allowUnconditionalUpdate: true,
  hasGeneration: false,
  resetFields: [],
  table: [
    nameColumn,
    {
      name: 'Data',
      type: 'integer',
      format: '',
      description: 'Data contains the configuration data.',
      priority: 0,
      cell: (obj) => Object.keys((obj['data'] as object | undefined) ?? {}).length + Object.keys((obj['binaryData'] as object | undefined) ?? {}).length,
    },
    ageColumn,
  ],
};
