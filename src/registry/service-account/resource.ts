/**
 * ServiceAccount (pkg/registry/core/serviceaccount): no status, no generation; every `secrets[]`
 * entry is reduced to its name on create and update; setting the deprecated
 * enforce-mountable-secrets annotation earns a warning.
 */
import type { Names } from '../../api/names.ts';
import { allVerbs, metadataFieldSelectors } from '../common/defaultStrategy.ts';
import type { ResourceType } from '../types.ts';
import { tokenRequestSchema } from '../authentication/schema.ts';
import { serviceAccountSchema } from './schema.ts';
import { serviceAccountStrategy } from './strategy.ts';
import { serviceAccountColumns } from './table.ts';

/** A factory: the `token` subresource's kind lives in the authentication group of the names table. */
export const serviceAccountResource = (names: Names): ResourceType => ({
  id: 'core/serviceaccounts',
  group: '',
  version: 'v1',
  resource: 'serviceaccounts',
  singular: 'serviceaccount',
  kind: 'ServiceAccount',
  listKind: 'ServiceAccountList',
  namespaced: true,
  shortNames: ['sa'],
  categories: [],
  verbs: allVerbs,
  schema: serviceAccountSchema,
  nameRule: 'subdomain',
  strategy: serviceAccountStrategy,
  subresources: [{ name: 'token', kind: 'TokenRequest', group: names.authenticationGroup, version: 'v1', verbs: ['create'], schema: tokenRequestSchema }],
  fieldSelectors: metadataFieldSelectors,
  deleteReturnsObject: true,
  allowUnconditionalUpdate: true,
  hasGeneration: false,
  resetFields: [],
  table: serviceAccountColumns,
});
