/**
 * A set's members with what every sync reads of them, summed up as members come and go: the
 * status counters, the revisions in use, the ordinals in order and the few members a sync has to
 * look at (anything but running, ready and intact). Kept from sync to sync (members.ts), it lets a
 * sync of a large set cost the members that are not plain instead of every member (sync.ts's
 * sparse path); the listed path stays the definition and checks it under `checkInvariants`.
 */
import type { KubeObject } from '../../api/meta.ts';
import type { Names } from '../../api/names.ts';
import { factsOf, type PodFacts } from './podLifecycle.ts';
import { identityMatches } from './pods.ts';
import { lowerBound } from '../../core/lowerBound.ts';

export interface MemberEntry {
  readonly pod: KubeObject;
  readonly facts: PodFacts;
}

/** Plain: running and ready, not terminating, its identity intact — nothing for a sync to do. */
function isPlain(pod: KubeObject, f: PodFacts, names: Names): boolean {
  return f.phase === 'Running' && f.runningAndReady && !f.terminating && identityMatches(names, pod);
}

function bump(m: Map<string, number>, key: string, by: number): void {
  const n = (m.get(key) ?? 0) + by;
  if (n === 0) m.delete(key);
  else m.set(key, n);
}

export class MemberSummary {
  readonly names: Names;
  /** Members by ordinal. */
  readonly pods = new Map<number, KubeObject>();
  readonly entries = new Map<number, MemberEntry>();
  /** Member ordinals, ascending. */
  readonly ordinals: number[] = [];
  /** Ordinals of members that are not plain. */
  readonly odd = new Set<number>();
  /** Members a kubelet has seen (a phase written): status.replicas. */
  created = 0;
  /** Running and ready members, terminating ones included. */
  ready = 0;
  /** Created, not terminating members by revision label. */
  readonly byRevision = new Map<string, number>();
  /** Every member by revision label ('' for none): the revisions in use. */
  readonly live = new Map<string, number>();
  /** Ordinals of the members not terminating, ascending, by revision label ('' for none). */
  readonly #atRevision = new Map<string, number[]>();
  /** Members by `creationTimestamp` (whole seconds): how many the current second made. */
  readonly #createdAt = new Map<string, number>();

  constructor(names: Names) {
    this.names = names;
  }

  add(ordinal: number, pod: KubeObject): void {
    const facts = factsOf(pod);
    this.pods.set(ordinal, pod);
    this.entries.set(ordinal, { pod, facts });
    this.ordinals.splice(lowerBound(this.ordinals, ordinal), 0, ordinal);
    if (!isPlain(pod, facts, this.names)) this.odd.add(ordinal);
    if (!facts.terminating) {
      const rev = facts.revision ?? '';
      let list = this.#atRevision.get(rev);
      if (list === undefined) this.#atRevision.set(rev, (list = []));
      list.splice(lowerBound(list, ordinal), 0, ordinal);
    }
    bump(this.#createdAt, pod.metadata.creationTimestamp ?? '', 1);
    this.#count(facts, 1);
  }

  remove(ordinal: number): void {
    const e = this.entries.get(ordinal);
    if (e === undefined) return;
    this.pods.delete(ordinal);
    this.entries.delete(ordinal);
    this.ordinals.splice(lowerBound(this.ordinals, ordinal), 1);
    this.odd.delete(ordinal);
    if (!e.facts.terminating) {
      const rev = e.facts.revision ?? '';
      const list = this.#atRevision.get(rev)!;
      list.splice(lowerBound(list, ordinal), 1);
      if (list.length === 0) this.#atRevision.delete(rev);
    }
    bump(this.#createdAt, e.pod.metadata.creationTimestamp ?? '', -1);
    this.#count(e.facts, -1);
  }

  /** The members whose `creationTimestamp` is `timestamp`. */
  createdAt(timestamp: string): number {
    return this.#createdAt.get(timestamp) ?? 0;
  }

  /**
   * The members not terminating and not at `revision` with ordinals in [from, below), highest
   * first, as long as `visit` asks for more: the pods a rolling update replaces next, found
   * without stepping over the ones already updated.
   */
  staleFromTop(revision: string, from: number, below: number, visit: (ordinal: number) => boolean): void {
    // One cursor per other revision (there are few), each at its highest ordinal below `below`.
    const cursors = [...this.#atRevision].filter(([rev]) => rev !== revision).map(([, list]) => ({ list, i: lowerBound(list, below) - 1 }));
    // Each turn takes one member: there are no more turns than members.
    for (let turn = 0; turn < this.ordinals.length; turn++) {
      let best: { list: number[]; i: number } | null = null;
      for (const c of cursors) if (c.i >= 0 && c.list[c.i]! >= from && (best === null || c.list[c.i]! > best.list[best.i]!)) best = c;
      if (best === null) return;
      const ordinal = best.list[best.i]!;
      best.i--;
      if (!visit(ordinal)) return;
    }
  }

  #count(f: PodFacts, by: number): void {
    bump(this.live, f.revision ?? '', by);
    if (f.phase === '') return;
    this.created += by;
    if (f.runningAndReady) this.ready += by;
    if (!f.terminating && f.revision !== undefined) bump(this.byRevision, f.revision, by);
  }
}
