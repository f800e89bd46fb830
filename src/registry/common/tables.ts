/**
 * Table columns shared by kinds (kubectl get). Age is computed from the simulation clock.
 */
import { humanAge, parseInstant, type Instant } from '../../core/duration.ts';
import type { KubeObject } from '../../api/meta.ts';
import type { TableColumn } from '../types.ts';

export const nameColumn: TableColumn = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
  priority: 0,
  cell: (obj) => obj.metadata.name ?? '',
};

export function ageOf(obj: KubeObject, now: Instant): string {
  const created = parseInstant(obj.metadata.creationTimestamp ?? '');
  return created === null ? '<unknown>' : humanAge(now - created);
}

export const ageColumn: TableColumn = {
  name: 'Age',
  type: 'string',
  format: '',
  description: 'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
  priority: 0,
  cell: ageOf,
};

/** Default columns for kinds without a printer: Name, Created At. */
export const defaultColumns: readonly TableColumn[] = [
  nameColumn,
  {
    name: 'Created At',
    type: 'date',
    format: '',
    description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
    priority: 0,
    cell: (obj) => obj.metadata.creationTimestamp ?? '',
  },
];
