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

/**
 * The events one controller records while its intents are applied. Reads a namespace's events
 * once; `stored` keeps it current as its records are written.
 */
export class EventRecorder {
  readonly #component: string;
  readonly #byKey = new Map<string, Map<string, KubeObject>>();
  readonly #names = new Map<string, Set<string>>();

  constructor(component: string) {
    this.#component = component;
  }

  #read(world: World, namespace: string): { byKey: Map<string, KubeObject>; names: Set<string> } {
    let byKey = this.#byKey.get(namespace);
    let names = this.#names.get(namespace);
    if (byKey === undefined || names === undefined) {
      byKey = new Map();
      names = new Set();
      for (const e of listObjects(world, events, namespace)) {
        names.add(e.metadata.name ?? '');
        byKey.set(keyOf(e), e);
      }
      this.#byKey.set(namespace, byKey);
      this.#names.set(namespace, names);
    }
    return { byKey, names };
  }

  /** The intent recording one event in `world`. */
  record(world: World, r: EventRecord): Intent {
    const namespace = r.involved.metadata.namespace ?? 'default';
    const { byKey, names } = this.#read(world, namespace);
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
    const existing = byKey.get(keyOf(event));
    if (existing !== undefined) {
      const count = typeof existing['count'] === 'number' ? existing['count'] : 1;
      return { type: 'update', resource: events, subresource: '', object: { ...existing, count: count + 1, lastTimestamp: now } };
    }
    // Named after the object and the time in nanoseconds (hex); events recorded in the same
    // millisecond take the following nanoseconds.
    let nanos = BigInt(world.now) * 1_000_000n;
    while (names.has(`${base}.${nanos.toString(16)}`)) nanos += 1n;
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
