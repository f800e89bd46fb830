/** `kubectl get configmaps` columns: Name, Data (entries in data and binaryData), Age. */
import { ageColumn, nameColumn } from '../common/tables.ts';
import type { TableColumn } from '../types.ts';

export const configMapColumns: readonly TableColumn[] = [
  nameColumn,
  {
    name: 'Data',
    type: 'integer',
    format: '',
    description: 'Data contains the configuration data.',
    priority: 0,
    cell: (obj) => Object.keys((obj['data'] as object | undefined) ?? {}).length + Object.keys((obj['binaryData'] as object | undefined) ?? {}).length,
  },
  ageColumn,
];
