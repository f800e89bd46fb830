/**
 * resourceVersion: log entries strictly increase, none beyond the world's revision, each carrying
 * its revision; the revision never goes back. A step from a world whose log kept to this is judged
 * by the entries it appended alone — found from the end of the log back to the last entry the log
 * had before, which must still be there (else the whole log is walked).
 */
import { entriesAfter, type Log, type LogEntry } from '../../store/history.ts';
import type { World } from '../../store/world.ts';
import type { Checker } from './types.ts';

/** The log's last entry, if any. */
function lastEntry(log: Log): LogEntry | undefined {
  const chunk = log.chunks[log.chunks.length - 1];
  return chunk === undefined ? undefined : chunk[chunk.length - 1];
}

/**
 * The entries after `before`'s last one, oldest first, with the entry they follow; null when that
 * entry is not where the appended ones start (compacted away, or the log was not appended to).
 */
function appendedSince(before: Log, after: Log): { readonly follows: LogEntry | undefined; readonly entries: LogEntry[] } | null {
  const last = lastEntry(before);
  const entries: LogEntry[] = [];
  for (let ci = after.chunks.length - 1; ci >= 0; ci--) {
    const chunk = after.chunks[ci]!;
    for (let i = chunk.length - 1; i >= 0; i--) {
      const e = chunk[i]!;
      if (e === last) return { follows: e, entries: entries.reverse() };
      entries.push(e);
    }
  }
  // Walked to the start: fine only if the log before was empty.
  return last === undefined ? { follows: undefined, entries: entries.reverse() } : null;
}

function wentBack(before: World | null, after: World): string[] {
  return before !== null && after.revision < before.revision ? [`revision went back from ${before.revision} to ${after.revision}`] : [];
}

function checkEntries(entries: Iterable<LogEntry>, start: number, after: World, problems: string[]): void {
  let last = start;
  for (const e of entries) {
    if (e.rv <= last && e.rv > after.compactedRevision) problems.push(`log entry ${e.rv} is not after ${last}`);
    if (e.rv > after.revision) problems.push(`log entry ${e.rv} is beyond the revision ${after.revision}`);
    if (e.object.metadata.resourceVersion !== String(e.rv)) problems.push(`log entry ${e.rv} carries resourceVersion ${e.object.metadata.resourceVersion}`);
    last = Math.max(last, e.rv);
  }
}

export const revisionsIncrease: Checker = {
  name: 'revisions-increase',
  check(before, after) {
    const problems = wentBack(before, after);
    checkEntries(entriesAfter(after.log, 0), after.compactedRevision, after, problems);
    return problems;
  },
  checkStep(before, after) {
    const problems = wentBack(before, after);
    const appended = appendedSince(before.log, after.log);
    if (appended === null) checkEntries(entriesAfter(after.log, 0), after.compactedRevision, after, problems);
    else checkEntries(appended.entries, Math.max(after.compactedRevision, appended.follows?.rv ?? 0), after, problems);
    return problems;
  },
};
