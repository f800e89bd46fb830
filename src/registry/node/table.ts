/**
 * Node columns as kubectl prints them (printNode): status from the Ready condition plus
 * SchedulingDisabled, roles from `node-role.<well-known>/<role>` labels (and the older
 * `<well-known>/role`), wide columns from status.nodeInfo and addresses.
 */
import { getOwn, isObject, type JsonObject } from '../../core/json.ts';
import type { KubeObject } from '../../api/meta.ts';
import type { Names } from '../../api/names.ts';
import { ageColumn, nameColumn } from '../common/tables.ts';
import type { TableColumn } from '../types.ts';

const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function status(node: KubeObject): string {
  const ready = list(obj(node['status'])['conditions']).map(obj).filter((c) => c['type'] === 'Ready').pop();
  const out = [ready === undefined ? 'Unknown' : ready['status'] === 'True' ? 'Ready' : 'NotReady'];
  if (obj(node['spec'])['unschedulable'] === true) out.push('SchedulingDisabled');
  return out.join(',');
}

function roles(node: KubeObject, names: Names): string {
  const prefix = `node-role.${names.wellKnown}/`;
  const found = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata.labels ?? {})) {
    if (k.startsWith(prefix) && k.length > prefix.length) found.add(k.slice(prefix.length));
    else if (k === `${names.wellKnown}/role` && v !== '') found.add(v);
  }
  return found.size === 0 ? '<none>' : [...found].sort().join(',');
}

function address(node: KubeObject, type: string): string {
  const a = list(obj(node['status'])['addresses']).map(obj).find((x) => x['type'] === type);
  return a === undefined ? '<none>' : str(a['address']);
}

const info = (node: KubeObject, key: string): string => str(getOwn(obj(obj(node['status'])['nodeInfo']), key)) || '<unknown>';

const column = (name: string, description: string, cell: TableColumn['cell'], priority = 0): TableColumn => ({ name, type: 'string', format: '', description, priority, cell });

export function nodeColumns(names: Names): readonly TableColumn[] {
  return [
    nameColumn,
    column('Status', 'The status of the node', status),
    column('Roles', 'The roles of the node', (n) => roles(n, names)),
    ageColumn,
    column('Version', 'Kubelet Version reported by the node.', (n) => str(obj(obj(n['status'])['nodeInfo'])['kubeletVersion'])),
    column('Internal-IP', 'List of addresses reachable to the node.', (n) => address(n, 'InternalIP'), 1),
    column('External-IP', 'List of addresses reachable to the node.', (n) => address(n, 'ExternalIP'), 1),
    column('OS-Image', 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).', (n) => info(n, 'osImage'), 1),
    column('Kernel-Version', "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", (n) => info(n, 'kernelVersion'), 1),
    column('Container-Runtime', 'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).', (n) => info(n, 'containerRuntimeVersion'), 1),
  ];
}
