/**
 * Service (core/v1), a supporting kind: StatefulSets name a headless Service for their pods'
 * DNS. Defaults and allocation in defaults.ts (cluster IPs derived deterministically, see
 * allocation.ts), validation in validation.ts, a `/status` subresource (load balancer status).
 * Names are RFC 1035 labels, checked by the validation (the generic name rule here only keeps
 * names usable as path segments). Field selectors: spec.clusterIP and spec.type besides metadata.
 */
import { allVerbs } from '../common/defaultStrategy.ts';
import type { ResourceType } from '../types.ts';
import { serviceFieldSelectors } from './fields.ts';
import { serviceSchema } from './schema.ts';
import { serviceStatusStrategy, serviceStrategy } from './strategy.ts';
import { serviceColumns } from './table.ts';

export const serviceResource: ResourceType = {
  id: 'core/services',
  group: '',
  version: 'v1',
  resource: 'services',
  singular: 'service',
  kind: 'Service',
  listKind: 'ServiceList',
  namespaced: true,
  shortNames: ['svc'],
  categories: ['all'],
  verbs: allVerbs,
  schema: serviceSchema,
  nameRule: 'path',
  strategy: serviceStrategy,
  subresources: [{ name: 'status', kind: 'Service', verbs: ['get', 'patch', 'update'], strategy: serviceStatusStrategy }],
  fieldSelectors: serviceFieldSelectors,
  deleteReturnsObject: true,
  allowUnconditionalUpdate: true,
  hasGeneration: false,
  resetFields: ['status'],
  table: serviceColumns,
};
