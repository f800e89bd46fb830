/**
 * The one format of fault rules, whichever way they arrive: the `faults` option, `sim.injectFaults`,
 * a scenario's `fault` step and `POST /sim/v1/faults {"rules": […]}` all take a list of these and
 * check it here. Each rule has a `kind` (absent means `error`):
 *
 * - `error`: matching API requests fail as a struggling API server's would (409, 429 and 503 with
 *   Retry-After, 500, 504 timeouts) — users' requests and the controllers' own writes alike
 *   (`controllers` names them; a controller whose write is refused retries it with backoff);
 * - `watch`: events of matching watches are dropped, held back (`delay`, virtual time, order
 *   kept), or the watch is ended with `410 Expired` (`expire`), so a client must re-list;
 * - `staleRead`: matching GETs and LISTs are answered from the world as it was `revisions` ago;
 * - `controller`: a built-in controller pauses (does nothing, keeps its memory) or crashes (loses
 *   its memory) and restarts after `for` (absent: a pause lasts until the rule is cleared, a crash
 *   restarts at once);
 * - `node`: the node agent's failures: matching pods never become ready, matching pods fail, or
 *   the node is lost (its Ready condition goes Unknown, its pods stop being looked after).
 *
 * Every kind is keyed either on the k-th matching occurrence (`after` lets the first k pass,
 * `times` bounds how often it fires, `probability` draws from the seeded rng) or on object state
 * (`when`: field paths and the values the object must hold, as scenario checks write them). Time
 * is virtual: `from` and `for` count from the moment the rule was installed. Rules live in the
 * world (a snapshot carries them), so a run with faults replays exactly.
 */
import { parseDuration, type Instant } from '../core/duration.ts';
import { parseFieldPath, readFieldPath } from '../core/fieldPath.ts';
import { canonicalJson, getOwn, isObject } from '../core/json.ts';
import { limits } from '../core/limits.ts';

/** What every kind may say about when it fires. */
interface Firing {
  readonly name?: string;
  /** Let the first `after` matching occurrences through; fire from the next one. */
  readonly after?: number;
  /** Fire at most this many times (then the rule is spent). */
  readonly times?: number;
  /** Fire with this probability (0 < p ≤ 1), drawn from the seeded rng. */
  readonly probability?: number;
  /** Field path → value the object concerned must hold (JSON equality), e.g. `{"status.readyReplicas": 2}`. */
  readonly when?: Readonly<Record<string, unknown>>;
}

/** Which requests or objects a rule concerns; an absent or empty list, or one holding `*`, matches all. */
interface Selection {
  /** `pods`, `pods/status`, `serviceaccounts/token`. */
  readonly resources?: readonly string[];
  readonly namespaces?: readonly string[];
  readonly names?: readonly string[];
}

export interface ErrorFault extends Firing, Selection {
  readonly kind?: 'error';
  readonly verbs?: readonly string[];
  readonly users?: readonly string[];
  /** Built-in controllers (`statefulset`, `csrsigning`, …) whose own writes this rule refuses. */
  readonly controllers?: readonly string[];
  /** 409, 429, 500, 503 or 504. */
  readonly code: number;
  readonly message?: string;
  /** Retry-After of a 429 or 503 (default 1). */
  readonly retryAfterSeconds?: number;
}

export interface WatchFault extends Firing, Selection {
  readonly kind: 'watch';
  /** `drop` an event, `delay` the stream by `delay`, or `expire` the watch with 410. */
  readonly action: 'drop' | 'delay' | 'expire';
  /** For `delay`: a Go duration of virtual time. */
  readonly delay?: string;
}

export interface StaleReadFault extends Firing, Selection {
  readonly kind: 'staleRead';
  readonly verbs?: readonly string[];
  readonly users?: readonly string[];
  /** How many revisions behind the answer is (bounded by compacted history). */
  readonly revisions: number;
}

export interface ControllerFault extends Firing {
  readonly kind: 'controller';
  readonly controller: string;
  readonly action: 'pause' | 'crash';
  /** Go duration after installation when it happens (default `0s`). */
  readonly from?: string;
  /** Go duration it lasts; absent: a pause until cleared, a crash restarting at once. */
  readonly for?: string;
}

export interface NodeFault extends Firing {
  readonly kind: 'node';
  readonly action: 'podNeverReady' | 'podFails' | 'nodeLost';
  /** The pods concerned (podNeverReady, podFails). */
  readonly namespaces?: readonly string[];
  readonly names?: readonly string[];
  /** Go duration after installation when it happens (default `0s`). */
  readonly from?: string;
}

export type FaultRule = ErrorFault | WatchFault | StaleReadFault | ControllerFault | NodeFault;
export type FaultKind = NonNullable<FaultRule['kind']>;

/** A rule in the world: the rule, how often it fired, and (for timed kinds) when it was installed. */
export interface FaultState {
  readonly rule: FaultRule;
  readonly fired: number;
  /** How many matching occurrences it let through because of `after`. */
  readonly passed?: number;
  readonly installedAt?: Instant;
}

export const errorCodes: readonly number[] = [409, 429, 500, 503, 504];

type Check = (v: unknown) => string | null;

