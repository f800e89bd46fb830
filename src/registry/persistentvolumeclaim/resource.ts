/**
 * PersistentVolumeClaim (core/v1), a supporting kind: StatefulSets create one per
 * volumeClaimTemplate and ordinal. Defaults as the real API server applies them (volumeMode
 * Filesystem, phase Pending, dataSource and dataSourceRef mirrored), a `/status` subresource,
 * and a spec that is immutable once created except for expanding a bound claim.
 * Field selectors: only metadata.name and metadata.namespace (the real `name` field is
 * dropped by the v1 field-label conversion).
 */
import type { KubeObject } from '../../api/meta.ts';
import { isObject, type JsonObject } from '../../core/json.ts';
import { allVerbs, keepStatus, metadataFieldSelectors, strategy } from '../common/defaultStrategy.ts';
import type { ResourceType } from '../types.ts';
import { pvcSchema } from './schema.ts';
import { pvcColumns } from './table.ts';
import { validatePvcSpec, validatePvcUpdate } from './validation.ts';

/** NormalizeDataSources: whichever of dataSource / dataSourceRef is set fills the other. */
function mirrorDataSources(spec: JsonObject): void {
  const source = spec['dataSource'];
  const ref = spec['dataSourceRef'];
  if (isObject(source) && ref === undefined) spec['dataSourceRef'] = { ...source };
  else if (isObject(ref) && source === undefined && (ref['namespace'] ?? '') === '') {
    const { namespace: _n, ...local } = ref;
    spec['dataSource'] = local;
  }
}

function withDefaults(o: KubeObject): KubeObject {
  const spec: JsonObject = isObject(o['spec']) ? { ...o['spec'] } : {};
  if (spec['volumeMode'] === undefined || spec['volumeMode'] === null) spec['volumeMode'] = 'Filesystem';
  mirrorDataSources(spec);
  const out: KubeObject = { ...o, spec };
  const status = isObject(o['status']) ? o['status'] : undefined;
  if (status !== undefined && (status['phase'] ?? '') === '') out['status'] = { ...status, phase: 'Pending' };
  return out;
}

const pvcStatusStrategy = strategy({ prepareForUpdate: (o) => withDefaults(o) });

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
  strategy: strategy({
    prepareForCreate: (o) => withDefaults({ ...o, status: { phase: 'Pending' } }),
    prepareForUpdate: (o, old) => keepStatus(withDefaults(o), old),
    validate: validatePvcSpec,
    validateUpdate: validatePvcUpdate,
  }),
  subresources: [{ name: 'status', kind: 'PersistentVolumeClaim', verbs: ['get', 'patch', 'update'], strategy: pvcStatusStrategy }],
  fieldSelectors: metadataFieldSelectors,
  deleteReturnsObject: true,
  allowUnconditionalUpdate: true,
  hasGeneration: false,
  resetFields: ['status'],
  table: pvcColumns,
};
