/**
 * The watch log: every committed change in revision order, kept as chunks so that an append
 * copies a few small chunks and the chunk index. Entries keep the previous state of the object, which
 * serves three readers: watch filters (an object that stops matching becomes DELETED), snapshot
 * reads for paging at an old revision (changes after it are undone), and the garbage collector.
 */
import type { KubeObject } from '../api/meta.ts';
import { limits } from '../core/limits.ts';

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface LogEntry {
  readonly rv: number;
  readonly type: ChangeType;
  readonly resource: string;
  readonly namespace: string;
  readonly name: string;
  /** State after the change; for DELETED the last state, carrying the deletion revision. */
  readonly object: KubeObject;
  /** State before the change (null for ADDED). */
  readonly prev: KubeObject | null;
}

export interface Log {
  readonly chunks: readonly (readonly LogEntry[])[];
  readonly size: number;
}

/** Entries in a full chunk. */
const chunkSize = 256;

export const emptyLog: Log = { chunks: [], size: 0 };

/**
 * Appends one entry, copying little: full chunks of `chunkSize` come first, then the newest
 * entries as chunks of decreasing power-of-two sizes (the binary digits of their count). A new
 * entry is a chunk of one; two chunks of one size merge into one of twice the size, up to a full
 * chunk — a binary counter, so an append copies about log2(chunkSize) entries and the chunk index,
 * where copying the growing last chunk cost a hundred on average. Readers need only what every
 * chunk list keeps: entries in revision order, no chunk empty.
 */
export function appendLog(log: Log, entry: LogEntry): Log {
  const chunks = log.chunks;
  let tail: readonly LogEntry[] = [entry];
  let keep = chunks.length;
  while (keep > 0) {
    const last = chunks[keep - 1]!;
    if (last.length !== tail.length || last.length >= chunkSize) break;
    tail = last.concat(tail);
    keep--;
  }
  const out = new Array<readonly LogEntry[]>(keep + 1);
  for (let i = 0; i < keep; i++) out[i] = chunks[i]!;
  out[keep] = tail;
  return { chunks: out, size: log.size + 1 };
}

/** Drops whole chunks whose entries are all at or below `revision`, and bounds the log size. */
export function compactLog(log: Log, revision: number): Log {
  let chunks = log.chunks;
  let size = log.size;
  let drop = 0;
  while (drop < chunks.length) {
    const c = chunks[drop]!;
    const overSize = size > limits.watchLogEntriesMax;
    if (!overSize && c[c.length - 1]!.rv > revision) break;
    size -= c.length;
    drop++;
  }
  if (drop === 0) return log;
  chunks = chunks.slice(drop);
  return { chunks, size };
}

/** Oldest revision still in the log, or null when empty. */
export function oldestLogRevision(log: Log): number | null {
  const first = log.chunks[0];
  return first === undefined ? null : first[0]!.rv;
}

/** Where the first entry with rv > after is (chunk and index), or null when there is none. */
function positionAfter(log: Log, after: number): { readonly chunk: number; readonly index: number } | null {
  const chunks = log.chunks;
  const at = firstChunkAfter(chunks, after);
  if (at === chunks.length) return null;
  // Within that chunk too (entries are in revision order): readers mostly ask for the last few.
  const first = chunks[at]!;
  let from = 0;
  let to = first.length;
  while (from < to) {
    const mid = (from + to) >> 1;
    if (first[mid]!.rv <= after) from = mid + 1;
    else to = mid;
  }
  return { chunk: at, index: from };
}

const lastRevisionOf = (chunk: readonly LogEntry[]): number => chunk[chunk.length - 1]!.rv;

/**
 * The first chunk whose last entry is newer than `after` (the number of chunks when none). Readers
 * mostly ask for the last few entries (the scheduler after every write): the last chunks, the
 * small ones, are looked at first, and only then the others, by a binary search.
 */
function firstChunkAfter(chunks: Log['chunks'], after: number): number {
  let hi = chunks.length;
  for (let look = 0; look < 4 && hi > 0; look++) {
    if (lastRevisionOf(chunks[hi - 1]!) <= after) return hi;
    hi--;
  }
  let lo = 0;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (lastRevisionOf(chunks[mid]!) <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The entry of revision `rv`, or undefined when the log does not hold it. */
export function entryAt(log: Log, rv: number): LogEntry | undefined {
  const at = positionAfter(log, rv - 1);
  const e = at === null ? undefined : log.chunks[at.chunk]![at.index];
  return e !== undefined && e.rv === rv ? e : undefined;
}

/** The newest entry, or undefined when the log is empty. */
export function lastLogEntry(log: Log): LogEntry | undefined {
  const last = log.chunks[log.chunks.length - 1];
  return last === undefined ? undefined : last[last.length - 1];
}

/**
 * Whether the log holds `entry` at revision `rv` (the very object: the log grew from the one it was
 * read from) and `test` holds for every entry after it. One search, no generator; `context` is
 * handed to `test`, so that a caller needs no closure per call.
 */
export function everyEntryAfterEntry<C>(log: Log, rv: number, entry: LogEntry, context: C, test: (context: C, e: LogEntry) => boolean): boolean {
  const at = positionAfter(log, rv - 1);
  if (at === null || log.chunks[at.chunk]![at.index] !== entry) return false;
  const chunks = log.chunks;
  for (let ci = at.chunk; ci < chunks.length; ci++) {
    const chunk = chunks[ci]!;
    for (let i = ci === at.chunk ? at.index + 1 : 0; i < chunk.length; i++) if (!test(context, chunk[i]!)) return false;
  }
  return true;
}

/** Entries with rv > after, in order (optionally only one resource). */
export function* entriesAfter(log: Log, after: number, resource?: string): Generator<LogEntry> {
  const at = positionAfter(log, after);
  if (at === null) return;
  const chunks = log.chunks;
  for (let ci = at.chunk; ci < chunks.length; ci++) {
    const chunk = chunks[ci]!;
    for (let i = ci === at.chunk ? at.index : 0; i < chunk.length; i++) {
      const e = chunk[i]!;
      if (resource === undefined || e.resource === resource) yield e;
    }
  }
}

