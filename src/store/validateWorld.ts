/**
 * Whether a value is a world (world.ts, format world@2) that the simulation can run on: a
 * snapshot put back (PUT /sim/v1/snapshot, `sim.replaceWorld`, `restoreSimulation`, a state file)
 * is checked here before it replaces anything, so that no later request can crash on it. What
 * the store knows is checked: the settings, the counters and the clock (within virtual time's
 * range), the rng streams, every stored object and every log entry against its kind
 * (validateStoredObject.ts), the tries (validateTrie.ts), the owner index against the objects'
 * owner references, the retries, and the envelopes of controllers' memories and fault rules.
 * What only the simulation knows (the rules themselves, its controllers' memories, its names
 * mode) is sim/controlChecks.ts's. Invariants the checkers prove (no resourceVersion beyond the
 * revision, …) are not repeated here: a crafted world may break them on purpose.
 *
 * The answer is the first problem as one message with its path (`world.objects["core/pods"]
 * ["default"]["web-0"].spec.containers: must be a list, not 5`), or null. One walk, linear in
 * the world's size; nothing is copied.
 */
import { groupVersionString } from '../api/meta.ts';
import { namesFor } from '../api/names.ts';
import { getOwn, hasOwn, isObject } from '../core/json.ts';
import { limits } from '../core/limits.ts';
import { resourceTypesFor } from '../registry/index.ts';
import type { ResourceType } from '../registry/types.ts';
import type { GroupDomain } from './world.ts';
import { jsonValueProblem, keySegment, show, storedObjectProblem } from './validateStoredObject.ts';
import { trieProblem } from './validateTrie.ts';

type Check = (v: unknown) => string | null;

/** The served kinds of a names mode by storage id, with the apiVersion their objects carry. */
const kindsByDomain = new Map<GroupDomain, ReadonlyMap<string, { rt: ResourceType; apiVersion: string }>>();

function kindsOf(domain: GroupDomain): ReadonlyMap<string, { rt: ResourceType; apiVersion: string }> {
  let kinds = kindsByDomain.get(domain);
  if (kinds === undefined) {
    kinds = new Map(resourceTypesFor(namesFor(domain)).filter((rt) => rt.virtual !== true).map((rt) => [rt.id, { rt, apiVersion: groupVersionString(rt.group, rt.version) }]));
    kindsByDomain.set(domain, kinds);
  }
  return kinds;
}

const safeCount: Check = (v) => (Number.isSafeInteger(v) && (v as number) >= 0 ? null : `: must be a non-negative integer, not ${show(v)}`);
const positiveCount: Check = (v) => (Number.isSafeInteger(v) && (v as number) >= 1 ? null : `: must be a positive integer, not ${show(v)}`);
/** An instant of virtual time (also the built-in controllers' memories', sim/controlChecks.ts). */
export const instant: Check = (v) =>
  Number.isSafeInteger(v) && (v as number) >= limits.instantMin && (v as number) <= limits.instantMax
    ? null
    : `: must be an instant in milliseconds from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z, not ${show(v)}`;
/** A due time may lie past the last instant (it is then never reached). */
const dueTime: Check = (v) => (Number.isSafeInteger(v) ? null : `: must be an instant in milliseconds, not ${show(v)}`);
const oneOf =
  (...values: readonly unknown[]): Check =>
  (v) =>
    values.includes(v) ? null : `: must be ${values.map((x) => JSON.stringify(x)).join(' or ')}, not ${show(v)}`;
const aString: Check = (v) => (typeof v === 'string' ? null : `: must be a string, not ${show(v)}`);

/** An object with these fields (required ones listed), none other. */
function fieldsProblem(v: unknown, checks: Readonly<Record<string, Check>>, required: readonly string[]): string | null {
  if (!isObject(v)) return `: must be an object, not ${show(v)}`;
  for (const k of required) if (getOwn(v, k) === undefined) return `${keySegment(k)}: is required`;
  for (const k of Object.keys(v)) {
    if (v[k] === undefined) continue;
    const check = hasOwn(checks, k) ? checks[k] : undefined;
    if (check === undefined) return `${keySegment(k)}: unknown field`;
    const p = check(v[k]);
    if (p !== null) return `${keySegment(k)}${p}`;
  }
  return null;
}

/** Each own entry of a record checked. */
function recordProblem(v: unknown, entry: (key: string, value: unknown) => string | null): string | null {
  if (!isObject(v)) return `: must be an object, not ${show(v)}`;
  for (const k of Object.keys(v)) {
    if (v[k] === undefined) continue;
    const p = entry(k, v[k]);
    if (p !== null) return `[${JSON.stringify(k)}]${p}`;
  }
  return null;
}

const configChecks: Readonly<Record<string, Check>> = {
  groupDomain: oneOf('platform.io', 'k8s.io'),
  compactionIntervalMs: positiveCount,
  nodeAgent: oneOf(true, false),
  podReadyAfterMs: safeCount,
  schedule: oneOf('fixed', 'seeded'),
};

