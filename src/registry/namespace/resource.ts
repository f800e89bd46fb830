/**
 * Namespace (core/v1), cluster-scoped. Created `Active` with the `kubernetes` finalizer in
 * spec.finalizers; deletion marks it `Terminating` (the namespace controller empties it, then
 * removes the finalizer and the namespace). Names are DNS-1123 labels. The system namespaces
 * of the names table exist from the start and cannot be deleted.
 */
import { s } from '../../api/schema.ts';
import { objectMetaSchema, type KubeObject } from '../../api/meta.ts';
import { fixedNames } from '../../api/names.ts';
import { keepStatus, strategy } from '../common/defaultStrategy.ts';
import { ageColumn, nameColumn } from '../common/tables.ts';
import type { ResourceType, StrategyContext } from '../types.ts';

export const namespaceSchema = s.struct('Namespace', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  spec: s.struct('NamespaceSpec', { finalizers: s.atomicList(s.string()) }),
  status: s.struct('NamespaceStatus', {
    phase: s.string(),
    conditions: s.keyedList(
      s.struct('NamespaceCondition', {
        type: s.string(),
        status: s.string(),
        lastTransitionTime: s.time(),
        reason: s.string(),
        message: s.string(),
      }),
      'type',
    ),
  }),
});

/** Every namespace carries its name as a label (`kubernetes.io/metadata.name`, renamed by the names table). */
function nameLabel(ctx: StrategyContext): string {
  return `${ctx.names.wellKnown}/metadata.name`;
}

function prepareNamespace(obj: KubeObject, ctx: StrategyContext): KubeObject {
  const name = obj.metadata.name ?? '';
  const labels = { ...(obj.metadata.labels ?? {}), [nameLabel(ctx)]: name };
  return {
    ...obj,
    metadata: { ...obj.metadata, labels },
    spec: { finalizers: [fixedNames.namespaceFinalizer] },
    status: { phase: 'Active' },
  };
}

function keepNameLabel(obj: KubeObject, old: KubeObject, ctx: StrategyContext): KubeObject {
  const out = keepStatus(obj, old);
  out['spec'] = old['spec'];
  const labels = { ...(obj.metadata.labels ?? {}), [nameLabel(ctx)]: obj.metadata.name ?? '' };
  return { ...out, metadata: { ...out.metadata, labels } };
}

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
  strategy: strategy({ prepareForCreate: prepareNamespace, prepareForUpdate: keepNameLabel }),
  subresources: [{ name: 'status', kind: 'Namespace', verbs: ['get', 'patch', 'update'] }],
  fieldSelectors: {
    fields: ['metadata.name', 'status.phase'],
    custom: true,
    extract: (obj) => ({ 'metadata.name': obj.metadata.name ?? '', 'status.phase': String((obj['status'] as { phase?: string } | undefined)?.phase ?? '') }),
  },
  deleteReturnsObject: true,
  allowUnconditionalUpdate: true,
  hasGeneration: false,
  resetFields: ['status'],
  specFinalizers: (obj) => ((obj['spec'] as { finalizers?: string[] } | undefined)?.finalizers ?? []),
  onDeletionStart: (obj) => ({ ...obj, status: { ...((obj['status'] as object | undefined) ?? {}), phase: 'Terminating' } }),
  table: [
    nameColumn,
    {
      name: 'Status',
      type: 'string',
      format: '',
      description: 'The status of the namespace',
      priority: 0,
      cell: (obj) => String((obj['status'] as { phase?: string } | undefined)?.phase ?? ''),
    },
    ageColumn,
  ],
};
