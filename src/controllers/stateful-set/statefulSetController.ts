/**
 * The StatefulSet controller (reference/statefulset.md §6): every set is synced each settle round
 * in which something it watches (sets, pods, claims, revisions) changed (sync.ts: one sync per
 * round, its writes seen by the next), under kube-controller-manager's identity for
 * `statefulset-controller`. A set whose last sync the API refused something of
 * waits out its backoff, unless its spec changed since that sync observed it (the informer's
 * update event adds the set to the queue at once, past the rate limiter). It wakes when a member becomes available (`minReadySeconds` after
 * Ready, to the moment), so OrderedReady progress, availableReplicas and scale-down never wait
 * for a poll.
 */
import type { Instant } from '../../core/duration.ts';
import type { KubeObject } from '../../api/meta.ts';
import { listObjects } from '../../store/objects.ts';
import { isBackingOff } from '../retries.ts';
import { controllerManagerActor, type Controller, type Intent } from '../types.ts';
import { membersOf } from './members.ts';
import { availableAt } from './podLifecycle.ts';
import { readSpec } from './spec.ts';
import { syncStatefulSet } from './sync.ts';

const name = 'statefulset-controller';

/** A user changed the spec after the last sync wrote its status (every sync writes `observedGeneration`). */
function specChangedSinceObserved(set: KubeObject): boolean {
  const observed = (set['status'] as { observedGeneration?: number } | undefined)?.observedGeneration ?? 0;
  return (set.metadata.generation ?? 0) > observed;
}

export const statefulSetController: Controller = {
  name,
  actor: controllerManagerActor('statefulset-controller'),
  watches: ['apps/statefulsets', 'core/pods', 'core/persistentvolumeclaims', 'apps/controllerrevisions'],
  reconcile(world, env) {
    const intents: Intent[] = [];
    for (const set of listObjects(world, 'apps/statefulsets', null)) {
      if (isBackingOff(world, name, `${set.metadata.namespace ?? ''}/${set.metadata.name ?? ''}`) && !specChangedSinceObserved(set)) continue;
      intents.push(...syncStatefulSet(world, set, env.names, env.checkViews === true));
    }
    return intents;
  },
  nextWakeup(world, env) {
    let next: Instant | null = null;
    for (const set of listObjects(world, 'apps/statefulsets', null)) {
      const spec = readSpec(set);
      if (spec.minReadySeconds <= 0) continue;
      for (const pod of membersOf(world, set, spec, env.names, env.checkViews === true).pods.values()) {
        const at = availableAt(pod, spec.minReadySeconds);
        if (at !== null && at > world.now && (next === null || at < next)) next = at;
      }
    }
    return next;
  },
};
