/**
 * ConfigMap (core/v1), a supporting kind: `data` and `binaryData` with config-key names, and the
 * `immutable` switch that freezes both once set.
 */
import { s } from '../../api/schema.ts';
import { objectMetaSchema, type KubeObject } from '../../api/meta.ts';
import type { FieldError } from '../../core/fieldErrors.ts';
import { allVerbs, metadataFieldSelectors, strategy } from '../common/defaultStrategy.ts';
import { ageColumn, nameColumn } from '../common/tables.ts';
import type { ResourceType } from '../types.ts';
import { validateDataKeys, validateImmutableData } from '../common/dataKeys.ts';

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
    validateUpdate: (obj, old) => [...validateConfigMap(obj), ...validateImmutableData(obj, old, ['data', 'binaryData'])],
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
