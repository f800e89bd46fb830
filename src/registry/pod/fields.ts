/** Pod field selectors (pkg/registry/core/pod PodToSelectableFields). */
import { objectField } from '../../core/json.ts';
import type { FieldSelectorFacts } from '../types.ts';

export const podFieldSelectors: FieldSelectorFacts = {
  fields: ['metadata.name', 'metadata.namespace', 'spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'spec.hostNetwork', 'status.phase', 'status.podIP', 'status.nominatedNodeName'],
  custom: true,
  extract: (obj) => {
    const spec = objectField(obj, 'spec');
    const status = objectField(obj, 'status');
    const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
    return {
      'metadata.name': obj.metadata.name ?? '',
      'metadata.namespace': obj.metadata.namespace ?? '',
      'spec.nodeName': str(spec['nodeName']),
      'spec.restartPolicy': str(spec['restartPolicy']),
      'spec.schedulerName': str(spec['schedulerName']),
      'spec.serviceAccountName': str(spec['serviceAccountName']),
      'spec.hostNetwork': str(spec['hostNetwork'] ?? false),
      'status.phase': str(status['phase']),
      'status.podIP': str(status['podIP']),
      'status.nominatedNodeName': str(status['nominatedNodeName']),
    };
  },
};
