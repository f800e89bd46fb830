/**
 * Events as a controller's event recorder writes them (core/v1, the legacy recorder of
 * kube-controller-manager): `<object>.<hex of the time in ns>` in the object's namespace, with
 * `source.component` and `reportingComponent` naming the controller, first/last timestamps and a
 * count. An event identical to an existing one (same object, type, reason, message and source) is
 * not created again: the existing one's count goes up and its lastTimestamp moves, as the
 * recorder's correlator does. Pure: each record is an intent; the caller applies it and tells the
 * recorder what was stored.
 */
import type { KubeObject } from '../api/meta.ts';
import { formatInstant } from '../core/duration.ts';
import { objectField } from '../core/json.ts';
import { getObject } from '../store/objects.ts';
import { compareKeys } from '../store/trie.ts';
import { ResourceView } from '../store/views.ts';
import type { World } from '../store/world.ts';
import type { Intent } from './types.ts';

export type EventType = 'Normal' | 'Warning';

export interface EventRecord {
  /** The object the event is about (its apiVersion and kind are set, as stored objects have). */
  readonly involved: KubeObject;
  readonly type: EventType;
  readonly reason: string;
  readonly message: string;
}

const events = 'core/events';

function keyOf(e: KubeObject): string {
  const src = objectField(e, 'source');
  const inv = objectField(e, 'involvedObject');
  return JSON.stringify([src['component'] ?? '', inv['uid'] ?? '', e['type'] ?? '', e['reason'] ?? '', e['message'] ?? '']);
}

/**
 * Stored events by namespace, kept up to date by the event store's changes (store/views.ts)
 * rather than by listing every event each time one is recorded:
 * - by correlation key: should several events share one (written by someone else), the one with
 *   the greatest name is the one found, whatever order they were written in;
 * - the names of the form `<object>.<hex nanoseconds>` by object and millisecond, so the first
 *   free name of a burst of events in one millisecond is found without probing every taken one.
 */
interface NamespaceEvents {
  readonly byKey: Map<string, Map<string, KubeObject>>;
  readonly runs: Map<string, Run>;
}

/** Names `<object>.<hex ns>` taken within one millisecond: how many, the lowest and highest. */
interface Run {
  count: number;
  min: bigint;
  max: bigint;
  /** A name of the run went: min and max no longer say which names are taken. */
  holed: boolean;
}

/** `<object>.<hex nanoseconds>` split, or null for any other name. */
function timedName(name: string): { base: string; nanos: bigint } | null {
  const dot = name.lastIndexOf('.');
  if (dot < 0 || !/^[0-9a-f]+$/.test(name.slice(dot + 1))) return null;
  return { base: name.slice(0, dot), nanos: BigInt(`0x${name.slice(dot + 1)}`) };
}

const runKey = (base: string, nanos: bigint): string => `${base}@${nanos / 1_000_000n}`;

const index = new ResourceView<Map<string, NamespaceEvents>>(events, {
  empty: () => new Map(),
  change(state, namespace, name, before, after) {
    let ns = state.get(namespace);
    if (ns === undefined) state.set(namespace, (ns = { byKey: new Map(), runs: new Map() }));
    const timed = timedName(name);
    const run = timed === null ? undefined : ns.runs.get(runKey(timed.base, timed.nanos));
    if (before !== undefined) {
      const key = keyOf(before);
      const named = ns.byKey.get(key);
      named?.delete(name);
      if (named?.size === 0) ns.byKey.delete(key);
      if (run !== undefined && after === undefined) {
        run.count--;
        run.holed = true;
        if (run.count === 0) ns.runs.delete(runKey(timed!.base, timed!.nanos));
      }
    }
    if (after !== undefined) {
      const key = keyOf(after);
      let named = ns.byKey.get(key);
      if (named === undefined) ns.byKey.set(key, (named = new Map()));
      named.set(name, after);
      if (timed !== null && before === undefined) {
        if (run === undefined) ns.runs.set(runKey(timed.base, timed.nanos), { count: 1, min: timed.nanos, max: timed.nanos, holed: false });
        else {
          run.count++;
          if (timed.nanos < run.min) run.min = timed.nanos;
          if (timed.nanos > run.max) run.max = timed.nanos;
        }
      }
    }
  },
});

function storedEvent(world: World, namespace: string, key: string): KubeObject | undefined {
  const named = index.read(world).get(namespace)?.byKey.get(key);
  if (named === undefined) return undefined;
  let found: [string, KubeObject] | undefined;
  for (const entry of named) if (found === undefined || compareKeys(entry[0], found[0]) > 0) found = entry;
  return found?.[1];
}

/**
 * The first name `<base>.<hex nanoseconds>` from `start` on that no stored event has: past a run
 * of names taken one after the other from `start` without probing each (a burst of events in one
 * millisecond), then probing.
 */
function freeName(world: World, namespace: string, base: string, start: bigint): string {
  const run = index.read(world).get(namespace)?.runs.get(runKey(base, start));
  let nanos = run !== undefined && !run.holed && run.min === start && run.max - run.min + 1n === BigInt(run.count) ? run.max + 1n : start;
  while (getObject(world, events, namespace, `${base}.${nanos.toString(16)}`) !== undefined) nanos += 1n;
  return `${base}.${nanos.toString(16)}`;
}

/**
 * The events one controller records while its intents are applied: the event store of the world
 * each record is made in (every earlier record of this recorder applied to it, or refused).
 */
export class EventRecorder {
  readonly #component: string;

  constructor(component: string) {
    this.#component = component;
  }

  /** The intent recording one event in `world`. */
  record(world: World, r: EventRecord): Intent {
    const namespace = r.involved.metadata.namespace ?? 'default';
    const now = formatInstant(world.now);
    const base = r.involved.metadata.name ?? '';
    const event: KubeObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: '', namespace },
      involvedObject: {
        kind: r.involved.kind ?? '',
        namespace,
        name: base,
        uid: r.involved.metadata.uid ?? '',
        apiVersion: r.involved.apiVersion ?? '',
        resourceVersion: r.involved.metadata.resourceVersion ?? '',
      },
      reason: r.reason,
      message: r.message,
      source: { component: this.#component },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
      type: r.type,
      eventTime: null,
      reportingComponent: this.#component,
      reportingInstance: '',
    };
    const existing = storedEvent(world, namespace, keyOf(event));
    if (existing !== undefined) {
      const count = typeof existing['count'] === 'number' ? existing['count'] : 1;
      return { type: 'update', resource: events, subresource: '', object: { ...existing, count: count + 1, lastTimestamp: now } };
    }
    // Named after the object and the time in nanoseconds (hex); events recorded in the same
    // millisecond take the following nanoseconds.
    const name = freeName(world, namespace, base, BigInt(world.now) * 1_000_000n);
    return { type: 'create', resource: events, object: { ...event, metadata: { name, namespace } } };
  }
}
