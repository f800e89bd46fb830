/**
 * The node lifecycle controller of kube-controller-manager (pkg/controller/nodelifecycle), for the
 * simulated node: it watches the kubelet's heartbeat and acts when it stops, as v1.34 does.
 *
 * - Health: once the kubelet has been silent for the node-monitor grace period (50 s since
 *   v1.32, kubernetes#126287) the node's Ready condition becomes Unknown, reason
 *   NodeStatusUnknown, "Kubelet stopped posting node status." (tryUpdateNodeHealth), with a
 *   NodeNotReady event on the node; every pod on it that was Ready gets Ready False and a Warning
 *   NodeNotReady event (MarkPodsNotReady), as do pods found Ready there while it stays so.
 * - Taints: the Ready condition is mirrored in taints, NoSchedule (doNoScheduleTaintingPass) and
 *   NoExecute (doNoExecuteTaintingPass): Unknown gives `node.kubernetes.io/unreachable`, False
 *   gives `node.kubernetes.io/not-ready`, True none; each added with timeAdded now
 *   (SwapNodeControllerTaint). Other taints are left alone. The NoExecute ones make the taint
 *   eviction controller (taintEviction.ts) evict the pods.
 *
 * The heartbeat is not simulated write by write (a Lease renewed every 10 s would fill the
 * history): the kubelet posts until a `nodeLost` rule stops it, and the moment it stopped is its
 * last heartbeat (node-agent/nodeFaults.ts). The kubelet that comes back posts Ready itself
 * (node-agent/nodeAgent.ts); the taints then go.
 */
import type { KubeObject } from '../../api/meta.ts';
import type { Names } from '../../api/names.ts';
import { formatInstant, type Instant } from '../../core/duration.ts';
import { isObject, objectField } from '../../core/json.ts';
import { getObject, listObjects } from '../../store/objects.ts';
import type { World } from '../../store/world.ts';
import { nodeConditions, nodeName, readyStatus } from '../node-agent/node.ts';
import { kubeletStoppedAt, kubeletStopsAt } from '../node-agent/nodeFaults.ts';
import { wakeNow } from '../node-agent/wakeNow.ts';
import { controllerManagerActor, type Controller, type ControllerEnv, type Intent } from '../types.ts';
import { notReadyKey, taintsOf, unreachableKey, type Taint } from './taints.ts';

/** `--node-monitor-grace-period`, v1.32 and later. */
export const nodeMonitorGracePeriodMs = 50_000;

const name = 'node-controller';

/** The node with its Ready condition Unknown, the kubelet's last heartbeat being when it stopped. */
function unknownStatus(node: KubeObject, stoppedAt: Instant, now: Instant): KubeObject {
  const conditions = nodeConditions(node).map((c) =>
    c['type'] !== 'Ready'
      ? c
      : {
          type: 'Ready',
          status: 'Unknown',
          lastHeartbeatTime: typeof c['lastHeartbeatTime'] === 'string' ? c['lastHeartbeatTime'] : formatInstant(stoppedAt),
          lastTransitionTime: formatInstant(now),
          reason: 'NodeStatusUnknown',
          message: 'Kubelet stopped posting node status.',
        },
  );
  return { ...node, status: { ...objectField(node, 'status'), conditions } };
}

/** The condition taints the Ready status calls for (nodeConditionToTaintKeyStatusMap). */
function conditionTaintKey(names: Names, ready: string | undefined): string | null {
  return ready === 'Unknown' ? unreachableKey(names) : ready === 'False' ? notReadyKey(names) : null;
}

/**
 * The node's taints with its condition taints made to match its Ready status, or null when they
 * already do: the ones it keeps stay where they are, new ones come last with timeAdded now.
 */
