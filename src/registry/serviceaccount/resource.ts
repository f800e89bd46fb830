/**
 * ServiceAccount (pkg/registry/core/serviceaccount): no status, no generation; every `secrets[]`
 * entry is reduced to its name on create and update; setting the deprecated
 * enforce-mountable-secrets annotation earns a warning.
 */
import type { KubeObject } from '../../api/meta.ts';
import { hasOwn, isObject } from '../../core/json.ts';
import { allVerbs, metadataFieldSelectors, strategy } from '../common/defaultStrategy.ts';
import { ageColumn, nameColumn } from '../common/tables.ts';
import type { ResourceType, StrategyContext } from '../types.ts';
import type { Names } from '../../api/names.ts';
import { tokenRequestSchema } from '../authentication/schemas.ts';
import { serviceAccountSchema } from './schema.ts';

function normalizeSecrets(obj: KubeObject): KubeObject {
  const secrets = obj['secrets'];
  if (!Array.isArray(secrets)) return obj;
  return { ...obj, secrets: secrets.map((ref) => (isObject(ref) && typeof ref['name'] === 'string' ? { name: ref['name'] } : { name: '' })) };
}

function enforceWarning(obj: KubeObject, old: KubeObject | null, ctx: StrategyContext): string[] {
  const key = ctx.names.enforceMountableSecretsAnnotation;
  const has = (o: KubeObject | null): boolean => o !== null && o.metadata.annotations !== undefined && hasOwn(o.metadata.annotations, key);
  if (!has(obj) || has(old)) return [];
  return [`metadata.annotations[${key}]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets`];
}

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
  strategy: strategy({
    prepareForCreate: (obj) => normalizeSecrets(obj),
    prepareForUpdate: (obj) => normalizeSecrets(obj),
    warningsOnCreate: (obj, ctx) => enforceWarning(obj, null, ctx),
    warningsOnUpdate: (obj, old, ctx) => enforceWarning(obj, old, ctx),
  }),
  subresources: [{ name: 'token', kind: 'TokenRequest', group: names.authenticationGroup, version: 'v1', verbs: ['create'], schema: tokenRequestSchema }],
  fieldSelectors: metadataFieldSelectors,
  deleteReturnsObject: true,
  allowUnconditionalUpdate: true,
  hasGeneration: false,
  resetFields: [],
  table: [
    nameColumn,
    {
      name: 'Secrets',
      type: 'string',
      format: '',
      description: 'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.',
      priority: 0,
      cell: (obj) => (Array.isArray(obj['secrets']) ? obj['secrets'].length : 0),
    },
    ageColumn,
  ],
});