const strings: Check = (v) => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? null : 'expected a list of strings');
const text: Check = (v) => (typeof v === 'string' ? null : 'expected a string');
const positiveInteger: Check = (v) => (typeof v === 'number' && Number.isInteger(v) && v >= 1 ? null : 'must be a positive integer');
const count: Check = (v) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? null : 'must be a non-negative integer');
const duration: Check = (v) => (typeof v === 'string' && parseDuration(v) !== null && parseDuration(v)! >= 0 ? null : 'must be a Go duration such as "30s"');
const oneOf =
  (...values: readonly string[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v) ? null : `must be one of ${values.join(', ')}`;

const firing: Readonly<Record<string, Check>> = {
  kind: text,
  name: text,
  after: count,
  times: positiveInteger,
  probability: (v) => (typeof v === 'number' && v > 0 && v <= 1 ? null : 'must be in (0, 1]'),
  when: (v) => {
    if (!isObject(v)) return 'expected an object of field path → value';
    for (const path of Object.keys(v)) {
      const parsed = parseFieldPath(path);
      if (typeof parsed === 'string') return parsed;
      // Rules are hashed and saved with the world: a value nested without bound is refused here.
      if (deeperThan(v[path], limits.jsonDepthMax)) return `the value for "${path}" is nested deeper than ${limits.jsonDepthMax}`;
    }
    return null;
  },
};
/** Whether a JSON value nests containers more than `max` deep (without recursing past it). */
function deeperThan(v: unknown, max: number): boolean {
  let level: unknown[] = [v];
  for (let depth = 0; level.length > 0; depth++) {
    if (depth > max) return true;
    const next: unknown[] = [];
    for (const x of level) if (typeof x === 'object' && x !== null) next.push(...Object.values(x));
    level = next;
  }
  return false;
}

const selection: Readonly<Record<string, Check>> = { resources: strings, namespaces: strings, names: strings };

/** Per kind: its fields and their checks, and the fields it requires. */
const kinds: Readonly<Record<FaultKind, { readonly fields: Readonly<Record<string, Check>>; readonly required: readonly string[] }>> = {
  error: {
    fields: {
      ...firing,
      ...selection,
      verbs: strings,
      users: strings,
      controllers: strings,
      code: (v) => (typeof v === 'number' && errorCodes.includes(v) ? null : `must be one of ${errorCodes.join(', ')}`),
      message: text,
      retryAfterSeconds: positiveInteger,
    },
    required: ['code'],
  },
  watch: { fields: { ...firing, ...selection, action: oneOf('drop', 'delay', 'expire'), delay: duration }, required: ['action'] },
  staleRead: { fields: { ...firing, ...selection, verbs: strings, users: strings, revisions: positiveInteger }, required: ['revisions'] },
  controller: { fields: { ...firing, controller: text, action: oneOf('pause', 'crash'), from: duration, for: duration }, required: ['controller', 'action'] },
  node: { fields: { ...firing, action: oneOf('podNeverReady', 'podFails', 'nodeLost'), namespaces: strings, names: strings, from: duration }, required: ['action'] },
};

const kindNames = Object.keys(kinds) as FaultKind[];

/** Checks rules given by a user: the rules, or one message naming the first problem (`faults[2].code: …`). */
export function validateFaultRules(input: unknown): { ok: true; rules: FaultRule[] } | { ok: false; message: string } {
  if (!Array.isArray(input)) return { ok: false, message: 'faults: expected a list of rules' };
  for (const [i, r] of input.entries()) {
    const at = `faults[${i}]`;
    if (!isObject(r)) return { ok: false, message: `${at}: expected an object` };
    const kind = r['kind'] ?? 'error';
    if (typeof kind !== 'string' || !kindNames.includes(kind as FaultKind)) return { ok: false, message: `${at}.kind: must be one of ${kindNames.join(', ')}` };
    const spec = kinds[kind as FaultKind];
    for (const k of Object.keys(r)) {
      const check = Object.hasOwn(spec.fields, k) ? spec.fields[k] : undefined;
      if (check === undefined) return { ok: false, message: `${at}: unknown field "${k}" for a rule of kind ${kind}` };
      const problem = check(r[k]);
      if (problem !== null) return { ok: false, message: `${at}.${k}: ${problem}` };
    }
    for (const k of spec.required) if (getOwn(r, k) === undefined) return { ok: false, message: `${at}.${k}: required for a rule of kind ${kind}` };
    if (kind === 'watch' && (r['action'] === 'delay') !== (r['delay'] !== undefined)) {
      return { ok: false, message: `${at}.delay: ${r['action'] === 'delay' ? 'required for the delay action' : 'only for the delay action'}` };
    }
  }
  return { ok: true, rules: input as FaultRule[] };
}

export function kindOfRule(rule: FaultRule): FaultKind {
  return rule.kind ?? 'error';
}

/** Whether a selection list admits a value: absent, empty, `*` or naming it. */
export function admits(list: readonly string[] | undefined, value: string): boolean {
  return list === undefined || list.length === 0 || list.includes('*') || list.includes(value);
}

/** `when`: every path holds its value (JSON equality) in the object; never met without an object. */
export function whenHolds(when: Readonly<Record<string, unknown>> | undefined, object: () => unknown): boolean {
  if (when === undefined) return true;
  const obj = object();
  if (obj === undefined) return false;
  for (const [path, want] of Object.entries(when)) {
    const segments = parseFieldPath(path);
    if (typeof segments === 'string') return false;
    const got = readFieldPath(obj, segments);
    if (!got.found || canonicalJson(got.value) !== canonicalJson(want)) return false;
  }
  return true;
}
