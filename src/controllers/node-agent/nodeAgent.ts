/**
 * The simulated node agent (CONTRACT.md "Simulated node agent"): the kubelet of one Node. It
 * registers the Node (scheduler.ts binds pending pods to it) and moves each pod through its life
 * in virtual time, writing `pods/status` — running at creation, Ready after `ready-after`, Failed
 * after `fail-after` — and removes it `terminate-after` once deleted (its final delete, grace 0). Each step is applied once, at the moment it is due; a status a test wrote itself
 * is never reverted. Off with `nodeAgent: false`.
 */
import type { KubeObject } from '../../api/meta.ts';
import { isObject, type JsonObject, objectField } from '../../core/json.ts';
import { getObject, listObjects } from '../../store/objects.ts';
import type { Actor, Controller, ControllerEnv, Intent } from '../types.ts';
import type { World } from '../../store/world.ts';
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

const specOf = (pod: KubeObject): JsonObject => (objectField(pod, 'spec'));

function ours(pod: KubeObject): boolean {
  return specOf(pod)['nodeName'] === nodeName;
}

/** The kubelet of the one simulated node: its node identity and field manager. */
const kubelet: Actor = { manager: 'kubelet', user: { username: `system:node:${nodeName}`, groups: ['system:nodes', 'system:authenticated'] } };

/**
 * Whether any of our pods is new to the agent, has a step due that was not applied, or went: the
 * common case of a settle round is none, and then the agent answers without copying its state.
 */
function hasWork(world: World, state: AgentState): boolean {
  let ours_ = 0;
  for (const pod of listObjects(world, 'core/pods', null)) {
    if (!ours(pod)) continue;
    ours_++;
    const uid = pod.metadata.uid ?? '';
    const done = state.applied[uid];
    if (done === undefined || state.ips[uid] === undefined) return true;
    for (const step of dueSteps(pod, world.config.podReadyAfterMs)) if (step.at <= world.now && !done.includes(step.step)) return true;
  }
  return ours_ !== Object.keys(state.applied).length;
}

export const nodeAgent: Controller = {
  name,
  actor: () => kubelet,
  watches: ['core/pods', 'core/nodes'],
  reconcile(world, env) {
    if (!world.config.nodeAgent) return [];
    const intents: Intent[] = [];
    if (getObject(world, 'core/nodes', '', nodeName) === undefined) intents.push({ type: 'create', resource: 'core/nodes', object: nodeObject(env) });
    const state = stateOf(world);
    if (intents.length === 0 && !hasWork(world, state)) return intents;
    const applied: Record<string, readonly Step[]> = {};
    const ips: Record<string, string> = {};
    let nextIp = state.nextIp;
    let changed = false;
    for (const pod of listObjects(world, 'core/pods', null)) {
      const uid = pod.metadata.uid ?? '';
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
        // The containers have stopped: the kubelet's final delete, immediate and for this pod only.
        intents.push({ type: 'delete', resource: 'core/pods', namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '', uid, gracePeriodSeconds: 0 });
        continue;
      }
      const status = all.includes('fail') ? failedStatus(pod, world.now) : runningStatus(pod, { hostIP, podIP: ip }, all.includes('ready'), world.now);
      intents.push({ type: 'update', resource: 'core/pods', subresource: 'status', object: { ...pod, status } as KubeObject });
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
