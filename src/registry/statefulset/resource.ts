/**
 * StatefulSet (apps/v1): defaults, validation, status split and generation as the real registry
 * (pkg/registry/apps/statefulset). The `scale` subresource is served by the endpoints with
 * scale.ts. The controller that brings pods to the spec comes with its own issue.
 */
import type { KubeObject } from '../../api/meta.ts';
import { isObject } from '../../core/json.ts';
import { allVerbs, keepAllButStatus, keepStatus, metadataFieldSelectors, strategy } from '../common/defaultStrategy.ts';
import { ageColumn, nameColumn } from '../common/tables.ts';
import type { ResourceType } from '../types.ts';
import { withStatefulSetDefaults } from './defaults.ts';
import { scaleSchema } from './scale.ts';
import { statefulSetSchema } from './schema.ts';
import { validateStatefulSetSpec, validateStatefulSetStatus, validateStatefulSetUpdate } from './validation.ts';

function revisionHistoryWarning(o: KubeObject): string[] {
  const spec = isObject(o['spec']) ? o['spec'] : {};
  const limit = spec['revisionHistoryLimit'];
  return typeof limit === 'number' && limit < 0 ? ['spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended'] : [];
}

const containers = (o: KubeObject): { name: string; image: string }[] => {
  const spec = isObject(o['spec']) ? o['spec'] : {};
  const tpl = isObject(spec['template']) ? spec['template'] : {};
  const ps = isObject(tpl['spec']) ? tpl['spec'] : {};
  return Array.isArray(ps['containers']) ? ps['containers'].filter(isObject).map((c) => ({ name: String(c['name'] ?? ''), image: String(c['image'] ?? '') })) : [];
};

export const statefulSetResource: ResourceType = {
  id: 'apps/statefulsets',
  group: 'apps',
  version: 'v1',
  resource: 'statefulsets',
  singular: 'statefulset',
  kind: 'StatefulSet',
  listKind: 'StatefulSetList',
  namespaced: true,
  shortNames: ['sts'],
  categories: ['all'],
  verbs: allVerbs,
  schema: statefulSetSchema,
  nameRule: 'label',
  strategy: strategy({
    prepareForCreate: (o) => withStatefulSetDefaults(o),
    validate: (o) => validateStatefulSetSpec(o),
    warningsOnCreate: revisionHistoryWarning,
    prepareForUpdate: (o, old) => keepStatus(withStatefulSetDefaults(o), old),
    validateUpdate: (o, old) => validateStatefulSetUpdate(o, old),
    warningsOnUpdate: revisionHistoryWarning,
  }),
  subresources: [
    { name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'], schema: scaleSchema },
    {
      name: 'status',
      kind: 'StatefulSet',
      verbs: ['get', 'patch', 'update'],
      strategy: strategy({ prepareForUpdate: keepAllButStatus, validateUpdate: (o, old) => validateStatefulSetStatus(o, old) }),
    },
  ],
  fieldSelectors: metadataFieldSelectors,
  deleteReturnsObject: false,
  allowUnconditionalUpdate: true,
  hasGeneration: true,
  resetFields: ['status'],
  table: [
    nameColumn,
    {
      name: 'Ready',
      type: 'string',
      format: '',
      description: 'Number of the pod with ready state',
      priority: 0,
      cell: (o) => {
        const st = isObject(o['status']) ? o['status'] : {};
        const spec = isObject(o['spec']) ? o['spec'] : {};
        return `${Number(st['readyReplicas'] ?? 0)}/${Number(spec['replicas'] ?? 0)}`;
      },
    },
    ageColumn,
    { name: 'Containers', type: 'string', format: '', description: 'Names of each container in the template.', priority: 1, cell: (o) => containers(o).map((c) => c.name).join(',') },
    { name: 'Images', type: 'string', format: '', description: 'Images referenced by each container in the template.', priority: 1, cell: (o) => containers(o).map((c) => c.image).join(',') },
  ],
};
