/**
 * Service defaulting: SetDefaults_Service (pkg/apis/core/v1/defaults.go), applied to every
 * write, and the allocation the service REST storage does around it (cluster IPs, IP families,
 * node ports; pkg/registry/core/service/storage). Updates carry allocated values over when the
 * client leaves them out, as `patchAllocatedValues` does, so a PUT of an edited manifest
 * without clusterIP keeps the address.
 */
import type { KubeObject } from '../../api/meta.ts';
import { isObject, type JsonObject, type JsonValue } from '../../core/json.ts';
import { clusterIPFor, nodePortFor } from './allocation.ts';

const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});
const list = (v: unknown): JsonValue[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export const isHeadless = (spec: JsonObject): boolean => str(spec['clusterIP']) === 'None';
const needsClusterIP = (spec: JsonObject): boolean => spec['type'] !== 'ExternalName';
const needsNodePorts = (spec: JsonObject): boolean =>
  spec['type'] === 'NodePort' || (spec['type'] === 'LoadBalancer' && spec['allocateLoadBalancerNodePorts'] !== false);
/** ExternallyAccessible: node ports, load balancers, or external IPs. */
const externallyAccessible = (spec: JsonObject): boolean =>
  spec['type'] === 'LoadBalancer' || spec['type'] === 'NodePort' || (spec['type'] === 'ClusterIP' && list(spec['externalIPs']).length > 0);

function defaultPort(p: JsonValue): JsonValue {
  if (!isObject(p)) return p;
  const out: JsonObject = { ...p };
  if (str(out['protocol']) === '') out['protocol'] = 'TCP';
  if (out['targetPort'] === undefined || out['targetPort'] === null || out['targetPort'] === 0 || out['targetPort'] === '') out['targetPort'] = out['port'] ?? 0;
  return out;
}

/** SetDefaults_Service. */
export function defaultSpec(input: JsonObject): JsonObject {
  const spec: JsonObject = { ...input };
  if (str(spec['sessionAffinity']) === '') spec['sessionAffinity'] = 'None';
  if (spec['sessionAffinity'] === 'None') delete spec['sessionAffinityConfig'];
  if (str(spec['type']) === '') spec['type'] = 'ClusterIP';
  if (Array.isArray(spec['ports'])) spec['ports'] = spec['ports'].map(defaultPort);
  if (externallyAccessible(spec) && str(spec['externalTrafficPolicy']) === '') spec['externalTrafficPolicy'] = 'Cluster';
  if ((spec['internalTrafficPolicy'] ?? null) === null && ['NodePort', 'LoadBalancer', 'ClusterIP'].includes(str(spec['type']))) spec['internalTrafficPolicy'] = 'Cluster';
  if (spec['type'] === 'LoadBalancer' && spec['allocateLoadBalancerNodePorts'] === undefined) spec['allocateLoadBalancerNodePorts'] = true;
  return spec;
}

/** Fills cluster IPs, families and node ports still missing after defaulting. */
function allocate(spec: JsonObject, namespace: string, name: string): JsonObject {
  const out: JsonObject = { ...spec };
  if (needsClusterIP(out) && str(out['clusterIP']) === '' && list(out['clusterIPs']).length === 0) out['clusterIP'] = clusterIPFor(namespace, name);
  // normalizeClusterIPs: whichever of clusterIP / clusterIPs the client set fills the other.
  if (str(out['clusterIP']) === '' && list(out['clusterIPs']).length > 0) out['clusterIP'] = list(out['clusterIPs'])[0]!;
  if (str(out['clusterIP']) !== '' && list(out['clusterIPs']).length === 0) out['clusterIPs'] = [out['clusterIP']!];
  if (needsClusterIP(out)) {
    if (list(out['ipFamilies']).length === 0) out['ipFamilies'] = ['IPv4'];
    // A headless service without a selector gets the "most" dual-stack policy, as in Kubernetes.
    if (str(out['ipFamilyPolicy']) === '') out['ipFamilyPolicy'] = isHeadless(out) && Object.keys(obj(out['selector'])).length === 0 ? 'RequireDualStack' : 'SingleStack';
  }
  if (needsNodePorts(out) && Array.isArray(out['ports'])) {
    out['ports'] = out['ports'].map((p, i) => (isObject(p) && !p['nodePort'] ? { ...p, nodePort: nodePortFor(namespace, name, i) } : p));
  }
  return out;
}

export function prepareServiceCreate(svc: KubeObject): KubeObject {
  const spec = allocate(defaultSpec(obj(svc['spec'])), svc.metadata.namespace ?? '', svc.metadata.name ?? '');
  return { ...svc, spec, status: { loadBalancer: {} } };
}

/** patchAllocatedValues and normalizeClusterIPs for an update. */
function carryOver(spec: JsonObject, old: JsonObject): JsonObject {
  const out: JsonObject = { ...spec };
  const before = { ip: str(out['clusterIP']), ips: JSON.stringify(list(out['clusterIPs'])) };
  if (needsClusterIP(old) && needsClusterIP(out)) {
    if (str(out['clusterIP']) === '' && old['clusterIP'] !== undefined) out['clusterIP'] = old['clusterIP'];
    if (list(out['clusterIPs']).length === 0 && old['clusterIPs'] !== undefined) out['clusterIPs'] = old['clusterIPs'];
    for (const key of ['ipFamilies', 'ipFamilyPolicy']) if (out[key] === undefined && old[key] !== undefined) out[key] = old[key];
  }
  // A changed clusterIP with untouched clusterIPs means the client edited clusterIP only.
  const ipsUntouched = before.ips === JSON.stringify(list(old['clusterIPs'])) || before.ips === '[]';
  if (before.ip !== '' && before.ip !== str(old['clusterIP']) && ipsUntouched) out['clusterIPs'] = [before.ip];
  if (needsNodePorts(old) && needsNodePorts(out) && Array.isArray(out['ports'])) {
    const byName = new Map(list(old['ports']).map(obj).map((p) => [str(p['name']), p['nodePort']]));
    const used = new Set(list(out['ports']).map((p) => obj(p)['nodePort']).filter((n) => n));
    out['ports'] = out['ports'].map((p) => {
      const carried = byName.get(str(obj(p)['name']));
      return isObject(p) && !p['nodePort'] && carried && !used.has(carried) ? { ...p, nodePort: carried } : p;
    });
  }
  return out;
}

/** dropTypeDependentFields: values the old type needed and the new one does not go away. */
function dropTypeDependent(spec: JsonObject, old: JsonObject): JsonObject {
  const out: JsonObject = { ...spec };
  if (!needsClusterIP(out) && needsClusterIP(old)) {
    for (const key of ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy']) if (JSON.stringify(out[key]) === JSON.stringify(old[key])) delete out[key];
  }
  if (!needsNodePorts(out) && needsNodePorts(old) && Array.isArray(out['ports'])) {
    const oldPorts = new Set(list(old['ports']).map((p) => obj(p)['nodePort']));
    out['ports'] = out['ports'].map((p) => {
      if (!isObject(p) || !oldPorts.has(p['nodePort'])) return p;
      const { nodePort: _n, ...rest } = p;
      return rest;
    });
  }
  return out;
}

export function prepareServiceUpdate(svc: KubeObject, old: KubeObject): KubeObject {
  const oldSpec = obj(old['spec']);
  const spec = dropTypeDependent(carryOver(defaultSpec(obj(svc['spec'])), oldSpec), oldSpec);
  return { ...svc, spec: allocate(spec, svc.metadata.namespace ?? '', svc.metadata.name ?? '') };
}
