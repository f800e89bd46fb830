/**
 * Node (core/v1), cluster-scoped: the simulated node agent registers one per simulated node.
 * As in Kubernetes, a create may carry status (the kubelet registers with it), main-resource
 * updates keep the stored status and `/status` writes keep the spec. Defaults: allocatable
 * copies capacity when absent, and the v1 podCIDR / podCIDRs pair is kept in step (the v1
 * conversion does that). A factory, because the Roles column reads the well-known label domain.
 */
import type { Names } from '../../api/names.ts';
import { allVerbs } from '../common/defaultStrategy.ts';
import type { ResourceType } from '../types.ts';
import { nodeFieldSelectors } from './fields.ts';
import { nodeSchema } from './schema.ts';
import { nodeStatusStrategy, nodeStrategy } from './strategy.ts';
import { nodeColumns } from './table.ts';

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
  strategy: nodeStrategy,
  subresources: [{ name: 'status', kind: 'Node', verbs: ['get', 'patch', 'update'], strategy: nodeStatusStrategy }],
  fieldSelectors: nodeFieldSelectors,
  deleteReturnsObject: false,
  allowUnconditionalUpdate: true,
  hasGeneration: false,
  resetFields: [],
  table: nodeColumns(names),
});
