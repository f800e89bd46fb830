/** `kubectl get namespaces` columns: Name, Status (the phase), Age. */
import { ageColumn, nameColumn } from '../common/tables.ts';
import type { TableColumn } from '../types.ts';

export const namespaceColumns: readonly TableColumn[] = [
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
];
