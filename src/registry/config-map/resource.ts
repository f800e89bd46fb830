/**
 * ConfigMap (core/v1), a supporting kind: `data` and `binaryData` with config-key names, and the
 * `immutable` switch that freezes both once set.
 */
import { allVerbs, metadataFieldSelectors } from '../common/defaultStrategy.ts';
import type { ResourceType } from '../types.ts';
import { configMapSchema } from './schema.ts';
import { configMapStrategy } from './strategy.ts';
import { configMapColumns } from './table.ts';

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
  strategy: configMapStrategy,
  subresources: [],
  fieldSelectors: metadataFieldSelectors,
  deleteReturnsObject: false,
  allowUnconditionalUpdate: true,
  hasGeneration: false,
  resetFields: [],
  table: configMapColumns,
};
