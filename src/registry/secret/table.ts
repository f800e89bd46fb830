/** `kubectl get secrets` columns: Name, Type, Data (number of entries), Age. */
import { ageColumn, nameColumn } from '../common/tables.ts';
import type { TableColumn } from '../types.ts';

export const secretColumns: readonly TableColumn[] = [
  nameColumn,
  { name: 'Type', type: 'string', format: '', description: 'The type of the secret', priority: 0, cell: (obj) => String(obj['type'] ?? '') },
  {
    name: 'Data',
    type: 'string',
    format: '',
    description: 'The number of entries in the data map',
    priority: 0,
    cell: (obj) => Object.keys((obj['data'] as object | undefined) ?? {}).length,
  },
  ageColumn,
];
