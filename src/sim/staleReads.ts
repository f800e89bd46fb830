/**
 * `staleRead` fault rules: a matching GET, or a LIST that is not exact, is answered from the world
 * as it was `revisions` revisions earlier, as from a watch cache lagging behind etcd — the object
 * at that revision (404 if it did not exist yet), the list at that revision with that
 * resourceVersion. Never older than the history kept (clamped to the oldest readable revision).
 * A rule selects reads by verb, resource (`pods/status` names a subresource), namespace, name,
 * user and the state of the object at the current revision (`when`, never met by a list, as for
 * error rules); it fires from the (after+1)-th matching read, `times` times at most, with a seeded
 * `probability`. Counts live in the world and draws come from the world's rng (a stream of their
 * own), so a run with stale reads replays exactly. The API asks through `ApiEnv.staleReads`.
 */
import type { StaleReadRequest } from '../endpoints/staleRead.ts';
import { oldestReadableRevision } from '../store/listPage.ts';
import type { World } from '../store/world.ts';
import { firstFiring } from './firing.ts';
import { admits, whenHolds, type StaleReadFault } from './faultRules.ts';

export type { StaleReadRequest } from '../endpoints/staleRead.ts';

function matches(rule: StaleReadFault, read: StaleReadRequest): boolean {
  return (
    admits(rule.verbs, read.verb) &&
    admits(rule.resources, read.resource) &&
    admits(rule.namespaces, read.namespace) &&
    admits(rule.names, read.name) &&
    admits(rule.users, read.user) &&
    whenHolds(rule.when, read.object ?? (() => undefined))
  );
}

/**
 * The first staleRead rule that fires for a read: the world with the counts moved on and the
 * revision to answer at, or null (fresh). A rule still letting reads through (`after`) counts one
 * more, a probability draw moves the rng whether or not it fires; later rules do not see a read
 * an earlier one answered.
 */
export function staleRead(world: World, read: StaleReadRequest): { readonly world: World; readonly at: number | null } {
  const firing = firstFiring<StaleReadFault>(world, 'staleRead', 'faults/staleRead', (rule) => matches(rule, read));
  return { world: firing.world, at: firing.fired === null ? null : Math.max(world.revision - firing.fired.revisions, oldestReadableRevision(world)) };
}
