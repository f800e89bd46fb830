/**
 * The scheduler's part of the simulated node agent: every pending pod without a node is bound to
 * the one simulated Node through `pods/{name}/binding`, as kube-scheduler does. Off with
 * `nodeAgent: false` (a cluster with no kubelet has no scheduler here either). Pods already
 * terminating are left alone, as the scheduler skips them.
 */
import { getObject, listObjects } from '../../store/objects.ts';
import type { Controller, Intent } from '../types.ts';
import { nodeName } from './nodeAgent.ts';
import { podPhaseOf } from './podLifecycle.ts';

export const scheduler: Controller = {
  name: 'scheduler',
  watches: ['core/pods', 'core/nodes'],
  actor: () => ({ manager: 'kube-scheduler', user: { username: 'system:kube-scheduler', groups: ['system:authenticated'] } }),
  reconcile(world) {
    if (!world.config.nodeAgent || getObject(world, 'core/nodes', '', nodeName) === undefined) return [];
    const intents: Intent[] = [];
    for (const pod of listObjects(world, 'core/pods', null)) {
      // The binding move of the pod lifecycle table starts from Unscheduled (no node, not terminating).
      if (podPhaseOf(pod) !== 'Unscheduled') continue;
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
