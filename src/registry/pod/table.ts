/** `kubectl get pods` columns: Name, Ready (ready/total containers), Status, Restarts, Age. */
import { isObject, objectField } from '../../core/json.ts';
import { ageColumn, nameColumn } from '../common/tables.ts';
import type { TableColumn } from '../types.ts';

export const podColumns: readonly TableColumn[] = [
  nameColumn,
  {
    name: 'Ready',
    type: 'string',
    format: '',
    description: 'The aggregate readiness state of this pod for accepting traffic.',
    priority: 0,
    cell: (obj) => {
      const spec = objectField(obj, 'spec');
      const status = objectField(obj, 'status');
      const total = Array.isArray(spec['containers']) ? spec['containers'].length : 0;
      const ready = Array.isArray(status['containerStatuses']) ? status['containerStatuses'].filter((c) => isObject(c) && c['ready'] === true).length : 0;
      return `${ready}/${total}`;
    },
  },
  {
    name: 'Status',
    type: 'string',
    format: '',
    description: 'The aggregate status of the containers in this pod.',
    priority: 0,
    cell: (obj) => (obj.metadata.deletionTimestamp !== undefined ? 'Terminating' : String((obj['status'] as { phase?: string } | undefined)?.phase ?? '')),
  },
  {
    name: 'Restarts',
    type: 'string',
    format: '',
    description: 'The number of times the containers in this pod have been restarted.',
    priority: 0,
    cell: () => '0',
  },
  ageColumn,
];
