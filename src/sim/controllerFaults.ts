/**
 * `controller` fault rules: a controller that pauses (it does not reconcile and its wake-ups are
 * ignored, but it keeps its memory and resumes where it was) or crashes (its memory —
 * `world.controllers[name]` — and its pending retries are gone, as a restarted process that
 * relists; it stays down until it restarts). The window is virtual time counted from the rule's
 * installation: it opens at `from` and lasts `for` (a pause without `for` lasts until the rules
 * are cleared, a crash without `for` restarts at once). A rule fires once, when its window opens.
 */
import { parseDuration, type Instant } from '../core/duration.ts';
import { worldWith, type World } from '../store/world.ts';
import { kindOfRule, type ControllerFault, type FaultState } from './faultRules.ts';
import { controllersNamed } from './controllerNames.ts';

interface Window {
  readonly start: Instant;
  /** The first instant the controller runs again; null: not while the rule is installed. */
  readonly end: Instant | null;
}

function windowOf(state: FaultState): Window {
  const rule = state.rule as ControllerFault;
  const start = (state.installedAt ?? 0) + (parseDuration(rule.from ?? '0s') ?? 0);
  const length = rule.for === undefined ? null : (parseDuration(rule.for) ?? 0);
  if (rule.action === 'crash') return { start, end: start + (length ?? 0) };
  return { start, end: length === null ? null : start + length };
}

function controllerRules(world: World): { readonly state: FaultState; readonly index: number }[] {
  const out: { state: FaultState; index: number }[] = [];
  (world.faults ?? []).forEach((s, index) => {
    const state = s as FaultState;
    if (kindOfRule(state.rule) === 'controller') out.push({ state, index });
  });
  return out;
}

/** None stopped (shared: most settles have no fault rules). */
const noneStopped: ReadonlySet<string> = new Set();

/** The controllers (by name) that are paused or down at the world's instant. */
export function stoppedControllers(world: World, controllers: readonly { readonly name: string }[]): ReadonlySet<string> {
  if (world.faults === undefined || world.faults.length === 0) return noneStopped;
  const stopped = new Set<string>();
  for (const { state } of controllerRules(world)) {
    const { start, end } = windowOf(state);
    if (world.now < start || (end !== null && world.now >= end)) continue;
    for (const name of controllersNamed((state.rule as ControllerFault).controller, controllers)) stopped.add(name);
  }
  return stopped;
}

/**
 * Opens the windows due at the world's instant: each such rule fires (once), and a crash wipes the
 * controller's memory and pending retries. The same world when none is due.
 */
export function openDueWindows(world: World, controllers: readonly { readonly name: string }[]): World {
  if (world.faults === undefined || world.faults.length === 0) return world;
  let w = world;
  for (const { state, index } of controllerRules(world)) {
    if (state.fired > 0 || windowOf(state).start > w.now) continue;
    const rule = state.rule as ControllerFault;
    w = worldWith(w, { faults: (w.faults ?? []).map((s, j) => (j === index ? { ...state, fired: 1 } : s)) });
    if (rule.action === 'crash') for (const name of controllersNamed(rule.controller, controllers)) w = forgetEverything(w, name);
  }
  return w;
}

/** What a restarted process does not have: its memory and its work queue's backoffs. */
function forgetEverything(world: World, controller: string): World {
  const { [controller]: _memory, ...others } = world.controllers;
  const prefix = `${controller}/`;
  const retries = Object.entries(world.retries ?? {}).filter(([slot]) => !slot.startsWith(prefix));
  const { retries: _all, ...rest } = world;
  return { ...rest, controllers: others, ...(retries.length === 0 ? {} : { retries: Object.fromEntries(retries) }) };
}

/**
 * The next instant a window opens or closes, or null: a window not opened yet is due at its start
 * (now, if that has come: the rule was installed with `from` 0s, and it opens at once), a close
 * only after now.
 */
export function nextWindowEdge(world: World): Instant | null {
  let next: Instant | null = null;
  for (const { state } of controllerRules(world)) {
    const { start, end } = windowOf(state);
    const edges = state.fired === 0 ? [Math.max(start, world.now)] : end !== null && end > world.now ? [end] : [];
    for (const t of edges) if (next === null || t < next) next = t;
  }
  return next;
}
