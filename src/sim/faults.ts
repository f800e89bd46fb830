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
import { isObject } from '../core/json.ts';
import type { World } from '../store/world.ts';

export interface FaultRule {
  readonly name?: string;
  readonly verbs?: readonly string[];
  /** `pods`, `pods/status`, `serviceaccounts/token`; `*` or absent for any. */
  readonly resources?: readonly string[];
  readonly namespaces?: readonly string[];
  readonly names?: readonly string[];
  readonly users?: readonly string[];
  /** 409, 429, 500, 503 or 504. */
  readonly code: number;
  readonly message?: string;
  /** Fire at most this many times (then the rule is spent). */
  readonly times?: number;
  /** Fire with this probability (0 < p ≤ 1), drawn from the seeded rng. */
  readonly probability?: number;
}

/** A rule in the world: the rule and how many times it has fired. */
export interface FaultState {
  readonly rule: FaultRule;
  readonly fired: number;
}

const codes = [409, 429, 500, 503, 504];

/** Checks rules given by a user (option `faults`, POST /sim/v1/faults): a message per problem. */
export function validateFaultRules(input: unknown): { ok: true; rules: FaultRule[] } | { ok: false; message: string } {
  if (!Array.isArray(input)) return { ok: false, message: 'faults: expected a list of rules' };
  const strings = (v: unknown): boolean => v === undefined || (Array.isArray(v) && v.every((x) => typeof x === 'string'));
  for (const [i, r] of input.entries()) {
    const at = `faults[${i}]`;
    if (!isObject(r)) return { ok: false, message: `${at}: expected an object` };
    for (const k of Object.keys(r)) {
      if (!['name', 'verbs', 'resources', 'namespaces', 'names', 'users', 'code', 'message', 'times', 'probability'].includes(k)) return { ok: false, message: `${at}: unknown field "${k}"` };
    }
    for (const k of ['verbs', 'resources', 'namespaces', 'names', 'users']) if (!strings(r[k])) return { ok: false, message: `${at}.${k}: expected a list of strings` };
    if (typeof r['code'] !== 'number' || !codes.includes(r['code'])) return { ok: false, message: `${at}.code: must be one of ${codes.join(', ')}` };
    if (r['message'] !== undefined && typeof r['message'] !== 'string') return { ok: false, message: `${at}.message: expected a string` };
    if (r['name'] !== undefined && typeof r['name'] !== 'string') return { ok: false, message: `${at}.name: expected a string` };
    const times = r['times'];
    if (times !== undefined && (typeof times !== 'number' || !Number.isInteger(times) || times < 1)) return { ok: false, message: `${at}.times: must be a positive integer` };
    const p = r['probability'];
    if (p !== undefined && (typeof p !== 'number' || !(p > 0 && p <= 1))) return { ok: false, message: `${at}.probability: must be in (0, 1]` };
  }
  return { ok: true, rules: input as FaultRule[] };
}

function matches(list: readonly string[] | undefined, value: string): boolean {
  return list === undefined || list.length === 0 || list.includes('*') || list.includes(value);
}

function errorOf(rule: FaultRule, attrs: RequestAttributes): ApiError {
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
    const { rule, fired } = states[i]!;
    if (rule.times !== undefined && fired >= rule.times) continue;
    const resource = attrs.subresource === '' ? attrs.resource : `${attrs.resource}/${attrs.subresource}`;
    const hit =
      matches(rule.verbs, attrs.verb) &&
      matches(rule.resources, attrs.resourceRequest ? resource : attrs.path) &&
      matches(rule.namespaces, attrs.namespace) &&
      matches(rule.names, attrs.name) &&
      matches(rule.users, user);
    if (!hit) continue;
    let w = world;
    if (rule.probability !== undefined && rule.probability < 1) {
      const drawn = drawInts(world.seed, world.rng, 'faults', 1, 1_000_000);
      w = { ...w, rng: drawn.streams };
      if (drawn.values[0]! >= rule.probability * 1_000_000) return { world: w, error: null };
    }
    const next = states.map((s, j) => (j === i ? { rule, fired: fired + 1 } : s));
    return { world: { ...w, faults: next }, error: errorOf(rule, attrs) };
  }
  return { world, error: null };
}

export function installFaults(world: World, rules: readonly FaultRule[]): World {
  return { ...world, faults: [...((world.faults ?? []) as readonly FaultState[]), ...rules.map((rule) => ({ rule, fired: 0 }))] };
}

export function clearFaults(world: World): World {
  return { ...world, faults: [] };
}
