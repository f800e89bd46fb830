/**
 * The simulated node agent (CONTRACT.md "Simulated node agent"): registers a Node, binds pending
 * pods to it (the scheduler's part), and moves each pod through its life in virtual time — running
 * at creation, Ready after `ready-after`, Failed after `fail-after`, removed `terminate-after`
 * once deleted. Each step is applied once, at the moment it is due; a status a test wrote itself
 * is never reverted. Off with `nodeAgent: false`.
 */
import type { KubeObject } from '../../api/meta.ts';
import { isObject, type JsonObject } from '../../core/json.ts';
import { getObject, listObjects } from '../../store/objects.ts';
import type { Controller, ControllerEnv, Intent } from '../types.ts';
import { dueSteps, type Step } from './lifecycle.ts';
import { failedStatus, runningStatus } from './podStatus.ts';

export const nodeName = 'node-1';
const hostIP = '10.0.0.1';
const name = 'node-agent';

interface AgentState {
  /** Steps already applied, by pod uid. */
  readonly applied: Readonly<Record<string, readonly Step[]>>;
  /** Pod IPs handed out, by pod uid, and the next one. */
  readonly ips: Readonly<Record<string, string>>;
  readonly nextIp: number;
}

const emptyState: AgentState = { applied: {}, ips: {}, nextIp: 2 };

function stateOf(world: { controllers: Readonly<Record<string, unknown>> }): AgentState {
  const s = world.controllers[name];
  return isObject(s) ? (s as unknown as AgentState) : emptyState;
}

function nodeObject(env: ControllerEnv): KubeObject {
  const k = env.names.wellKnown;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: nodeName, labels: { [`${k}/hostname`]: nodeName, [`${k}/os`]: 'linux', [`${k}/arch`]: 'amd64' } },
    spec: {},
    status: {
      capacity: { cpu: '8', memory: '32Gi', pods: '110' },
      conditions: [{ type: 'Ready', status: 'True', reason: 'NodeAgentReady', message: 'the simulated node agent is posting ready status' }],
      addresses: [{ type: 'InternalIP', address: hostIP }, { type: 'Hostname', address: nodeName }],
      nodeInfo: { kubeletVersion: 'v1.32.0-platform-sim', operatingSystem: 'linux', architecture: 'amd64', containerRuntimeVersion: 'sim://1' },
    },
  } as unknown as KubeObject;
}

const specOf = (pod: KubeObject): JsonObject => (isObject(pod['spec']) ? pod['spec'] : {});

function ours(pod: KubeObject): boolean {
  return specOf(pod)['nodeName'] === nodeName;
}

export const nodeAgent: Controller = {
  name,
  reconcile(world, env) {
    if (!world.config.nodeAgent) return [];
    const intents: Intent[] = [];
    if (getObject(world, 'core/nodes', '', nodeName) === undefined) intents.push({ type: 'create', resource: 'core/nodes', object: nodeObject(env) });
    const state = stateOf(world);
    const applied: Record<string, readonly Step[]> = {};
    const ips: Record<string, string> = {};
    let nextIp = state.nextIp;
    let changed = false;
    for (const pod of listObjects(world, 'core/pods', null)) {
      const uid = pod.metadata.uid ?? '';
      const spec = specOf(pod);
      if ((spec['nodeName'] === undefined || spec['nodeName'] === '') && pod.metadata.deletionTimestamp === undefined) {
        // Binding, as the scheduler would: the node is the only one.
        const status: JsonObject = { ...(isObject(pod['status']) ? pod['status'] : {}), conditions: [{ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: pod.metadata.creationTimestamp ?? '' }] };
        intents.push({ type: 'write', resource: 'core/pods', object: { ...pod, spec: { ...spec, nodeName }, status } as KubeObject });
        continue;
      }
      if (!ours(pod)) continue;
      const done = state.applied[uid] ?? [];
      const ip = state.ips[uid] ?? `10.244.0.${nextIp++}`;
      if (state.ips[uid] === undefined) changed = true;
      ips[uid] = ip;
      const due = dueSteps(pod, world.config.podReadyAfterMs).filter((s) => s.at <= world.now && !done.includes(s.step)).map((s) => s.step);
      applied[uid] = [...done, ...due];
      if (due.length === 0) continue;
      changed = true;
      const all = applied[uid]!;
      if (due.includes('remove')) {
        intents.push({ type: 'write', resource: 'core/pods', object: { ...pod, metadata: { ...pod.metadata, deletionGracePeriodSeconds: 0 } } });
        continue;
      }
      const status = all.includes('fail') ? failedStatus(pod, world.now) : runningStatus(pod, { hostIP, podIP: ip }, all.includes('ready'), world.now);
      intents.push({ type: 'write', resource: 'core/pods', object: { ...pod, status } as KubeObject });
    }
    const gone = Object.keys(state.applied).some((uid) => applied[uid] === undefined);
    if (changed || gone) intents.push({ type: 'remember', controller: name, state: { applied, ips, nextIp } });
    return intents;
  },
  nextWakeup(world) {
    if (!world.config.nodeAgent) return null;
    const state = stateOf(world);
    let next: number | null = null;
    for (const pod of listObjects(world, 'core/pods', null)) {
      if (!ours(pod)) continue;
      const done = state.applied[pod.metadata.uid ?? ''] ?? [];
      for (const s of dueSteps(pod, world.config.podReadyAfterMs)) {
        if (!done.includes(s.step) && s.at > world.now && (next === null || s.at < next)) next = s.at;
      }
    }
    return next;
  },
};
