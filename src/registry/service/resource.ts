/**
 * Service (core/v1), a supporting kind: StatefulSets name a headless Service for their pods'
 * DNS. Defaults and allocation in defaults.ts (cluster IPs derived deterministically, see
 * allocation.ts), validation in validation.ts, a `/status` subresource (load balancer status).
 * Names are RFC 1035 labels, checked by the validation (the generic name rule here only keeps
 * names usable as path segments). Field selectors: spec.clusterIP and spec.type besides metadata.
 */
import { allVerbs, keepStatus, strategy } from '../common/defaultStrategy.ts';
import type { ResourceType } from '../types.ts';
import { prepareServiceCreate, prepareServiceUpdate } from './defaults.ts';
import { serviceSchema } from './schema.ts';
import { serviceColumns } from './table.ts';
import { validateServiceCreate, validateServiceUpdate } from './validation.ts';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

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
  strategy: strategy({
    prepareForCreate: prepareServiceCreate,
    prepareForUpdate: (svc, old) => keepStatus(prepareServiceUpdate(svc, old), old),
    validate: validateServiceCreate,
    validateUpdate: validateServiceUpdate,
  }),
  // ValidateServiceStatusUpdate checks only load balancer ingress details: none kept here.
  subresources: [{ name: 'status', kind: 'Service', verbs: ['get', 'patch', 'update'], strategy: strategy({}) }],
  fieldSelectors: {
    fields: ['metadata.name', 'metadata.namespace', 'spec.clusterIP', 'spec.type'],
    custom: true,
    extract: (svc) => {
      const spec = (svc['spec'] ?? {}) as Record<string, unknown>;
      return {
        'metadata.name': svc.metadata.name ?? '',
        'metadata.namespace': svc.metadata.namespace ?? '',
        'spec.clusterIP': str(spec['clusterIP']),
        'spec.type': str(spec['type']),
      };
    },
  },
  deleteReturnsObject: true,
  allowUnconditionalUpdate: true,
  hasGeneration: false,
  resetFields: ['status'],
  table: serviceColumns,
};
