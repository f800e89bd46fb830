/**
 * ClusterTrustBundle (certificates.<domain>/v1beta1, pkg/registry/certificates/clustertrustbundle):
 * cluster-scoped, no status, no subresources, stored as sent. PUT needs a resourceVersion.
 * Validation: the signer-tied name rule, signerName syntax (when set) and immutability, and
 * the trust bundle (not parsed again when an update leaves it byte-identical).
 */
import type { Names } from '../../../api/names.ts';
import { allVerbs } from '../../common/defaultStrategy.ts';
import type { ResourceType } from '../../types.ts';
import { attestCreate, attestUpdate } from './attest.ts';
import { clusterTrustBundleFieldSelectors } from './fields.ts';
import { clusterTrustBundleSchema } from './schema.ts';
import { clusterTrustBundleStrategy } from './strategy.ts';
import { clusterTrustBundleColumns } from './table.ts';

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
  strategy: clusterTrustBundleStrategy,
  validateCreateAdmission: attestCreate,
  validateUpdateAdmission: attestUpdate,
  subresources: [],
  fieldSelectors: clusterTrustBundleFieldSelectors,
  deleteReturnsObject: false,
  allowUnconditionalUpdate: false,
  hasGeneration: false,
  resetFields: [],
  table: clusterTrustBundleColumns,
});
