/**
 * What the StatefulSet checkers share (not a checker): a set's spec as the properties read it, a
 * member's health, and the writes a step made replayed in log order, so that a checker sees each
 * write with the world as it was just before it. A settle runs many controller rounds within one
 * instant; the checkers run once per instant, and the watch log between the two worlds is the
 * only place the order of those writes is kept. Every write of a step happens at `after.now`.
 *
 * Who made a write is not in the log. A pod the StatefulSet controller creates carries the set
 * as controller owner from its creation; a pod the controller deletes is followed at
 * once by the event its recorder writes (`delete Pod <pod> in StatefulSet <set> successful`),
 * which is how these checkers tell the controller's deletions from a user's or the garbage
 * collector's. The health rules are reference/statefulset.md §6.3, written again here so that a
 * mistake in the controller's copy is not checked against itself.
 */
import type { KubeObject, OwnerReference } from '../../api/meta.ts';
import { namesFor, type Names } from '../../api/names.ts';
import { parseInstant, type Instant } from '../../core/duration.ts';
import { isObject, objectField } from '../../core/json.ts';
import { entriesAfter, type LogEntry } from '../../store/history.ts';
import { getObject, listObjects } from '../../store/objects.ts';
import type { World } from '../../store/world.ts';
import type { Checker } from './types.ts';

export const pods = 'core/pods';
export const sets = 'apps/statefulsets';
export const revisions = 'apps/controllerrevisions';
export const claims = 'core/persistentvolumeclaims';
const events = 'core/events';

/** The pod label naming the ControllerRevision it was built from. */
export const revisionLabel = 'controller-revision-hash';

export interface SetView {
  readonly name: string;
  readonly namespace: string;
  readonly uid: string;
  readonly start: number;
  readonly replicas: number;
  readonly parallel: boolean;
  readonly onDelete: boolean;
  /** `rollingUpdate.partition`, 0 when absent: compared with the index `ordinal - start`. */
  readonly partition: number;
  /** maxUnavailable scaled against replicas: percentages rounded down, then at least 1. */
  readonly maxUnavailable: number;
  readonly minReadySeconds: number;
  readonly claimTemplates: readonly string[];
  readonly deleting: boolean;
}

const int = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

function scaled(v: unknown, replicas: number): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+%$/.test(v) ? Math.floor((replicas * Number.parseInt(v, 10)) / 100) : 1;
  return Math.max(1, n);
}

export function setView(set: KubeObject): SetView {
  const spec = objectField(set, 'spec');
  const strategy = objectField(spec, 'updateStrategy');
  const rolling = objectField(strategy, 'rollingUpdate');
  const replicas = int(spec['replicas'], 1);
  const templates = Array.isArray(spec['volumeClaimTemplates']) ? spec['volumeClaimTemplates'].filter(isObject) : [];
  return {
    name: set.metadata.name ?? '',
    namespace: set.metadata.namespace ?? '',
    uid: set.metadata.uid ?? '',
    start: int(objectField(spec, 'ordinals')['start'], 0),
    replicas,
    parallel: spec['podManagementPolicy'] === 'Parallel',
    onDelete: strategy['type'] === 'OnDelete',
    partition: int(rolling['partition'], 0),
    maxUnavailable: scaled(rolling['maxUnavailable'], replicas),
    minReadySeconds: int(spec['minReadySeconds'], 0),
    claimTemplates: templates.map((t) => String(objectField(t, 'metadata')['name'] ?? '')),
    deleting: set.metadata.deletionTimestamp !== undefined,
  };
}

export const inRange = (set: SetView, ordinal: number): boolean => ordinal >= set.start && ordinal < set.start + set.replicas;

export const podName = (set: SetView, ordinal: number): string => `${set.name}-${ordinal}`;

/** The ordinal in `<set>-<ordinal>` (decimal digits only), or null. */
export function ordinalOf(setName: string, name: string): number | null {
  const dash = name.lastIndexOf('-');
  if (dash < 0 || name.slice(0, dash) !== setName) return null;
  const tail = name.slice(dash + 1);
  return /^[0-9]+$/.test(tail) ? Number(tail) : null;
}

export function controllerOf(obj: KubeObject): OwnerReference | undefined {
  return (obj.metadata.ownerReferences ?? []).find((r) => r.controller === true);
}

export function namesOf(world: World): Names {
  return namesFor(world.config.groupDomain);
}

function readyCondition(pod: KubeObject): Record<string, unknown> | undefined {
  const list = objectField(pod, 'status')['conditions'];
  return Array.isArray(list) ? list.filter(isObject).find((c) => c['type'] === 'Ready') : undefined;
}

export const isFailed = (pod: KubeObject): boolean => ['Failed', 'Succeeded'].includes(String(objectField(pod, 'status')['phase'] ?? ''));

const goZeroTime = parseInstant('0001-01-01T00:00:00Z');

/** Not terminating, Running with Ready True, for at least minReadySeconds (to the moment) at `now`. */
export function isAvailable(pod: KubeObject, minReadySeconds: number, now: Instant): boolean {
  if (pod.metadata.deletionTimestamp !== undefined || objectField(pod, 'status')['phase'] !== 'Running') return false;
  const ready = readyCondition(pod);
  if (ready?.['status'] !== 'True') return false;
  if (minReadySeconds <= 0) return true;
  const since = typeof ready['lastTransitionTime'] === 'string' ? parseInstant(ready['lastTransitionTime']) : null;
  return since !== null && since !== goZeroTime && since + minReadySeconds * 1000 <= now;
}

