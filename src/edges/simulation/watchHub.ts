/**
 * Open watches and how the world's log becomes their events: a start point (initial events,
 * or replay from a resourceVersion, or 410 when that history is compacted), selector
 * transitions (an object that stops matching is DELETED for the watcher), bookmarks every 60 s of
 * virtual time when asked for, and `timeoutSeconds` on the simulation clock. A watch asked for as
 * a Table (`kubectl get -w`) gets each object as a Table of one row, the column definitions in the
 * first such event only (the real server sets NoHeaders after the first). `watch` fault rules
 * (watchFaults.ts) drop an event, hold a watch back in virtual time, or end it with 410 Expired.
 */
import type { KubeObject } from '../../api/meta.ts';
import { fixedNames } from '../../api/names.ts';
import { errors } from '../../core/status.ts';
import type { Instant } from '../../core/duration.ts';
import { entriesAfter, oldestLogRevision, type LogEntry } from '../../store/history.ts';
import { listObjects } from '../../store/objects.ts';
import type { World } from '../../store/world.ts';
import type { ResourceType } from '../../registry/types.ts';
import type { ListQuery } from '../../endpoints/listQuery.ts';
import { toTable } from '../../endpoints/encode.ts';
import type { Output } from '../../endpoints/negotiate.ts';
import { apiVersionOf } from '../../store/ops/typeMeta.ts';
import { WatchStream, type WatchEvent } from './watchStream.ts';
import { Outbox, WatchFaults } from './watchFaults.ts';

const bookmarkIntervalMs = 60_000;

type ObjectEvent = Extract<WatchEvent, { type: 'ADDED' | 'MODIFIED' | 'DELETED' }>;

interface Watcher {
  readonly stream: WatchStream;
  readonly rt: ResourceType;
  readonly namespace: string | null;
  readonly query: ListQuery;
  lastRv: number;
  nextBookmarkAt: Instant;
  readonly deadline: Instant | null;
  /** Objects as Tables of one row; `headersSent` once the column definitions went out. */
  readonly table: { readonly output: Extract<Output, { type: 'table' }>; headersSent: boolean } | null;
  /** Every event goes out through here: straight on, or held back by a delay fault. */
  readonly out: Outbox;
  /** The resourceVersion of the last event sent: where the client would resume (a forced 410 names it). */
  sentRv: number;
  /** Ended by an expire fault (its ERROR may still be held back): no further events are made. */
  ending: boolean;
}

export class WatchHub {
  readonly #watchers = new Set<Watcher>();
  readonly #faults = new WatchFaults();

  get size(): number {
    return this.#watchers.size;
  }

  open(world: World, rt: ResourceType, namespace: string | null, query: ListQuery, output: Output | null = null): WatchStream {
    const stream = new WatchStream(() => this.#watchers.delete(w));
    const w: Watcher = {
      stream,
      rt,
      namespace,
      query,
      lastRv: world.revision,
      nextBookmarkAt: world.now + bookmarkIntervalMs,
      deadline: query.timeoutSeconds !== undefined && query.timeoutSeconds > 0 ? world.now + query.timeoutSeconds * 1000 : null,
      table: output?.type === 'table' ? { output, headersSent: false } : null,
      out: new Outbox(stream),
      sentRv: query.resourceVersion ?? 0,
      ending: false,
    };
    this.#watchers.add(w);
    this.#start(world, w);
    return stream;
  }

  #matches(w: Watcher, obj: KubeObject | null): boolean {
    if (obj === null) return false;
    if (w.namespace !== null && (obj.metadata.namespace ?? '') !== w.namespace) return false;
    return w.query.filter === undefined || w.query.filter(obj);
  }

  #start(world: World, w: Watcher): void {
    const rv = w.query.resourceVersion;
    const initial = w.query.sendInitialEvents === true || rv === undefined || rv === 0;
    if (initial) {
      if (w.query.sendInitialEvents === true && rv !== undefined && rv > world.revision) {
        w.stream.push({ type: 'ERROR', object: errors.tooLargeResourceVersion(rv, world.revision).status });
        w.stream.close();
        return;
      }
      for (const obj of listObjects(world, w.rt.id, w.namespace)) if (this.#matches(w, obj) && !w.ending) this.#emit(w, world, { type: 'ADDED', object: obj });
      w.lastRv = world.revision;
      if (w.query.sendInitialEvents === true && w.query.allowWatchBookmarks && !w.ending) this.#send(w, world, this.#bookmark(w, world.revision, true));
      return;
    }
    const oldest = oldestLogRevision(world.log);
    if (rv! < world.compactedRevision || (oldest !== null && rv! < oldest - 1)) {
      const m = Math.max(world.compactedRevision, (oldest ?? world.revision + 1) - 1);
      w.stream.push({ type: 'ERROR', object: errors.expired(`too old resource version: ${rv} (${m})`).status });
      w.stream.close();
      return;
    }
    w.lastRv = rv!;
    this.#deliver(world, w);
  }

