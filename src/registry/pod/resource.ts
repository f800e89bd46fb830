/**
 * Pod (core/v1), a supporting kind: defaults as the real API server applies them, a `/status`
 * subresource, spec immutability apart from the fields Kubernetes lets change, and graceful
 * deletion for pods bound to a node (a pod with no `spec.nodeName` goes at once).
 */
import { bindingSchema } from './binding.ts';
import { allVerbs } from '../common/defaultStrategy.ts';
import type { ResourceType } from '../types.ts';
import { podFieldSelectors } from './fields.ts';
import { podSchema } from './schema.ts';
import { serviceAccountAdmission } from './serviceAccountAdmission.ts';
import { podGracefulDeletion, podStatusStrategy, podStrategy } from './strategy.ts';
import { podColumns } from './table.ts';

export const podResource: ResourceType = {
  id: 'core/pods',
  group: '',
  version: 'v1',
  resource: 'pods',
  singular: 'pod',
  kind: 'Pod',
  listKind: 'PodList',
  namespaced: true,
  shortNames: ['po'],
  categories: ['all'],
  verbs: allVerbs,
  schema: podSchema,
  nameRule: 'subdomain',
  strategy: podStrategy,
  subresources: [
    { name: 'binding', kind: 'Binding', verbs: ['create'], schema: bindingSchema },
    { name: 'status', kind: 'Pod', verbs: ['get', 'patch', 'update'], strategy: podStatusStrategy },
  ],
  fieldSelectors: podFieldSelectors,
  deleteReturnsObject: true,
  allowUnconditionalUpdate: true,
  hasGeneration: true,
  resetFields: ['status'],
  admitCreate: serviceAccountAdmission,
  gracefulDeletion: podGracefulDeletion,
  table: podColumns,
};