const byte: Check = (v) => (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 255 ? null : `: must be an integer 0-255, not ${show(v)}`);

/** seedrandom's ARC4 state: two indices and a permutation of the 256 byte values. */
const rngState: Check = (v) =>
  fieldsProblem(
    v,
    {
      i: byte,
      j: byte,
      S: (s) => {
        if (!Array.isArray(s) || s.length !== 256) return `: must be a list of 256 bytes, not ${show(s)}`;
        const seen = new Uint8Array(256);
        for (let k = 0; k < 256; k++) {
          const p = byte(s[k]);
          if (p !== null) return `[${k}]${p}`;
          const b = s[k] as number;
          if (seen[b] === 1) return `[${k}]: ${b} repeats (must be a permutation of 0-255)`;
          seen[b] = 1;
        }
        return null;
      },
    },
    ['i', 'j', 'S'],
  );

const retry: Check = (v) => fieldsProblem(v, { attempts: positiveCount, notBefore: dueTime }, ['attempts', 'notBefore']);

/** A fault rule's state; the rule itself is checked by the simulation (sim/controlChecks.ts). */
const faultState: Check = (v) =>
  fieldsProblem(
    v,
    { rule: (r) => (isObject(r) ? jsonValueProblem(r, limits.jsonDepthMax) : `: must be a fault rule object, not ${show(r)}`), fired: safeCount, passed: safeCount, installedAt: instant },
    ['rule', 'fired'],
  );

const changeTypes = new Set(['ADDED', 'MODIFIED', 'DELETED']);

interface Context {
  readonly kinds: ReadonlyMap<string, { rt: ResourceType; apiVersion: string }>;
  /** `uid\0resource|namespace|name` for every owner reference of a stored object. */
  readonly ownedBy: Set<string>;
}

function objectsProblem(objects: unknown, ctx: Context): string | null {
  return recordProblem(objects, (id, byNamespace) => {
    const kind = ctx.kinds.get(id);
    if (kind === undefined) return `: no such resource (stored kinds: ${[...ctx.kinds.keys()].join(', ')})`;
    return trieProblem(byNamespace, (namespace, byName) => {
      if (kind.rt.namespaced ? namespace === '' : namespace !== '') return `: ${kind.rt.namespaced ? 'a namespaced kind needs a namespace' : 'a cluster-scoped kind has only the namespace ""'}`;
      return trieProblem(byName, (name, object) => {
        const p = storedObjectProblem(object, { rt: kind.rt, apiVersion: kind.apiVersion, namespace, name });
        if (p !== null) return p;
        const refs = (object as { metadata: { ownerReferences?: readonly { uid: unknown }[] } }).metadata.ownerReferences ?? [];
        for (const ref of refs) if (typeof ref?.uid === 'string' && ref.uid !== '') ctx.ownedBy.add(`${ref.uid}\u0000${id}|${namespace}|${name}`);
        return null;
      });
    });
  });
}

/** The owner index must be exactly the objects' owner references (store/ownerIndex.ts). */
function ownersProblem(owners: unknown, ctx: Context): string | null {
  const p = trieProblem(owners, (uid, dependents) =>
    trieProblem(dependents, (key, mark) => {
      if (mark !== true) return `: must be true, not ${show(mark)}`;
      if (!ctx.ownedBy.delete(`${uid}\u0000${key}`)) return ': no stored object has this owner reference';
      return null;
    }),
  );
  if (p !== null) return p;
  const missing = ctx.ownedBy.values().next();
  if (missing.done !== true) {
    const [uid, dependent] = missing.value.split('\u0000');
    return `: lacks the owner reference of ${dependent} to ${uid}`;
  }
  return null;
}

function logEntryProblem(e: unknown, ctx: Context): string | null {
  if (!isObject(e)) return `: must be a log entry object, not ${show(e)}`;
  for (const k of Object.keys(e)) if (!['rv', 'type', 'resource', 'namespace', 'name', 'object', 'prev'].includes(k) && e[k] !== undefined) return `${keySegment(k)}: unknown field`;
  const rv = positiveCount(e['rv']);
  if (rv !== null) return `.rv${rv}`;
  if (!changeTypes.has(e['type'] as string)) return `.type: must be "ADDED", "MODIFIED" or "DELETED", not ${show(e['type'])}`;
  const kind = typeof e['resource'] === 'string' ? ctx.kinds.get(e['resource']) : undefined;
  if (kind === undefined) return `.resource: must be a stored resource, not ${show(e['resource'])}`;
  const namespace = e['namespace'];
  const name = e['name'];
  if (typeof namespace !== 'string' || (kind.rt.namespaced ? namespace === '' : namespace !== '')) return `.namespace: must be ${kind.rt.namespaced ? 'a namespace' : '""'}, not ${show(namespace)}`;
  if (typeof name !== 'string' || name === '') return `.name: must be a name, not ${show(name)}`;
  const place = { rt: kind.rt, apiVersion: kind.apiVersion, namespace, name };
  const object = storedObjectProblem(e['object'], place);
  if (object !== null) return `.object${object}`;
  if (e['type'] === 'ADDED') return e['prev'] === null ? null : `.prev: must be null for ADDED, not ${show(e['prev'])}`;
  const prev = storedObjectProblem(e['prev'], place);
  return prev === null ? null : `.prev${prev}`;
}

