/**
 * PersistentVolumeClaim defaults as the real API server applies them: volumeMode Filesystem,
 * an unset status phase Pending, dataSource and dataSourceRef mirrored.
 */
import type { KubeObject } from '../../api/meta.ts';
import { isObject, objectField, type JsonObject } from '../../core/json.ts';

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

export function withPvcDefaults(o: KubeObject): KubeObject {
  const spec: JsonObject = { ...objectField(o, 'spec') };
  if (spec['volumeMode'] === undefined || spec['volumeMode'] === null) spec['volumeMode'] = 'Filesystem';
  mirrorDataSources(spec);
  const out: KubeObject = { ...o, spec };
  const status = isObject(o['status']) ? o['status'] : undefined;
  if (status !== undefined && (status['phase'] ?? '') === '') out['status'] = { ...status, phase: 'Pending' };
  return out;
}
