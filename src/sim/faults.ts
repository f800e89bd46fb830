/**
 * `error` fault rules: chosen API requests fail as a struggling API server's would (500, 503 and
 * 429 with Retry-After, 409 conflicts, 504 timeouts), so that clients' and controllers' retry
 * paths can be tested. A rule sees users' authenticated, authorized requests and the controllers'
 * own writes alike (a rule naming `controllers` sees only theirs), by verb, resource (`pods/status`
 * names a subresource), namespace, name, user and the state of the object concerned (`when`). It
 * fires from the (after+1)-th matching request, `times` times at most, with a seeded
 * `probability`. Rules and their counts live in the world and draws come from the world's rng, so
 * a run with faults replays exactly.
 */
import type { RequestAttributes } from '../auth/requestInfo.ts';
import { isObject } from '../core/json.ts';
import { errors, type ApiError } from '../core/status.ts';
import { admits, kindOfRule, whenHolds, type ErrorFault, type FaultRule, type FaultState } from './faultRules.ts';
import { namesOfController } from './controllerNames.ts';
import { worldWith, type World } from '../store/world.ts';
import { firstFiring } from './firing.ts';
import { nodeRuleCounts } from '../controllers/node-agent/ruleCounts.ts';

export type { FaultRule, FaultState } from './faultRules.ts';
export { validateFaultRules } from './faultRules.ts';

/** A request as error rules see it: a user's API request, or a controller's own write. */
export interface FaultedRequest {
  readonly attrs: RequestAttributes;
  readonly user: string;
  /** The controller whose own write this is; absent for users' requests. */
  readonly controller?: string;
  /**
   * The object concerned: the request's body for a create of a collection, else the stored object
   * the request names (undefined when there is none). Asked for only when a rule needs it.
   */
  readonly object: () => unknown;
}

/** What the rules did with a request: the world with their counts moved on, and the error to answer. */
export interface FaultOutcome {
  readonly world: World;
  readonly error: ApiError | null;
}

/** The name a rule's `names` sees: the request's, or for a create of a collection the body's. */
function nameOf(req: FaultedRequest): string {
  if (req.attrs.name !== '' || req.attrs.verb !== 'create') return req.attrs.name;
  const o = req.object();
  const name = isObject(o) && isObject(o['metadata']) ? o['metadata']['name'] : undefined;
  return typeof name === 'string' ? name : '';
}

/** `when`: every path holds its value (JSON equality); never for requests naming no one object. */
function holds(when: ErrorFault['when'], req: FaultedRequest): boolean {
  if (when === undefined) return true;
  const { verb, resourceRequest } = req.attrs;
  if (!resourceRequest || verb === 'list' || verb === 'watch' || verb === 'deletecollection') return false;
  return whenHolds(when, req.object);
}

/** `names`, without decoding a create's body when the rule names no one. */
function admitsName(names: readonly string[] | undefined, req: FaultedRequest): boolean {
  return names === undefined || names.length === 0 || names.includes('*') || names.includes(nameOf(req));
}

function matches(rule: ErrorFault, req: FaultedRequest): boolean {
  const { attrs } = req;
  // A rule naming controllers is about their writes only; one naming none sees everyone's.
  if (rule.controllers !== undefined && (req.controller === undefined || !namesOfController(req.controller).some((n) => admits(rule.controllers, n)))) return false;
  const resource = attrs.subresource === '' ? attrs.resource : `${attrs.resource}/${attrs.subresource}`;
  return (
    admits(rule.verbs, attrs.verb) &&
    admits(rule.resources, attrs.resourceRequest ? resource : attrs.path) &&
    admits(rule.namespaces, attrs.namespace) &&
    admits(rule.users, req.user) &&
    admitsName(rule.names, req) &&
    holds(rule.when, req)
  );
}

function errorOf(rule: ErrorFault, req: FaultedRequest): ApiError {
  const what = rule.message ?? `injected fault${rule.name === undefined ? '' : ` ${rule.name}`}`;
  const retryAfter = rule.retryAfterSeconds ?? 1;
  switch (rule.code) {
    case 409:
      return errors.conflict({ group: req.attrs.apiGroup, resource: req.attrs.resource }, nameOf(req), what);
    case 429:
      return errors.tooManyRequests(retryAfter);
    case 503:
      return errors.serviceUnavailable(what, retryAfter);
    case 504:
      return errors.handlerTimeout();
    default:
      return errors.internal(what);
  }
}

/** The error of the first error rule that fires for a request (firing.ts), and the world with the counts moved on. */
export function injectFault(world: World, req: FaultedRequest): FaultOutcome {
  const firing = firstFiring<ErrorFault>(world, 'error', 'faults', (rule) => matches(rule, req));
  return { world: firing.world, error: firing.fired === null ? null : errorOf(firing.fired, req) };
}

export function installFaults(world: World, rules: readonly FaultRule[]): World {
  // Timed kinds count their `from` and `for` from the moment they were installed.
  const state = (rule: FaultRule): FaultState => (kindOfRule(rule) === 'controller' || kindOfRule(rule) === 'node' ? { rule, fired: 0, installedAt: world.now } : { rule, fired: 0 });
  return worldWith(world, { faults: [...((world.faults ?? []) as readonly FaultState[]), ...rules.map(state)] });
}

export function clearFaults(world: World): World {
  return worldWith(world, { faults: [] });
}

/**
 * The installed rules as users see them: each with its counts, node rules' taken from the node
 * agent's memory (a controller cannot write world.faults). Watch rules count in the watch hub,
 * outside the world, and show 0 here (docs/faults.md).
 */
export function reportedFaults(world: World): readonly FaultState[] {
  const states = (world.faults ?? []) as readonly FaultState[];
  const counts = nodeRuleCounts(world);
  if (counts.size === 0) return states;
  return states.map((s, i) => {
    const c = counts.get(i);
    return c === undefined ? s : { ...s, fired: c.fired, ...(c.passed > 0 ? { passed: c.passed } : {}) };
  });
}
