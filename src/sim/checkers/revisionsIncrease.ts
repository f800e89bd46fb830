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
 * The entries after `before`'s last one, oldest first, and the highest revision among the entries
 * before them that are above `compacted` (where the full walk would stand when it reaches them);
 * null when `before`'s last entry is not where the appended ones start (compacted away, or the
 * log was not appended to).
 */
function appendedSince(before: Log, after: Log, compacted: number): { readonly start: number; readonly entries: LogEntry[] } | null {
  const last = lastEntry(before);
  const entries: LogEntry[] = [];
  // An empty log before: every entry is new.
  if (last === undefined) return { start: compacted, entries: [...entriesAfter(after, 0)] };
  let found = false;
  for (let ci = after.chunks.length - 1; ci >= 0; ci--) {
    const chunk = after.chunks[ci]!;
    for (let i = chunk.length - 1; i >= 0; i--) {
      const e = chunk[i]!;
      if (!found) {
        if (e === last) found = true;
        else {
          entries.push(e);
          continue;
        }
      }
      // Among the entries the log had, those above the compaction mark increase (they passed):
      // the last of them is the highest.
      if (e.rv > compacted) return { start: e.rv, entries: entries.reverse() };
    }
  }
  return found ? { start: compacted, entries: entries.reverse() } : null;
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
    // The entries the log had passed against a revision and a compaction mark no higher than now;
    // were either lower, they would need another look.
    const appended = after.revision < before.revision || after.compactedRevision < before.compactedRevision ? null : appendedSince(before.log, after.log, after.compactedRevision);
    if (appended === null) checkEntries(entriesAfter(after.log, 0), after.compactedRevision, after, problems);
    else checkEntries(appended.entries, appended.start, after, problems);
    return problems;
  },
};