function taintedAsReady(node: KubeObject, names: Names, now: Instant): Taint[] | null {
  const owned = new Set([unreachableKey(names), notReadyKey(names)]);
  const key = conditionTaintKey(names, readyStatus(node));
  const wanted = key === null ? [] : (['NoSchedule', 'NoExecute'] as const).map((effect) => ({ key, effect }));
  const taints = taintsOf(node);
  const isWanted = (t: Taint): boolean => wanted.some((w) => w.key === t.key && w.effect === t.effect);
  const kept = taints.filter((t) => !(owned.has(t.key) && (t.effect === 'NoSchedule' || t.effect === 'NoExecute')) || isWanted(t));
  const added = wanted.filter((w) => !kept.some((t) => t.key === w.key && t.effect === w.effect)).map((w) => ({ key: w.key, effect: w.effect, timeAdded: formatInstant(now) }));
  return added.length === 0 && kept.length === taints.length ? null : [...kept, ...added];
}

function podReady(pod: KubeObject): boolean {
  const c = objectField(pod, 'status')['conditions'];
  return Array.isArray(c) && c.some((x) => isObject(x) && x['type'] === 'Ready' && x['status'] === 'True');
}

/** MarkPodsNotReady: the pod's Ready condition, and only it, turned False now. */
function markedNotReady(pod: KubeObject, now: Instant): Intent {
  const status = objectField(pod, 'status');
  const conditions = (status['conditions'] as unknown[]).map((c) => (isObject(c) && c['type'] === 'Ready' ? { ...c, status: 'False', lastTransitionTime: formatInstant(now) } : c));
  return {
    type: 'update',
    resource: 'core/pods',
    subresource: 'status',
    object: { ...pod, status: { ...status, conditions } },
    report: { key: `pod/${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`, involved: pod, accepted: [{ type: 'Warning', reason: 'NodeNotReady', message: 'Node is not ready' }] },
  };
}

function reconcileNode(world: World, env: ControllerEnv): Intent[] {
  if (!world.config.nodeAgent) return [];
  const node = getObject(world, 'core/nodes', '', nodeName);
  if (node === undefined) return [];
  const stoppedAt = kubeletStoppedAt(world);
  const ready = readyStatus(node);
  if (stoppedAt !== null && world.now >= stoppedAt + nodeMonitorGracePeriodMs && ready !== undefined && ready !== 'Unknown') {
    const wasReady = ready === 'True';
    const event = { type: 'Normal' as const, reason: 'NodeNotReady', message: `Node ${nodeName} status is now: NodeNotReady` };
    // The pods are marked in the next round, seeing the node's new status (one write per object and round).
    return [{ type: 'update', resource: 'core/nodes', subresource: 'status', object: unknownStatus(node, stoppedAt, world.now), ...(wasReady ? { report: { key: `node/${nodeName}`, involved: node, accepted: [event] } } : {}) }];
  }
  const intents: Intent[] = [];
  const taints = taintedAsReady(node, env.names, world.now);
  if (taints !== null) intents.push({ type: 'update', resource: 'core/nodes', subresource: '', object: { ...node, spec: { ...objectField(node, 'spec'), taints } } });
  if (ready !== undefined && ready !== 'True') {
    for (const pod of listObjects(world, 'core/pods', null)) {
      if (objectField(pod, 'spec')['nodeName'] === nodeName && podReady(pod)) intents.push(markedNotReady(pod, world.now));
    }
  }
  return intents;
}

export const nodeLifecycleController: Controller = {
  name,
  actor: controllerManagerActor('node-controller'),
  // The kubelet's silence is read from the fault rules (world.faults), part of every reading the
  // dirty set compares.
  watches: ['core/nodes', 'core/pods'],
  reconcile: reconcileNode,
  nextWakeup(world, env) {
    // A loss still to come is known from its rule: the grace period ends on time.
    const stopsAt = kubeletStopsAt(world);
    if (stopsAt !== null && world.now < stopsAt + nodeMonitorGracePeriodMs) return stopsAt + nodeMonitorGracePeriodMs;
    return reconcileNode(world, env).length > 0 ? wakeNow(world, name) : null;
  },
};
