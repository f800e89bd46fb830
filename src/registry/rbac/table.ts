/**
 * kubectl columns of RBAC kinds (pkg/printers/internalversion/printers.go): roles show when they
 * were created; bindings show the role and, in wide output, who is bound.
 */
import type { KubeObject } from '../../api/meta.ts';
import { ageColumn, nameColumn } from '../common/tables.ts';
import type { TableColumn } from '../types.ts';
import { roleRefOf, subjectsOf } from './accessors.ts';

export const roleColumns: readonly TableColumn[] = [
  nameColumn,
  { name: 'Created At', type: 'date', format: '', description: ageColumn.description, priority: 0, cell: (obj) => obj.metadata.creationTimestamp ?? '' },
];

/** rbac.SubjectsStrings: service accounts print as `<namespace>/<name>` even without a namespace. */
function subjectNames(obj: KubeObject, kind: string): string {
  return subjectsOf(obj)
    .filter((x) => x.kind === kind)
    .map((x) => (kind === 'ServiceAccount' ? `${x.namespace}/${x.name}` : x.name))
    .join(', ');
}

export function bindingColumns(roleRefDescription: string, noun: 'roleBinding' | 'clusterRoleBinding'): readonly TableColumn[] {
  const who = (name: string, kind: string): TableColumn => ({
    name,
    type: 'string',
    format: '',
    description: `${name} in the ${noun}`,
    priority: 1,
    cell: (obj) => subjectNames(obj, kind),
  });
  return [
    nameColumn,
    { name: 'Role', type: 'string', format: '', description: roleRefDescription, priority: 0, cell: (obj) => `${roleRefOf(obj).kind}/${roleRefOf(obj).name}` },
    ageColumn,
    who('Users', 'User'),
    who('Groups', 'Group'),
    who('ServiceAccounts', 'ServiceAccount'),
  ];
}
