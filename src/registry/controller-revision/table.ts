/** `kubectl get controllerrevisions` columns: Name, Controller (`kind.group/name`), Revision, Age. */
import type { KubeObject } from '../../api/meta.ts';
import { ageColumn, nameColumn } from '../common/tables.ts';
import type { TableColumn } from '../types.ts';

function controllerOf(o: KubeObject): string {
  const owner = (o.metadata.ownerReferences ?? []).find((r) => r.controller === true);
  if (owner === undefined) return '<none>';
  const group = owner.apiVersion.includes('/') ? owner.apiVersion.split('/')[0]! : '';
  return `${owner.kind.toLowerCase()}${group === '' ? '' : `.${group}`}/${owner.name}`;
}

export const controllerRevisionColumns: readonly TableColumn[] = [
  nameColumn,
  { name: 'Controller', type: 'string', format: '', description: 'Controller of the object', priority: 0, cell: controllerOf },
  { name: 'Revision', type: 'integer', format: '', description: 'Revision of the ControllerRevision', priority: 0, cell: (o) => (typeof o['revision'] === 'number' ? o['revision'] : 0) },
  ageColumn,
];
