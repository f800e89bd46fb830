/**
 * The StatefulSet controller (reference/statefulset.md §6): every set is synced each settle round
 * in which something it watches (sets, pods, claims, revisions) changed (sync.ts: one sync per
 * round, its writes seen by the next), under kube-controller-manager's identity for
 * `statefulset-controller`. A set whose last sync the API refused something of
 * waits out its backoff, unless its spec changed since that sync observed it (the informer's
 * update event adds the set to the queue at once, past the rate limiter). It wakes when a member becomes available (`minReadySeconds` after
 * Ready, to the moment), so OrderedReady progress, availableReplicas and scale-down never wait
 * for a poll; and a set that had more pods to write than its budget of the second allowed wakes
 * when the next second starts, for its next batch (pacing.ts).
 */
import type { Instant } from '../../core/duration.ts';
import type { KubeObject } from '../../api/meta.ts';
import { listObjects } from '../../store/objects.ts';
import { isBackingOff } from '../retries.ts';
import { controllerManagerActor, type Controller, type Intent } from '../types.ts';
import { membersOf } from './members.ts';
import { availableAt } from './podLifecycle.ts';
import { budgetOf, memoryOf, nextBatchAt, paceNow, pacingOf, samePacing, secondOf, type SetPace } from './pacing.ts';
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
    const pacing = pacingOf(world, name);
    // Rebuilt from the sets there are: a past second, or a set that is gone, is forgotten.
    const next = new Map<string, SetPace>();
    for (const set of listObjects(world, 'apps/statefulsets', null)) {
      const uid = set.metadata.uid ?? '';
      const pace = paceNow(pacing, uid, world.now);
      if (isBackingOff(world, name, `${set.metadata.namespace ?? ''}/${set.metadata.name ?? ''}`) && !specChangedSinceObserved(set)) {
        if (pace !== undefined) next.set(uid, pace);
        continue;
      }
      const sync = syncStatefulSet(world, set, env.names, (created) => budgetOf(pace, created), env.checkViews === true);
      intents.push(...sync.intents);
      const writes = (pace?.writes ?? 0) + sync.writes;
      if (writes > 0 || sync.short) next.set(uid, { second: secondOf(world.now), writes, more: sync.short });
    }
    if (!samePacing(pacing, next)) intents.push({ type: 'remember', controller: name, state: memoryOf(next) });
    return intents;
  },
  nextWakeup(world, env) {
    let next: Instant | null = nextBatchAt(pacingOf(world, name), world.now);
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