/** Chunks of entries in increasing revision order, `size` their count (store/history.ts). */
function logProblem(log: unknown, ctx: Context): string | null {
  if (!isObject(log)) return `: must be an object, not ${show(log)}`;
  for (const k of Object.keys(log)) if (k !== 'chunks' && k !== 'size' && log[k] !== undefined) return `${keySegment(k)}: unknown field`;
  const chunks = log['chunks'];
  if (!Array.isArray(chunks)) return `.chunks: must be a list, not ${show(chunks)}`;
  let count = 0;
  let last = 0;
  for (let c = 0; c < chunks.length; c++) {
    const chunk = chunks[c] as unknown;
    if (!Array.isArray(chunk) || chunk.length === 0) return `.chunks[${c}]: must be a non-empty list, not ${show(chunk)}`;
    for (let i = 0; i < chunk.length; i++) {
      const e = chunk[i] as unknown;
      const p = logEntryProblem(e, ctx);
      if (p !== null) return `.chunks[${c}][${i}]${p}`;
      const rv = (e as { rv: number }).rv;
      if (rv <= last) return `.chunks[${c}][${i}].rv: ${rv} is not after ${last} (the log is in revision order)`;
      last = rv;
    }
    count += chunk.length;
  }
  if (log['size'] !== count) return `.size: must be the number of entries, ${count}, not ${show(log['size'])}`;
  return null;
}

/** Each controller's memory is a JSON object; the built-in ones' shapes are sim/controlChecks.ts's. */
const controllerMemory: Check = (v) => (isObject(v) ? jsonValueProblem(v, limits.jsonDepthMax) : `: must be an object (the controller's memory), not ${show(v)}`);

const worldFields: readonly string[] = [
  'format',
  'seed',
  'config',
  'now',
  'revision',
  'compactedRevision',
  'revisionAtLastCompaction',
  'nextCompactionAt',
  'rng',
  'objects',
  'log',
  'owners',
  'controllers',
  'faults',
  'retries',
];
const optionalFields = new Set(['faults', 'retries']);

/** The first problem of a world@2 value, as `world…: …`, or null. */
export function worldProblem(value: unknown): string | null {
  const p = worldPartsProblem(value);
  return p === null ? null : `world${p}`;
}

function worldPartsProblem(w: unknown): string | null {
  if (!isObject(w)) return `: must be an object, not ${show(w)}`;
  for (const k of Object.keys(w)) if (!worldFields.includes(k) && w[k] !== undefined) return `${keySegment(k)}: unknown field`;
  for (const k of worldFields) if (!optionalFields.has(k) && w[k] === undefined) return `${keySegment(k)}: is required`;
  const simple: readonly [string, Check][] = [
    ['format', oneOf('platform-sim/world@2')],
    ['seed', aString],
    ['config', (v) => fieldsProblem(v, configChecks, ['groupDomain', 'compactionIntervalMs', 'nodeAgent', 'podReadyAfterMs'])],
    ['now', instant],
    ['revision', positiveCount],
    ['compactedRevision', safeCount],
    ['revisionAtLastCompaction', safeCount],
    ['nextCompactionAt', dueTime],
    ['rng', (v) => recordProblem(v, (_, s) => rngState(s))],
    ['controllers', (v) => recordProblem(v, (_, m) => controllerMemory(m))],
    ['retries', (v) => (v === undefined ? null : recordProblem(v, (_, r) => retry(r)))],
    ['faults', (v) => (v === undefined ? null : Array.isArray(v) ? v.reduce<string | null>((p, s, i) => p ?? at(`[${i}]`, faultState(s)), null) : `: must be a list, not ${show(v)}`)],
  ];
  for (const [k, check] of simple) {
    const p = check(getOwn(w, k));
    if (p !== null) return `${keySegment(k)}${p}`;
  }
  const ctx: Context = { kinds: kindsOf((w['config'] as { groupDomain: GroupDomain }).groupDomain), ownedBy: new Set() };
  return at('.objects', objectsProblem(w['objects'], ctx)) ?? at('.owners', ownersProblem(w['owners'], ctx)) ?? at('.log', logProblem(w['log'], ctx));
}

const at = (segment: string, problem: string | null): string | null => (problem === null ? null : `${segment}${problem}`);
