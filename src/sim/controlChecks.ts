/**
 * What the control inputs must satisfy before they change anything, shared by the `/sim/v1`
 * endpoints (a 400) and the library (a PlatformSimError): an advance stays within virtual time
 * and within the wake-ups one advance may visit; a world that replaces the running one (its
 * shape already checked by store/validateWorld.ts) is for this simulation — its names mode, its
 * fault rules against its controllers, the memories of the built-in controllers it runs.
 */
import { formatDuration, formatInstant } from '../core/duration.ts';
import { getOwn, isObject } from '../core/json.ts';
import { limits } from '../core/limits.ts';
import type { Controller } from '../controllers/types.ts';
import { agentName } from '../controllers/node-agent/agentState.ts';
import { garbageCollector } from '../controllers/garbage-collector/garbageCollector.ts';
import { statefulSetController } from '../controllers/stateful-set/statefulSetController.ts';
import type { GroupDomain, World } from '../store/world.ts';
import { trieProblem } from '../store/validateTrie.ts';
import { instant } from '../store/validateWorld.ts';
import { keySegment, show } from '../store/validateStoredObject.ts';
import { validateFaultRules, type FaultRule } from './faultRules.ts';
import { checkFaultsFor } from './faultChecks.ts';
import { builtInControllers } from './controllers.ts';

/**
 * Why moving the clock `ms` forward is refused, or null. Virtual time never passes the last
 * instant RFC 3339 can write; and one advance crosses at most `advanceWakeupsMax` history
 * compactions (one per `compactionInterval`), the wake-ups the scheduler visits on its way:
 * a longer move would skip the rest, so it is refused and can be made in steps.
 */
export function advanceProblem(world: World, ms: number): string | null {
  const until = world.now + ms;
  if (until > limits.instantMax) {
    return `advancing ${formatDuration(ms)} from ${formatInstant(world.now)} would pass ${formatInstant(limits.instantMax)}, the last instant of virtual time (RFC 3339 writes four-digit years)`;
  }
  const interval = world.config.compactionIntervalMs;
  const compactions = until < world.nextCompactionAt ? 0 : Math.floor((until - world.nextCompactionAt) / interval) + 1;
  if (compactions > limits.advanceWakeupsMax) {
    return `advancing ${formatDuration(ms)} crosses ${compactions} history compactions (one every ${formatDuration(interval)}); one advance may cross at most ${limits.advanceWakeupsMax}: advance in shorter steps`;
  }
  return null;
}

type Check = (v: unknown) => string | null;

const count: Check = (v) => (Number.isSafeInteger(v) && (v as number) >= 0 ? null : `: must be a non-negative integer, not ${show(v)}`);

/** An object with exactly these known fields (absent optional ones allowed). */
function fields(v: unknown, checks: Readonly<Record<string, Check>>, required: readonly string[]): string | null {
  if (!isObject(v)) return `: must be an object, not ${show(v)}`;
  for (const k of required) if (getOwn(v, k) === undefined) return `${keySegment(k)}: is required`;
  for (const k of Object.keys(v)) {
    if (v[k] === undefined) continue;
    const check = Object.hasOwn(checks, k) ? checks[k] : undefined;
    if (check === undefined) return `${keySegment(k)}: unknown field`;
    const p = check(v[k]);
    if (p !== null) return `${keySegment(k)}${p}`;
  }
  return null;
}

const strings: Check = (v) => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? null : `: must be a list of strings, not ${show(v)}`);
const aString: Check = (v) => (typeof v === 'string' ? null : `: must be a string, not ${show(v)}`);
const decision: Check = (v) => (v === 'fired' || v === 'passed' || v === 'spared' ? null : `: must be "fired", "passed" or "spared", not ${show(v)}`);

/** The node agent's memory (controllers/node-agent/agentState.ts, faultMemory.ts). */
const agentMemory: Check = (v) =>
  fields(
    v,
    {
      applied: (t) => trieProblem(t, (_, steps) => strings(steps)),
      ips: (t) => trieProblem(t, (_, ip) => aString(ip)),
      nextIp: count,
      lost: (x) => (x === true ? null : `: must be true when present, not ${show(x)}`),
      faults: (m) => {
        if (!isObject(m)) return `: must be an object, not ${show(m)}`;
        for (const [key, rule] of Object.entries(m)) {
          const p = fields(rule, { rule: aString, fired: count, passed: count, pods: (t) => trieProblem(t, (_, d) => decision(d)) }, ['rule', 'fired', 'passed', 'pods']);
          if (p !== null) return `[${JSON.stringify(key)}]${p}`;
        }
        return null;
      },
    },
    ['applied', 'ips', 'nextIp'],
  );

/** The garbage collector's memory: the revision its log cursor reached. */
const collectorMemory: Check = (v) => fields(v, { cursor: count }, ['cursor']);

/** The StatefulSet controller's memory: by set uid, its pod writes in a second (controllers/stateful-set/pacing.ts). */
const pacingMemory: Check = (v) =>
  fields(
    v,
    {
      sets: (m) => {
        if (!isObject(m)) return `: must be an object, not ${show(m)}`;
        for (const [uid, pace] of Object.entries(m)) {
          const p = fields(pace, { second: instant, writes: count, more: (x) => (x === true ? null : `: must be true when present, not ${show(x)}`) }, ['second', 'writes']);
          if (p !== null) return `[${JSON.stringify(uid)}]${p}`;
        }
        return null;
      },
    },
    [],
  );

const builtInMemories: readonly (readonly [string, Check])[] = [
  [agentName, agentMemory],
  [garbageCollector.name, collectorMemory],
  [statefulSetController.name, pacingMemory],
];

/**
 * Why `replacement` cannot replace the world of a simulation serving `domain` names with
 * `controllers`, as `world…: …`, or null.
 */
export function replacementProblem(replacement: World, domain: GroupDomain, controllers: readonly Controller[] = builtInControllers): string | null {
  if (replacement.config.groupDomain !== domain) {
    return `world.config.groupDomain: "${replacement.config.groupDomain}", but this simulation serves the "${domain}" names (a world keeps the names it was made with)`;
  }
  const rules = (replacement.faults ?? []).map((s) => s.rule as FaultRule);
  const checked = validateFaultRules(rules);
  const problem = checked.ok ? checkFaultsFor(rules, controllers) : checked.message;
  if (problem !== null) return problem.replace(/^faults\[(\d+)\]/, 'world.faults[$1].rule');
  for (const [name, check] of builtInMemories) {
    // A controller of the caller's that took a built-in's name keeps a memory of its own making.
    const running = controllers.find((c) => c.name === name);
    if (running === undefined || !builtInControllers.includes(running)) continue;
    const memory = Object.hasOwn(replacement.controllers, name) ? replacement.controllers[name] : undefined;
    const p = memory === undefined ? null : check(memory);
    if (p !== null) return `world.controllers[${JSON.stringify(name)}]${p}`;
  }
  return null;
}
