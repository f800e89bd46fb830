/** resourceVersion: log entries strictly increase, none beyond the world's revision, none lost. */
import { entriesAfter } from '../../store/history.ts';
import type { Checker } from './types.ts';

export const revisionsIncrease: Checker = {
  name: 'revisions-increase',
  check(before, after) {
    const problems: string[] = [];
    if (before !== null && after.revision < before.revision) problems.push(`revision went back from ${before.revision} to ${after.revision}`);
    let last = after.compactedRevision;
    for (const e of entriesAfter(after.log, 0)) {
      if (e.rv <= last && e.rv > after.compactedRevision) problems.push(`log entry ${e.rv} is not after ${last}`);
      if (e.rv > after.revision) problems.push(`log entry ${e.rv} is beyond the revision ${after.revision}`);
      if (e.object.metadata.resourceVersion !== String(e.rv)) problems.push(`log entry ${e.rv} carries resourceVersion ${e.object.metadata.resourceVersion}`);
      last = Math.max(last, e.rv);
    }
    return problems;
  },
};
