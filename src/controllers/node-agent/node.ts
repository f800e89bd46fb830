/**
 * The one simulated Node, `node-1`, as its kubelet registers it and posts its status: Ready, with
 * its addresses, capacity and system info. The kubelet's own identity lives here too.
 */
import type { KubeObject } from '../../api/meta.ts';
import { formatInstant, type Instant } from '../../core/duration.ts';
import { isObject, objectField, type JsonObject } from '../../core/json.ts';
import type { Actor, ControllerEnv } from '../types.ts';

export const nodeName = 'node-1';
export const hostIP = '10.0.0.1';

/** The kubelet of the one simulated node: its node identity and field manager. */
export const kubelet: Actor = { manager: 'kubelet', user: { username: `system:node:${nodeName}`, groups: ['system:nodes', 'system:authenticated'] } };

const readyReason = 'NodeAgentReady';
const readyMessage = 'the simulated node agent is posting ready status';

export function nodeObject(env: ControllerEnv): KubeObject {
  const k = env.names.wellKnown;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: nodeName, labels: { [`${k}/hostname`]: nodeName, [`${k}/os`]: 'linux', [`${k}/arch`]: 'amd64' } },
    spec: {},
    status: {
      capacity: { cpu: '8', memory: '32Gi', pods: '110' },
      conditions: [{ type: 'Ready', status: 'True', reason: readyReason, message: readyMessage }],
      addresses: [{ type: 'InternalIP', address: hostIP }, { type: 'Hostname', address: nodeName }],
      nodeInfo: { kubeletVersion: 'v1.32.0-platform-sim', operatingSystem: 'linux', architecture: 'amd64', containerRuntimeVersion: 'sim://1' },
    },
  } as unknown as KubeObject;
}

/** The node's conditions as stored. */
export function nodeConditions(node: KubeObject): JsonObject[] {
  const c = objectField(node, 'status')['conditions'];
  return Array.isArray(c) ? c.filter(isObject) : [];
}

/** The status of the node's Ready condition (`True`, `False`, `Unknown`), undefined without one. */
export function readyStatus(node: KubeObject): string | undefined {
  const ready = nodeConditions(node).find((c) => c['type'] === 'Ready');
  return typeof ready?.['status'] === 'string' ? ready['status'] : undefined;
}

/**
 * The node as a kubelet that comes back posts it: Ready again, heartbeat and transition now (the
 * node lifecycle controller had set it Unknown), its other conditions as they were.
 */
export function postedReady(node: KubeObject, now: Instant): KubeObject {
  const t = formatInstant(now);
  const ready = { type: 'Ready', status: 'True', lastHeartbeatTime: t, lastTransitionTime: t, reason: readyReason, message: readyMessage };
  const others = nodeConditions(node).filter((c) => c['type'] !== 'Ready');
  return { ...node, status: { ...objectField(node, 'status'), conditions: [ready, ...others] } };
}
