/**
 * Fault rules: make chosen API requests fail as a struggling API server would (500, 503 with
 * Retry-After, 429, 409 conflicts, 504 timeouts), so clients' and controllers' retry paths can be
 * tested. A rule matches authenticated, authorized requests by verb, resource (`pods/status`
 * names a subresource), namespace, name and user; it fires every time, `times` times, or with a
 * seeded `probability`. Rules live in the world (they are part of a snapshot) and the draws come
 * from the world's rng, so a run with faults replays exactly.
 */
import { drawInts } from '../ports/rng.ts';
import type { RequestAttributes } from '../auth/requestInfo.ts';
import { errors, type ApiError } from '../core/status.ts';
import { admits, kindOfRule, type ErrorFault, type FaultRule, type FaultState } from './faultRules.ts';
import type { World } from '../store/world.ts';

export type { FaultRule, FaultState } from './faultRules.ts';
export { validateFaultRules } from './faultRules.ts';

function errorOf(rule: ErrorFault, attrs: RequestAttributes): ApiError {
  const what = rule.message ?? `injected fault${rule.name === undefined ? '' : ` ${rule.name}`}`;
  switch (rule.code) {
    case 409:
      return errors.conflict({ group: attrs.apiGroup, resource: attrs.resource }, attrs.name, what);
    case 429:
      return errors.tooManyRequests(1);
    case 503:
      return errors.serviceUnavailable(what, 1);
    case 504:
      return errors.handlerTimeout();
    default:
      return errors.internal(what);
  }
}

/**
 * The first rule that fires for a request: its error, and the world with the rule's count moved
 * on. A probability draw moves the rng whether or not the rule fires.
 */
export function injectFault(world: World, attrs: RequestAttributes, user: string): { world: World; error: ApiError | null } {
  const states = (world.faults ?? []) as readonly FaultState[];
  for (let i = 0; i < states.length; i++) {
    const { rule: any, fired } = states[i]!;
    if (kindOfRule(any) !== 'error') continue;
    const rule = any as ErrorFault;
    if (rule.times !== undefined && fired >= rule.times) continue;
    const resource = attrs.subresource === '' ? attrs.resource : `${attrs.resource}/${attrs.subresource}`;
    const hit =
      admits(rule.verbs, attrs.verb) &&
      admits(rule.resources, attrs.resourceRequest ? resource : attrs.path) &&
      admits(rule.namespaces, attrs.namespace) &&
      admits(rule.names, attrs.name) &&
      admits(rule.users, user);
    if (!hit) continue;
    let w = world;
    if (rule.probability !== undefined && rule.probability < 1) {
      const drawn = drawInts(world.seed, world.rng, 'faults', 1, 1_000_000);
      w = { ...w, rng: drawn.streams };
      if (drawn.values[0]! >= rule.probability * 1_000_000) return { world: w, error: null };
    }
    const next = states.map((s, j) => (j === i ? { ...s, fired: fired + 1 } : s));
    return { world: { ...w, faults: next }, error: errorOf(rule, attrs) };
  }
  return { world, error: null };
}

export function installFaults(world: World, rules: readonly FaultRule[]): World {
  // Timed kinds count their `from` and `for` from the moment they were installed.
  const state = (rule: FaultRule): FaultState => (kindOfRule(rule) === 'controller' || kindOfRule(rule) === 'node' ? { rule, fired: 0, installedAt: world.now } : { rule, fired: 0 });
  return { ...world, faults: [...((world.faults ?? []) as readonly FaultState[]), ...rules.map(state)] };
}

export function clearFaults(world: World): World {
  return { ...world, faults: [] };
}
