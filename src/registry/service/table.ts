/**
 * Service columns as kubectl prints them (printService): the first cluster IP, external IPs by
 * type (`<pending>` for a load balancer without ingress), ports as `port[:nodePort]/protocol`.
 */
import { isObject, type JsonObject, type JsonValue } from '../../core/json.ts';
import type { KubeObject } from '../../api/meta.ts';
import { ageColumn, nameColumn } from '../common/tables.ts';
import type { TableColumn } from '../types.ts';

const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});
const list = (v: unknown): JsonValue[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const spec = (svc: KubeObject): JsonObject => obj(svc['spec']);

function clusterIP(svc: KubeObject): string {
  const ips = list(spec(svc)['clusterIPs']);
  return ips.length > 0 ? str(ips[0]) : '<none>';
}

function loadBalancerIPs(svc: KubeObject): string[] {
  return list(obj(obj(svc['status'])['loadBalancer'])['ingress'])
    .map(obj)
    .map((i) => str(i['ip']) || str(i['hostname']))
    .filter((s) => s !== '');
}

function externalIP(svc: KubeObject): string {
  const external = list(spec(svc)['externalIPs']).map(str);
  switch (spec(svc)['type']) {
    case 'ClusterIP':
    case 'NodePort':
      return external.length > 0 ? external.join(',') : '<none>';
    case 'LoadBalancer': {
      const all = [...loadBalancerIPs(svc), ...external];
      return all.length > 0 ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return str(spec(svc)['externalName']);
    default:
      return '<unknown>';
  }
}

function ports(svc: KubeObject): string {
  const out = list(spec(svc)['ports']).map(obj).map((p) => {
    const node = typeof p['nodePort'] === 'number' && p['nodePort'] > 0 ? `:${p['nodePort']}` : '';
    return `${String(p['port'] ?? 0)}${node}/${str(p['protocol'])}`;
  });
  return out.length > 0 ? out.join(',') : '<none>';
}

/** labels.FormatLabels: sorted `k=v` pairs, `<none>` when empty. */
function selector(svc: KubeObject): string {
  const sel = obj(spec(svc)['selector']);
  const keys = Object.keys(sel).sort();
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${str(sel[k])}`).join(',');
}

const column = (name: string, description: string, cell: TableColumn['cell'], priority = 0): TableColumn => ({ name, type: 'string', format: '', description, priority, cell });

export const serviceColumns: readonly TableColumn[] = [
  nameColumn,
  column('Type', 'type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer.', (svc) => str(spec(svc)['type'])),
  column('Cluster-IP', 'clusterIP is the IP address of the service and is usually assigned randomly.', clusterIP),
  column('External-IP', 'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.', externalIP),
  column('Port(s)', 'The list of ports that are exposed by this service.', ports),
  ageColumn,
  column('Selector', 'Route service traffic to pods with label keys and values matching this selector.', selector, 1),
];
