/**
 * Namespace (core/v1), cluster-scoped. Created `Active` with the `kubernetes` finalizer in
 * spec.finalizers; deletion marks it `Terminating` (the namespace controller empties it, then
 * removes the finalizer and the namespace). Names are DNS-1123 labels. The system namespaces
 * of the names table exist from the start and cannot be deleted.
 */
import type { ResourceType } from '../types.ts';
import { namespaceFieldSelectors } from './fields.ts';
import { namespaceSchema } from './schema.ts';
import { namespaceFinalizeStrategy, namespaceStrategy } from './strategy.ts';
import { keepStatus } from '../common/defaultStrategy.ts';
import { namespaceColumns } from './table.ts';

export const namespaceResource: ResourceType = {
  id: 'core/namespaces',
  group: '',
  version: 'v1',
  resource: 'namespaces',
  singular: 'namespace',
  kind: 'Namespace',
  listKind: 'NamespaceList',
  namespaced: false,
  shortNames: ['ns'],
  categories: [],
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  schema: namespaceSchema,
  nameRule: 'label',
  strategy: namespaceStrategy,
  subresources: [
    { name: 'finalize', kind: 'Namespace', verbs: ['update'], strategy: namespaceFinalizeStrategy, confine: keepStatus },
    { name: 'status', kind: 'Namespace', verbs: ['get', 'patch', 'update'] },
  ],
  fieldSelectors: namespaceFieldSelectors,
  deleteReturnsObject: true,
  allowUnconditionalUpdate: true,
  hasGeneration: false,
  resetFields: ['status'],
  specFinalizers: (obj) => ((obj['spec'] as { finalizers?: string[] } | undefined)?.finalizers ?? []),
  onDeletionStart: (obj) => ({ ...obj, status: { ...((obj['status'] as object | undefined) ?? {}), phase: 'Terminating' } }),
  table: namespaceColumns,
};
