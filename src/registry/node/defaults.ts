/**
 * Node defaults: allocatable copies capacity when absent (SetDefaults_NodeStatus), and the v1
 * podCIDR / podCIDRs pair is kept in step (the v1 conversion does that).
 */
import type { KubeObject } from '../../api/meta.ts';
import { isObject, type JsonObject } from '../../core/json.ts';

function syncPodCIDRs(spec: JsonObject): JsonObject {
  const out = { ...spec };
  const cidrs = Array.isArray(spec['podCIDRs']) ? spec['podCIDRs'] : [];
  const single = typeof spec['podCIDR'] === 'string' ? spec['podCIDR'] : '';
  if (cidrs.length === 0 && single !== '') out['podCIDRs'] = [single];
  else if (cidrs.length > 0) out['podCIDR'] = cidrs[0]!;
  return out;
}

/** SetDefaults_NodeStatus: allocatable is capacity until something says otherwise. */
export function defaultNodeStatus(node: KubeObject): KubeObject {
  const status = node['status'];
  if (!isObject(status) || !isObject(status['capacity']) || status['allocatable'] !== undefined) return node;
  return { ...node, status: { ...status, allocatable: { ...status['capacity'] } } };
}

export function withNodeDefaults(node: KubeObject): KubeObject {
  const spec = isObject(node['spec']) ? syncPodCIDRs(node['spec']) : {};
  return defaultNodeStatus({ ...node, spec });
}
