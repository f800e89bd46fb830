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
import { listObjects } from '../store/objects.ts';
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

/** A namespace's events by key and their names, as read from one version of the event store. */
interface EventIndex {
  readonly byKey: ReadonlyMap<string, KubeObject>;
  readonly names: ReadonlySet<string>;
}

/**
 * Indexes by version of the whole event store (a stored version never changes): rounds that wrote
 * no event share one reading instead of listing every event again.
 */
const indexes = new WeakMap<object, Map<string, EventIndex>>();

function indexOf(world: World, namespace: string): EventIndex {
  const store = world.objects[events];
  if (store === undefined) return { byKey: new Map(), names: new Set() };
  let byNamespace = indexes.get(store);
  if (byNamespace === undefined) indexes.set(store, (byNamespace = new Map()));
  const known = byNamespace.get(namespace);
  if (known !== undefined) return known;
  const byKey = new Map<string, KubeObject>();
  const names = new Set<string>();
  for (const e of listObjects(world, events, namespace)) {
    names.add(e.metadata.name ?? '');
    byKey.set(keyOf(e), e);
  }
  const index = { byKey, names };
  byNamespace.set(namespace, index);
  return index;
}

/**
 * The events one controller records while its intents are applied: what the event store held
 * when it was first read, overlaid with what this recorder has written since.
 */
export class EventRecorder {
  readonly #component: string;
  readonly #base = new Map<string, EventIndex>();
  readonly #byKey = new Map<string, Map<string, KubeObject>>();
  readonly #names = new Map<string, Set<string>>();

  constructor(component: string) {
    this.#component = component;
  }

  #read(world: World, namespace: string): { lookup: (key: string) => KubeObject | undefined; taken: (name: string) => boolean; names: Set<string> } {
    let base = this.#base.get(namespace);
    if (base === undefined) {
      base = indexOf(world, namespace);
      this.#base.set(namespace, base);
    }
    const b = base;
    let byKey = this.#byKey.get(namespace);
    if (byKey === undefined) this.#byKey.set(namespace, (byKey = new Map()));
    let names = this.#names.get(namespace);
    if (names === undefined) this.#names.set(namespace, (names = new Set()));
    const own = byKey;
    const ownNames = names;
    return { lookup: (k) => own.get(k) ?? b.byKey.get(k), taken: (n) => ownNames.has(n) || b.names.has(n), names: ownNames };
  }

  /** The intent recording one event in `world`. */
  record(world: World, r: EventRecord): Intent {
    const namespace = r.involved.metadata.namespace ?? 'default';
    const { lookup, taken, names } = this.#read(world, namespace);
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
    const existing = lookup(keyOf(event));
    if (existing !== undefined) {
      const count = typeof existing['count'] === 'number' ? existing['count'] : 1;
      return { type: 'update', resource: events, subresource: '', object: { ...existing, count: count + 1, lastTimestamp: now } };
    }
    // Named after the object and the time in nanoseconds (hex); events recorded in the same
    // millisecond take the following nanoseconds.
    let nanos = BigInt(world.now) * 1_000_000n;
    while (taken(`${base}.${nanos.toString(16)}`)) nanos += 1n;
    const name = `${base}.${nanos.toString(16)}`;
    names.add(name);
    return { type: 'create', resource: events, object: { ...event, metadata: { name, namespace } } };
  }

  /** An event as stored after one of this recorder's intents. */
  stored(event: KubeObject): void {
    const namespace = event.metadata.namespace ?? '';
    this.#byKey.get(namespace)?.set(keyOf(event), event);
    this.#names.get(namespace)?.add(event.metadata.name ?? '');
  }
}
