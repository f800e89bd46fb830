/** `kubectl get serviceaccounts` columns: Name, Secrets (how many), Age. */
import { ageColumn, nameColumn } from '../common/tables.ts';
import type { TableColumn } from '../types.ts';

export const serviceAccountColumns: readonly TableColumn[] = [
  nameColumn,
  {
    name: 'Secrets',
    type: 'string',
    format: '',
    description: 'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.',
    priority: 0,
    cell: (obj) => (Array.isArray(obj['secrets']) ? obj['secrets'].length : 0),
  },
  ageColumn,
];
