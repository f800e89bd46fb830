/** `kubectl get statefulsets` columns: Name, Ready, Age; wide: Containers, Images. */
import type { KubeObject } from '../../api/meta.ts';
import { isObject, objectField } from '../../core/json.ts';
import { ageColumn, nameColumn } from '../common/tables.ts';
import type { TableColumn } from '../types.ts';

const containers = (o: KubeObject): { name: string; image: string }[] => {
  const spec = objectField(o, 'spec');
  const tpl = objectField(spec, 'template');
  const ps = objectField(tpl, 'spec');
  return Array.isArray(ps['containers']) ? ps['containers'].filter(isObject).map((c) => ({ name: String(c['name'] ?? ''), image: String(c['image'] ?? '') })) : [];
};

export const statefulSetColumns: readonly TableColumn[] = [
  nameColumn,
  {
    name: 'Ready',
    type: 'string',
    format: '',
    description: 'Number of the pod with ready state',
    priority: 0,
    cell: (o) => {
      const st = objectField(o, 'status');
      const spec = objectField(o, 'spec');
      return `${Number(st['readyReplicas'] ?? 0)}/${Number(spec['replicas'] ?? 0)}`;
    },
  },
  ageColumn,
  { name: 'Containers', type: 'string', format: '', description: 'Names of each container in the template.', priority: 1, cell: (o) => containers(o).map((c) => c.name).join(',') },
  { name: 'Images', type: 'string', format: '', description: 'Images referenced by each container in the template.', priority: 1, cell: (o) => containers(o).map((c) => c.image).join(',') },
];
