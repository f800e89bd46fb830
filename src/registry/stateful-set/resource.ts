/**
 * StatefulSet (apps/v1): defaults, validation, status split and generation as the real registry
 * (pkg/registry/apps/statefulset). The `scale` subresource is served by the endpoints with
 * scale.ts. The controller that brings pods to the spec comes with its own issue.
 */
import { allVerbs, metadataFieldSelectors } from '../common/defaultStrategy.ts';
import type { ResourceType } from '../types.ts';
import { scaleSchema } from './scale.ts';
import { statefulSetSchema } from './schema.ts';
import { statefulSetStatusStrategy, statefulSetStrategy } from './strategy.ts';
import { statefulSetColumns } from './table.ts';

export const statefulSetResource: ResourceType = {
  id: 'apps/statefulsets',
  group: 'apps',
  version: 'v1',
  resource: 'statefulsets',
  singular: 'statefulset',
  kind: 'StatefulSet',
  listKind: 'StatefulSetList',
  namespaced: true,
  shortNames: ['sts'],
  categories: ['all'],
  verbs: allVerbs,
  schema: statefulSetSchema,
  nameRule: 'label',
  strategy: statefulSetStrategy,
  subresources: [
    { name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'], schema: scaleSchema },
    { name: 'status', kind: 'StatefulSet', verbs: ['get', 'patch', 'update'], strategy: statefulSetStatusStrategy },
  ],
  fieldSelectors: metadataFieldSelectors,
  deleteReturnsObject: false,
  allowUnconditionalUpdate: true,
  hasGeneration: true,
  resetFields: ['status'],
  table: statefulSetColumns,
};
