/**
 * The scheduler's part of the simulated node agent: every pending pod without a node is bound to
 * the one simulated Node through `pods/{name}/binding`, as kube-scheduler does. Off with
 * `nodeAgent: false` (a cluster with no kubelet has no scheduler here either). Pods already
 * terminating are left alone, as the scheduler skips them. The pods waiting for a node are kept as
 * a view of the pod store (store/views.ts): a round costs the pods that changed, not every pod.
 */
import type { KubeObject } from '../../api/meta.ts';
import { assert } from '../../core/assert.ts';
import { compareStorageKeys, getObject, listObjects, storageKey } from '../../store/objects.ts';
import { ResourceView } from '../../store/views.ts';
import type { Controller, Intent } from '../types.ts';
import { nodeName } from './nodeAgent.ts';
import { podPhaseOf } from './podLifecycle.ts';

/** The binding move of the pod lifecycle table starts from Unscheduled (no node, not terminating). */
const waiting = (pod: KubeObject): boolean => podPhaseOf(pod) === 'Unscheduled';

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
    if (!world.config.nodeAgent || getObject(world, 'core/nodes', '', nodeName) === undefined) return [];
    const pending = [...unscheduled.read(world).values()].sort(compareStorageKeys);
    if (env.checkViews === true) {
      const listed = listObjects(world, 'core/pods', null).filter(waiting);
      assert(listed.length === pending.length && listed.every((p, i) => p === pending[i]), 'scheduler: the kept view of unscheduled pods is stale');
    }
    const intents: Intent[] = [];
    for (const pod of pending) {
      const { name = '', namespace = '', uid = '' } = pod.metadata;
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
