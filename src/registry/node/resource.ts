/**
 * Node (core/v1), cluster-scoped: the simulated node agent registers one per simulated node.
 * As in Kubernetes, a create may carry status (the kubelet registers with it), main-resource
 * updates keep the stored status and `/status` writes keep the spec. Defaults: allocatable
 * copies capacity when absent, and the v1 podCIDR / podCIDRs pair is kept in step (the v1
 * conversion does that). A factory, because the Roles column reads the well-known label domain.
 */
import type { KubeObject } from '../../api/meta.ts';
import type { Names } from '../../api/names.ts';
import { fieldErrorString, type FieldError } from '../../core/fieldErrors.ts';
import { isObject, type JsonObject } from '../../core/json.ts';
import { allVerbs, keepStatus, strategy } from '../common/defaultStrategy.ts';
import type { ResourceType } from '../types.ts';
import { nodeSchema } from './schema.ts';
import { nodeColumns } from './table.ts';
import { validateNode, validateNodeUpdateOnly } from './validation.ts';

function syncPodCIDRs(spec: JsonObject): JsonObject {
  const out = { ...spec };
  const cidrs = Array.isArray(spec['podCIDRs']) ? spec['podCIDRs'] : [];
  const single = typeof spec['podCIDR'] === 'string' ? spec['podCIDR'] : '';
  if (cidrs.length === 0 && single !== '') out['podCIDRs'] = [single];
  else if (cidrs.length > 0) out['podCIDR'] = cidrs[0]!;
  return out;
}

/** SetDefaults_NodeStatus: allocatable is capacity until something says otherwise. */
function defaultStatus(node: KubeObject): KubeObject {
  const status = node['status'];
  if (!isObject(status) || !isObject(status['capacity']) || status['allocatable'] !== undefined) return node;
  return { ...node, status: { ...status, allocatable: { ...status['capacity'] } } };
}

function withDefaults(node: KubeObject): KubeObject {
  const spec = isObject(node['spec']) ? syncPodCIDRs(node['spec']) : {};
  return defaultStatus({ ...node, spec });
}

/** ValidateNode and ValidateNodeUpdate both look at taints and resources: report each once. */
function unique(errs: readonly FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errs.filter((e) => !seen.has(fieldErrorString(e)) && seen.add(fieldErrorString(e)) !== undefined);
}

const nodeStatusStrategy = strategy({
  prepareForUpdate: (node) => defaultStatus(node),
  validateUpdate: validateNodeUpdateOnly,
});

export const nodeResource = (names: Names): ResourceType => ({
  id: 'core/nodes',
  group: '',
  version: 'v1',
  resource: 'nodes',
  singular: 'node',
  kind: 'Node',
  listKind: 'NodeList',
  namespaced: false,
  shortNames: ['no'],
  categories: [],
  verbs: allVerbs,
  schema: nodeSchema,
  nameRule: 'subdomain',
  strategy: strategy({
    prepareForCreate: withDefaults,
    prepareForUpdate: (node, old) => keepStatus(withDefaults(node), old),
    validate: validateNode,
    validateUpdate: (node, old) => unique([...validateNode(node), ...validateNodeUpdateOnly(node, old)]),
  }),
  subresources: [{ name: 'status', kind: 'Node', verbs: ['get', 'patch', 'update'], strategy: nodeStatusStrategy }],
  fieldSelectors: {
    fields: ['metadata.name', 'spec.unschedulable'],
    custom: true,
    extract: (node) => ({
      'metadata.name': node.metadata.name ?? '',
      'spec.unschedulable': String((node['spec'] as { unschedulable?: unknown } | undefined)?.unschedulable === true),
    }),
  },
  deleteReturnsObject: false,
  allowUnconditionalUpdate: true,
  hasGeneration: false,
  resetFields: [],
  table: nodeColumns(names),
});