/** A few words on why a member is not available, for messages. */
export function healthWords(pod: KubeObject | undefined): string {
  if (pod === undefined) return 'missing';
  if (pod.metadata.deletionTimestamp !== undefined) return 'terminating';
  const phase = String(objectField(pod, 'status')['phase'] ?? '');
  if (phase !== 'Running') return phase === '' ? 'not started' : phase;
  return readyCondition(pod)?.['status'] === 'True' ? 'ready, not yet available' : 'running, not ready';
}

/** The world as the replayed writes left it: the world before the step, then each write in turn. */
export class Replay {
  readonly #base: World;
  readonly #overlay = new Map<string, KubeObject | null>();

  constructor(base: World) {
    this.#base = base;
  }

  get(resource: string, namespace: string, name: string): KubeObject | undefined {
    const changed = this.#overlay.get(`${resource}\u0000${namespace}\u0000${name}`);
    if (changed !== undefined) return changed ?? undefined;
    return getObject(this.#base, resource, namespace, name);
  }

  list(resource: string, namespace: string): KubeObject[] {
    const out = listObjects(this.#base, resource, namespace).filter((o) => !this.#overlay.has(`${resource}\u0000${namespace}\u0000${o.metadata.name ?? ''}`));
    const prefix = `${resource}\u0000${namespace}\u0000`;
    for (const [key, o] of this.#overlay) if (key.startsWith(prefix) && o !== null) out.push(o);
    return out;
  }

  apply(e: LogEntry): void {
    this.#overlay.set(`${e.resource}\u0000${e.namespace}\u0000${e.name}`, e.type === 'DELETED' ? null : e.object);
  }

  /** The StatefulSet controlling `obj`, as it is now, when it still exists with that uid. */
  controllingSet(obj: KubeObject): KubeObject | undefined {
    const ref = controllerOf(obj);
    if (ref === undefined || ref.kind !== 'StatefulSet') return undefined;
    const set = this.get(sets, obj.metadata.namespace ?? '', ref.name);
    return set !== undefined && set.metadata.uid === ref.uid ? set : undefined;
  }
}

/**
 * Calls `visit` for every write of the step, in log order, with the world replayed up to just
 * before it; false when the log no longer holds every write (nothing is checked then).
 */
export function replayStep(before: World, after: World, visit: (entry: LogEntry, index: number, entries: readonly LogEntry[], state: Replay) => void): boolean {
  if (after.revision <= before.revision) return true;
  const entries = [...entriesAfter(after.log, before.revision)];
  if (entries[0]?.rv !== before.revision + 1 || entries.length !== after.revision - before.revision) return false;
  const state = new Replay(before);
  entries.forEach((e, i) => {
    visit(e, i, entries, state);
    state.apply(e);
  });
  return true;
}

/** Whether any write of the step touched `resource` (a cheap way out for the checkers). */
export function stepTouches(before: World, after: World, resource: string): boolean {
  return after.revision > before.revision && entriesAfter(after.log, before.revision, resource).next().done !== true;
}

/** A pod starts going: a deletionTimestamp appears, or it is removed without one. */
export function deletionStarts(entry: LogEntry, old: KubeObject | undefined): boolean {
  if (old === undefined || old.metadata.deletionTimestamp !== undefined) return false;
  return entry.type === 'DELETED' || entry.object.metadata.deletionTimestamp !== undefined;
}

/**
 * Whether the events written right after `entries[index]` include the StatefulSet controller's
 * `delete Pod <pod> in StatefulSet <set> successful` about `set`: the deletion was the controller's.
 */
export function deletedByController(entries: readonly LogEntry[], index: number, set: KubeObject, pod: string): boolean {
  const message = `delete Pod ${pod} in StatefulSet ${set.metadata.name ?? ''} successful`;
  for (let j = index + 1; j < entries.length && entries[j]!.resource === events; j++) {
    const e = entries[j]!.object;
    if (e['message'] === message && objectField(e, 'source')['component'] === 'statefulset-controller' && objectField(e, 'involvedObject')['uid'] === set.metadata.uid) return true;
  }
  return false;
}

/** Each pod the step created with a StatefulSet as controller (the controller's creations), with the set as it was then. */
export function forEachCreatedMember(before: World, after: World, visit: (pod: KubeObject, set: SetView, ordinal: number | null, state: Replay) => void): void {
  if (!stepTouches(before, after, pods)) return;
  replayStep(before, after, (entry, _i, _all, state) => {
    if (entry.resource !== pods || entry.type !== 'ADDED') return;
    const set = state.controllingSet(entry.object);
    if (set !== undefined) visit(entry.object, setView(set), ordinalOf(set.metadata.name ?? '', entry.name), state);
  });
}

/** A checker of the pods the controller creates: `check` tells what is wrong with one, at its creation. */
export function creationChecker(name: string, check: (pod: KubeObject, set: SetView, ordinal: number | null, state: Replay, now: Instant) => string[]): Checker {
  return {
    name,
    check(before, after) {
      const problems: string[] = [];
      if (before !== null) forEachCreatedMember(before, after, (pod, set, ordinal, state) => problems.push(...check(pod, set, ordinal, state, after.now)));
      return problems;
    },
  };
}
