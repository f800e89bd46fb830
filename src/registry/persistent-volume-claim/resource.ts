/**
 * PersistentVolumeClaim (core/v1), a supporting kind: StatefulSets create one per
 * volumeClaimTemplate and ordinal. Defaults as the real API server applies them (volumeMode
 * Filesystem, phase Pending, dataSource and dataSourceRef mirrored), a `/status` subresource,
 * and a spec that is immutable once created except for expanding a bound claim.
 * Field selectors: only metadata.name and metadata.namespace (the real `name` field is
 * dropped by the v1 field-label conversion).
 */
import { allVerbs, metadataFieldSelectors } from '../common/defaultStrategy.ts';
import type { ResourceType } from '../types.ts';
import { pvcSchema } from './schema.ts';
import { pvcStatusStrategy, pvcStrategy } from './strategy.ts';
import { pvcColumns } from './table.ts';

export const persistentVolumeClaimResource: ResourceType = {
  id: 'core/persistentvolumeclaims',
  group: '',
  version: 'v1',
  resource: 'persistentvolumeclaims',
  singular: 'persistentvolumeclaim',
  kind: 'PersistentVolumeClaim',
  listKind: 'PersistentVolumeClaimList',
  namespaced: true,
  shortNames: ['pvc'],
  categories: [],
  verbs: allVerbs,
  schema: pvcSchema,
  nameRule: 'subdomain',
  strategy: pvcStrategy,
  subresources: [{ name: 'status', kind: 'PersistentVolumeClaim', verbs: ['get', 'patch', 'update'], strategy: pvcStatusStrategy }],
  fieldSelectors: metadataFieldSelectors,
  deleteReturnsObject: true,
  allowUnconditionalUpdate: true,
  hasGeneration: false,
  resetFields: ['status'],
  table: pvcColumns,
};
