/**
 * Secret (core/v1), a supporting kind: base64 `data`, write-only `stringData` merged into `data`
 * on every write (as the real decoder does), `type` defaulted to `Opaque` and immutable, and the
 * `immutable` switch. Field selectors: metadata.name, metadata.namespace and `type`.
 */
import { allVerbs } from '../common/defaultStrategy.ts';
import type { ResourceType } from '../types.ts';
import { secretFieldSelectors } from './fields.ts';
import { secretSchema } from './schema.ts';
import { secretStrategy } from './strategy.ts';
import { secretColumns } from './table.ts';

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
  strategy: secretStrategy,
  subresources: [],
  fieldSelectors: secretFieldSelectors,
  deleteReturnsObject: false,
  allowUnconditionalUpdate: true,
  hasGeneration: false,
  resetFields: [],
  table: secretColumns,
};
