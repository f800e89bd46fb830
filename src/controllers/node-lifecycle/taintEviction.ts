/**
 * The taint eviction controller of kube-controller-manager (pkg/controller/tainteviction, its own
 * controller since v1.29, running as `node-controller`'s service account): a pod on a node with
 * NoExecute taints is evicted — a DisruptionTarget condition (DeletionByTaintManager), then a
 * graceful delete, with a TaintManagerEviction event — at once when it does not tolerate one of
 * them, after the shortest tolerationSeconds of the tolerations used when it does, never when
 * they tolerate forever. The clock starts when the controller saw the taint on the pod's node:
 * the taint's timeAdded, or the pod's creation for a pod that came later. An evicted pod on a
 * lost node stays Terminating: no kubelet confirms it (a force delete, grace 0, removes it).
 */
import type { KubeObject } from '../../api/meta.ts';
import type { Names } from '../../api/names.ts';
import { formatInstant, parseInstant, type Instant } from '../../core/duration.ts';
import { isObject, objectField } from '../../core/json.ts';
import { compareStorageKeys, listObjects } from '../../store/objects.ts';
import type { World } from '../../store/world.ts';
import { controllerManagerActor, type Controller, type Intent } from '../types.ts';
import { effectiveTolerations, minToleration, taintsOf, untolerated, type Taint } from './taints.ts';

const name = 'taint-eviction-controller';

/** A pod on a NoExecute-tainted node and when it is to be evicted. */
interface Eviction {
  readonly pod: KubeObject;
  readonly at: Instant;
}

/** When the controller started counting for a pod: the earliest taint it saw, or the pod's arrival. */
function startOf(taints: readonly Taint[], pod: KubeObject): Instant {
  const created = parseInstant(pod.metadata.creationTimestamp ?? '') ?? 0;
  const added = taints.map((t) => parseInstant(t.timeAdded ?? '')).filter((t): t is Instant => t !== null);
  return Math.max(created, added.length === 0 ? created : Math.min(...added));
}

/** Every pod not yet terminating on a node with NoExecute taints, with its eviction time (none: tolerated forever). */
function evictions(world: World, names: Names): Eviction[] {
  const tainted = new Map<string, Taint[]>();
  for (const node of listObjects(world, 'core/nodes', null)) {
    const noExecute = taintsOf(node).filter((t) => t.effect === 'NoExecute');
    if (noExecute.length > 0) tainted.set(node.metadata.name ?? '', noExecute);
  }
  if (tainted.size === 0) return [];
  const out: Eviction[] = [];
  for (const pod of listObjects(world, 'core/pods', null)) {
    const taints = tainted.get(String(objectField(pod, 'spec')['nodeName'] ?? ''));
    if (taints === undefined || pod.metadata.deletionTimestamp !== undefined) continue;
    const tolerations = effectiveTolerations(pod, names);
    if (untolerated(taints, tolerations, ['NoExecute']) !== undefined) {
      out.push({ pod, at: startOf(taints, pod) });
      continue;
    }
    const wait = minToleration(taints, tolerations);
    if (wait !== null) out.push({ pod, at: startOf(taints, pod) + wait });
  }
  return out.sort((a, b) => compareStorageKeys(a.pod, b.pod));
}

/** addConditionAndDeletePod: the DisruptionTarget condition (unless already there), then the delete. */
function evict(pod: KubeObject, now: Instant): Intent[] {
  const { namespace = '', name: podName = '', uid = '' } = pod.metadata;
  const status = objectField(pod, 'status');
  const conditions = Array.isArray(status['conditions']) ? status['conditions'].filter(isObject) : [];
  const intents: Intent[] = [];
  if (!conditions.some((c) => c['type'] === 'DisruptionTarget' && c['status'] === 'True')) {
    const condition = { type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: formatInstant(now), reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint' };
    intents.push({ type: 'update', resource: 'core/pods', subresource: 'status', object: { ...pod, status: { ...status, conditions: [...conditions.filter((c) => c['type'] !== 'DisruptionTarget'), condition] } } });
  }
  intents.push({
    type: 'delete',
    resource: 'core/pods',
    namespace,
    name: podName,
    uid,
    report: { key: `pod/${namespace}/${podName}`, involved: pod, accepted: [{ reason: 'TaintManagerEviction', message: `Marking for deletion Pod ${namespace}/${podName}` }] },
  });
  return intents;
}

export const taintEvictionController: Controller = {
  name,
  actor: controllerManagerActor('node-controller'),
  watches: ['core/pods', 'core/nodes'],
  reconcile(world, env) {
    return evictions(world, env.names)
      .filter((e) => e.at <= world.now)
      .flatMap((e) => evict(e.pod, world.now));
  },
  nextWakeup(world, env) {
    let next: Instant | null = null;
    for (const e of evictions(world, env.names)) if (e.at > world.now && (next === null || e.at < next)) next = e.at;
    return next;
  },
};
