/**
 * The scheduler's part of the simulated node agent: every pending pod without a node is bound to
 * the one simulated Node through `pods/{name}/binding`, as kube-scheduler does. Off with
 * `nodeAgent: false` (a cluster with no kubelet has no scheduler here either). Pods already
 * terminating are left alone, as the scheduler skips them. The pods waiting for a node are kept as
 * a view of the pod store (store/views.ts): a round costs the pods that changed, not every pod.
 *
 * The TaintToleration filter applies: a pod that does not tolerate one of the node's NoSchedule or
 * NoExecute taints (a lost node's `unreachable` ones) stays Pending, with the condition
 * kube-scheduler writes (PodScheduled False, Unschedulable, the v1.34 message, which since
 * kubernetes#134740 names no taint), and is bound once the taint goes.
 */
import type { KubeObject } from '../../api/meta.ts';
import { assert } from '../../core/assert.ts';
import { formatInstant, type Instant } from '../../core/duration.ts';
import { isObject, objectField } from '../../core/json.ts';
import { compareStorageKeys, getObject, listObjects, storageKey } from '../../store/objects.ts';
import { ResourceView } from '../../store/views.ts';
import { effectiveTolerations, taintsOf, untolerated } from '../node-lifecycle/taints.ts';
import type { Controller, Intent } from '../types.ts';
import { nodeName } from './node.ts';
import { podPhaseOf } from './podLifecycle.ts';

/** The binding move of the pod lifecycle table starts from Unscheduled (no node, not terminating). */
const waiting = (pod: KubeObject): boolean => podPhaseOf(pod) === 'Unscheduled';

/** The one node has a taint the pod does not tolerate; the preemption plugin cannot help. */
const untoleratedMessage = '0/1 nodes are available: 1 node(s) had untolerated taint(s). preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.';

/** The pod's status with PodScheduled False / Unschedulable, or null when it already says so. */
function unschedulable(pod: KubeObject, now: Instant): KubeObject['status'] | null {
  const status = objectField(pod, 'status');
  const conditions = Array.isArray(status['conditions']) ? status['conditions'].filter(isObject) : [];
  const old = conditions.find((c) => c['type'] === 'PodScheduled');
  if (old?.['status'] === 'False' && old['reason'] === 'Unschedulable' && old['message'] === untoleratedMessage) return null;
  const since = old?.['status'] === 'False' && typeof old['lastTransitionTime'] === 'string' ? old['lastTransitionTime'] : formatInstant(now);
  const condition = { type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: since, reason: 'Unschedulable', message: untoleratedMessage };
  return { ...status, conditions: [...conditions.filter((c) => c !== old), condition] };
}

/** Unscheduled pods by storage key. */
const unscheduled = new ResourceView<Map<string, KubeObject>>('core/pods', {
  empty: () => new Map(),
  change(state, namespace, name, _before, after) {
    const key = storageKey(namespace, name);
    if (after !== undefined && waiting(after)) state.set(key, after);
    else state.delete(key);
  },
});

export const scheduler: Controller = {
  name: 'scheduler',
  watches: ['core/pods', 'core/nodes'],
  actor: () => ({ manager: 'kube-scheduler', user: { username: 'system:kube-scheduler', groups: ['system:authenticated'] } }),
  reconcile(world, env) {
    const node = world.config.nodeAgent ? getObject(world, 'core/nodes', '', nodeName) : undefined;
    if (node === undefined) return [];
    const pending = [...unscheduled.read(world).values()].sort(compareStorageKeys);
    if (env.checkViews === true) {
      const listed = listObjects(world, 'core/pods', null).filter(waiting);
      assert(listed.length === pending.length && listed.every((p, i) => p === pending[i]), 'scheduler: the kept view of unscheduled pods is stale');
    }
    const intents: Intent[] = [];
    const taints = taintsOf(node);
    for (const pod of pending) {
      const { name = '', namespace = '', uid = '' } = pod.metadata;
      if (taints.length > 0 && untolerated(taints, effectiveTolerations(pod, env.names), ['NoSchedule', 'NoExecute']) !== undefined) {
        const status = unschedulable(pod, world.now);
        if (status !== null) intents.push({ type: 'update', resource: 'core/pods', subresource: 'status', object: { ...pod, status } });
        continue;
      }
      intents.push({
        type: 'create',
        resource: 'core/pods',
        subresource: 'binding',
        object: { apiVersion: 'v1', kind: 'Binding', metadata: { name, namespace, uid }, target: { apiVersion: 'v1', kind: 'Node', name: nodeName } },
      });
    }
    return intents;
  },
  nextWakeup: () => null,
};
