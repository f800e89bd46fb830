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
 * Stored events by namespace and correlation key, kept up to date by the event store's changes
 * (store/views.ts) rather than by listing every event each time one is recorded. Should several
 * events share a key (written by someone else), the one with the greatest name is the one found,
 * whatever order they were written in.
 */
type EventIndex = Map<string, Map<string, Map<string, KubeObject>>>;

const index = new ResourceView<EventIndex>(events, {
  empty: () => new Map(),
  change(state, namespace, name, before, after) {
    let byKey = state.get(namespace);
    if (byKey === undefined) state.set(namespace, (byKey = new Map()));
    if (before !== undefined) {
      const key = keyOf(before);
      const named = byKey.get(key);
      named?.delete(name);
      if (named?.size === 0) byKey.delete(key);
    }
    if (after !== undefined) {
      const key = keyOf(after);
      let named = byKey.get(key);
      if (named === undefined) byKey.set(key, (named = new Map()));
      named.set(name, after);
    }
  },
});

function storedEvent(world: World, namespace: string, key: string): KubeObject | undefined {
  const named = index.read(world).get(namespace)?.get(key);
  if (named === undefined) return undefined;
  let found: [string, KubeObject] | undefined;
  for (const entry of named) if (found === undefined || compareKeys(entry[0], found[0]) > 0) found = entry;
  return found?.[1];
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
    let nanos = BigInt(world.now) * 1_000_000n;
    while (getObject(world, events, namespace, `${base}.${nanos.toString(16)}`) !== undefined) nanos += 1n;
    const name = `${base}.${nanos.toString(16)}`;
    return { type: 'create', resource: events, object: { ...event, metadata: { name, namespace } } };
  }
}
