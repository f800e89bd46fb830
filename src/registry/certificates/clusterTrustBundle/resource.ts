/**
 * ClusterTrustBundle (certificates.<domain>/v1beta1, pkg/registry/certificates/clustertrustbundle):
 * cluster-scoped, no status, no subresources, stored as sent. PUT needs a resourceVersion.
 * Validation: the signer-tied name rule, signerName syntax (when set) and immutability, and
 * the trust bundle (not parsed again when an update leaves it byte-identical).
 */
import type { KubeObject } from '../../../api/meta.ts';
import type { Names } from '../../../api/names.ts';
import { fieldError, type FieldError } from '../../../core/fieldErrors.ts';
import { isObject } from '../../../core/json.ts';
import { allVerbs, strategy } from '../../common/defaultStrategy.ts';
import { nameColumn } from '../../common/tables.ts';
import type { ResourceType, StrategyContext } from '../../types.ts';
import { validateSignerName } from '../signerName.ts';
import { validateBundleName } from './name.ts';
import { clusterTrustBundleSchema } from './schema.ts';
import { attestCreate, attestUpdate } from './attest.ts';
import { validateTrustBundle } from './trustBundle.ts';

function specString(obj: KubeObject, key: 'signerName' | 'trustBundle'): string {
  const spec = isObject(obj['spec']) ? obj['spec'] : {};
  return typeof spec[key] === 'string' ? spec[key] : '';
}

function validateBundle(obj: KubeObject, ctx: StrategyContext, parseBundle: boolean): FieldError[] {
  const signerName = specString(obj, 'signerName');
  return [
    ...validateBundleName(obj.metadata, signerName),
    ...(signerName === '' ? [] : validateSignerName('spec.signerName', signerName)),
    ...(parseBundle ? validateTrustBundle(specString(obj, 'trustBundle'), ctx.crypto) : []),
  ];
}

function validateBundleUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[] {
  const errs = validateBundle(obj, ctx, specString(obj, 'trustBundle') !== specString(old, 'trustBundle'));
  const signerName = specString(obj, 'signerName');
  if (signerName !== specString(old, 'signerName')) errs.push(fieldError.immutable('spec.signerName', signerName));
  return errs;
}

export const clusterTrustBundleResource = (names: Names): ResourceType => ({
  id: 'certificates/clustertrustbundles',
  group: names.certificatesGroup,
  version: 'v1beta1',
  resource: 'clustertrustbundles',
  singular: 'clustertrustbundle',
  kind: 'ClusterTrustBundle',
  listKind: 'ClusterTrustBundleList',
  namespaced: false,
  shortNames: [],
  categories: [],
  verbs: allVerbs,
  schema: clusterTrustBundleSchema,
  nameRule: 'path',
  strategy: strategy({
    validate: (obj, ctx) => validateBundle(obj, ctx, true),
    validateUpdate: validateBundleUpdate,
  }),
  validateCreateAdmission: attestCreate,
  validateUpdateAdmission: attestUpdate,
  subresources: [],
  fieldSelectors: {
    fields: ['metadata.name', 'spec.signerName'],
    custom: true,
    extract: (obj) => ({ 'metadata.name': obj.metadata.name ?? '', 'spec.signerName': specString(obj, 'signerName') }),
  },
  deleteReturnsObject: false,
  allowUnconditionalUpdate: false,
  hasGeneration: false,
  resetFields: [],
  table: [
    nameColumn,
    {
      name: 'SignerName',
      type: 'string',
      format: '',
      description: 'signerName indicates the associated signer, if any.',
      priority: 0,
      cell: (obj) => specString(obj, 'signerName') || '<none>',
    },
  ],
});