  #bookmark(w: Watcher, rv: number, initialEnd: boolean): WatchEvent {
    const metadata: KubeObject['metadata'] = { resourceVersion: String(rv) };
    if (initialEnd) metadata.annotations = { [fixedNames.initialEventsEndAnnotation]: 'true' };
    return { type: 'BOOKMARK', object: { kind: w.rt.kind, apiVersion: apiVersionOf(w.rt), metadata } };
  }

  #event(w: Watcher, e: LogEntry): ObjectEvent | null {
    const now = this.#matches(w, e.type === 'DELETED' ? null : e.object);
    const before = this.#matches(w, e.prev);
    if (e.type === 'DELETED') return before ? { type: 'DELETED', object: e.object } : null;
    if (now && before) return { type: 'MODIFIED', object: e.object };
    if (now) return { type: 'ADDED', object: e.object };
    if (before) return { type: 'DELETED', object: { ...e.prev!, metadata: { ...e.prev!.metadata, resourceVersion: e.object.metadata.resourceVersion ?? '' } } };
    return null;
  }

  /** An event or a bookmark out to the client, now or when a delay fault lets it go. */
  #send(w: Watcher, world: World, ev: WatchEvent): void {
    if (ev.type !== 'ERROR') w.sentRv = Number(ev.object.metadata.resourceVersion ?? w.sentRv);
    w.out.send(ev, world.now);
  }

  /** An object event as the fault rules let it through: delivered, dropped, held back, or the watch expired. */
  #emit(w: Watcher, world: World, ev: ObjectEvent): void {
    const verdict = this.#faults.decide(world, w.rt.resource, ev.object);
    if (verdict.action === 'drop') return;
    if (verdict.action === 'expire') {
      // As a watch whose history was compacted under it: the client holds sentRv, the log now
      // starts after the current revision, so it must re-list.
      w.ending = true;
      w.out.send({ type: 'ERROR', object: errors.expired(`too old resource version: ${w.sentRv} (${world.revision})`).status }, world.now);
      w.out.send(null, world.now);
      return;
    }
    if (verdict.action === 'delay') w.out.holdUntil(verdict.until);
    this.#push(w, world, ev);
  }

  /** An object event as the watcher asked for it: the object, or a Table of one row. */
  #push(w: Watcher, world: World, ev: ObjectEvent): void {
    if (w.table === null) {
      this.#send(w, world, ev);
      return;
    }
    const table = toTable(w.rt, [ev.object], { resourceVersion: ev.object.metadata.resourceVersion ?? '' }, world.now, w.table.output) as KubeObject;
    this.#send(w, world, { type: ev.type, object: w.table.headersSent ? { ...table, columnDefinitions: null } : table });
    w.table.headersSent = true;
  }

  #deliver(world: World, w: Watcher): void {
    if (w.stream.closed || w.ending || w.lastRv >= world.revision) return;
    for (const e of entriesAfter(world.log, w.lastRv, w.rt.id)) {
      const ev = this.#event(w, e);
      if (ev !== null) this.#emit(w, world, ev);
      if (w.ending) break;
    }
    w.lastRv = world.revision;
  }

  /** Called after every change of the world (and every instant visited by advance). */
  publish(world: World): void {
    for (const w of [...this.#watchers]) {
      w.out.release(world.now);
      this.#deliver(world, w);
      if (w.query.allowWatchBookmarks && !w.ending) {
        while (w.nextBookmarkAt <= world.now) {
          this.#send(w, world, this.#bookmark(w, world.revision, false));
          w.nextBookmarkAt += bookmarkIntervalMs;
        }
      }
      // The server ends the watch at its deadline; what a delay fault still held is not sent (the
      // client resumes from the last resourceVersion it saw and gets it from the log).
      if (w.deadline !== null && world.now >= w.deadline) w.stream.close();
    }
  }

  closeAll(): void {
    for (const w of [...this.#watchers]) w.stream.close();
  }
}
