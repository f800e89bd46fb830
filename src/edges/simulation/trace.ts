/**
 * The trace: what happened, in order, in virtual time — requests and their answers, every write
 * with the actor that made it (the API or a controller), time moving. Built from the world's
 * watch log after each step, so it costs nothing inside the pure core; bounded (oldest dropped).
 * Same seed and inputs give the same trace, byte for byte.
 */
import { formatInstant } from '../../core/duration.ts';
import { limits } from '../../core/limits.ts';
import { entriesAfter, type ChangeType } from '../../store/history.ts';
import type { World } from '../../store/world.ts';
import type { KubeObject } from '../../api/meta.ts';
import type { Rejection, WriteAttribution } from '../../sim/step.ts';

export type TraceEvent =
  | { readonly seq: number; readonly at: string; readonly type: 'request'; readonly method: string; readonly path: string; readonly user: string; readonly code: number }
  | {
      readonly seq: number;
      readonly at: string;
      readonly type: 'write';
      readonly rv: number;
      readonly change: ChangeType;
      readonly resource: string;
      readonly namespace: string;
      readonly name: string;
      /** `api` for requests, else the controller's name. */
      readonly by: string;
      /** The object's state in a few words (its kind's table cells, e.g. `Approved,Issued`). */
      readonly summary?: string;
    }
  | { readonly seq: number; readonly at: string; readonly type: 'clock'; readonly to: string }
  /** A controller write the API refused (a bug in that controller): what it tried and the Status. */
  | {
      readonly seq: number;
      readonly at: string;
      readonly type: 'rejected';
      readonly by: string;
      readonly intent: string;
      readonly code: number;
      readonly reason: string;
      readonly message: string;
    };

type WriteEvent = Extract<TraceEvent, { readonly type: 'write' }>;

/** A few words about an object's state, by resource id (the kind's table cells). */
export type Summarize = (resource: string, object: KubeObject, now: number) => string;

export class Trace {
  #events: TraceEvent[] = [];
  #seq = 0;
  readonly #summarize: Summarize;

  constructor(summarize: Summarize = () => '') {
    this.#summarize = summarize;
  }

  /** The newest events, at most `traceEventsMax`. */
  get events(): readonly TraceEvent[] {
    const extra = this.#events.length - limits.traceEventsMax;
    return extra > 0 ? this.#events.slice(extra) : this.#events;
  }

  #push(e: TraceEvent): void {
    this.#events.push(e);
    // Trim in batches (a tenth at a time): dropping one event per push would copy the whole
    // array on every request once the trace is full.
    if (this.#events.length > limits.traceEventsMax * 1.1) this.#events.splice(0, this.#events.length - limits.traceEventsMax);
  }

  request(world: World, method: string, path: string, user: string, code: number): void {
    this.#push({ seq: ++this.#seq, at: formatInstant(world.now), type: 'request', method, path, user, code });
  }

  clock(world: World): void {
    this.#push({ seq: ++this.#seq, at: formatInstant(world.now), type: 'clock', to: formatInstant(world.now) });
  }

  /** The writes between two worlds, attributed to the API unless a controller made them. */
  writes(before: World, after: World, attributions: readonly WriteAttribution[]): void {
    if (after.revision === before.revision) return;
    for (const e of entriesAfter(after.log, before.revision)) {
      if (e.rv > after.revision) break;
      const by = attributions.find((a) => e.rv > a.after && e.rv <= a.upTo)?.by ?? 'api';
      const summary = e.type === 'DELETED' ? '' : this.#summarize(e.resource, e.object, after.now);
      const event: { -readonly [K in keyof WriteEvent]: WriteEvent[K] } = { seq: ++this.#seq, at: formatInstant(after.now), type: 'write', rv: e.rv, change: e.type, resource: e.resource, namespace: e.namespace, name: e.name, by };
      if (summary !== '') event.summary = summary;
      this.#push(event);
    }
  }

  rejected(world: World, r: Rejection): void {
    this.#push({ seq: ++this.#seq, at: formatInstant(world.now), type: 'rejected', by: r.controller, intent: r.intent, code: r.status.code ?? 0, reason: r.status.reason ?? '', message: r.status.message ?? '' });
  }

  /** One JSON event per line (GET /sim/v1/trace). */
  toNdjson(): string {
    return this.events.map((e) => `${JSON.stringify(e)}\n`).join('');
  }
}
