/**
 * Event (core/v1 `events`), a supporting kind that controllers write to record what they did.
 * No status, no generation, no defaults; validation is the legacy core/v1 one (validation.ts).
 * Names only need to be path segments, as the real strategy validates no name syntax.
 * Field selectors follow the real ones: `source` falls back to reportingComponent when the
 * event has no source.component.
 */
import type { KubeObject } from '../../api/meta.ts';
import { isObject, type JsonObject } from '../../core/json.ts';
import { allVerbs, strategy } from '../common/defaultStrategy.ts';
import type { ResourceType } from '../types.ts';
import { eventSchema } from './schema.ts';
import { eventColumns } from './table.ts';
import { validateEvent } from './validation.ts';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function selectableFields(obj: KubeObject): Record<string, string> {
  const ref = (isObject(obj['involvedObject']) ? obj['involvedObject'] : {}) as JsonObject;
  const src = (isObject(obj['source']) ? obj['source'] : {}) as JsonObject;
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

export const eventResource: ResourceType = {
  id: 'core/events',
  group: '',
  version: 'v1',
  resource: 'events',
  singular: 'event',
  kind: 'Event',
  listKind: 'EventList',
  namespaced: true,
  shortNames: ['ev'],
  categories: [],
  verbs: allVerbs,
  schema: eventSchema,
  nameRule: 'path',
  strategy: strategy({ validate: validateEvent, validateUpdate: (obj, _old, ctx) => validateEvent(obj, ctx) }),
  subresources: [],
  fieldSelectors: {
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
  },
  deleteReturnsObject: false,
  allowUnconditionalUpdate: true,
  hasGeneration: false,
  resetFields: [],
  table: eventColumns,
};
