/**
 * Event field selectors, as the real ones: the involved object's fields, reason, type and
 * reporting component; `source` falls back to reportingComponent when the event has no
 * source.component.
 */
import type { KubeObject } from '../../api/meta.ts';
import { objectField } from '../../core/json.ts';
import type { FieldSelectorFacts } from '../types.ts';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function selectableFields(obj: KubeObject): Record<string, string> {
  const ref = objectField(obj, 'involvedObject');
  const src = objectField(obj, 'source');
  return {
    'metadata.name': obj.metadata.name ?? '',
    'metadata.namespace': obj.metadata.namespace ?? '',
    'involvedObject.kind': str(ref['kind']),
    'involvedObject.namespace': str(ref['namespace']),
    'involvedObject.name': str(ref['name']),
    'involvedObject.uid': str(ref['uid']),
    'involvedObject.apiVersion': str(ref['apiVersion']),
    'involvedObject.resourceVersion': str(ref['resourceVersion']),
    'involvedObject.fieldPath': str(ref['fieldPath']),
    reason: str(obj['reason']),
    reportingComponent: str(obj['reportingComponent']),
    source: str(src['component']) || str(obj['reportingComponent']),
    type: str(obj['type']),
  };
}

export const eventFieldSelectors: FieldSelectorFacts = {
  fields: [
    'metadata.name',
    'metadata.namespace',
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
  ],
  custom: true,
  extract: selectableFields,
};
