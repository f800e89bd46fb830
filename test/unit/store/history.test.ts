/**
 * The watch log: entries after a revision (optionally of one resource) are exactly those a scan
 * of every entry finds, across chunk boundaries and after compaction.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/api/meta.ts';
import { appendLog, compactLog, emptyLog, entriesAfter, type LogEntry } from '../../../src/store/history.ts';

describe('watch log', () => {
  it('lists the entries after a revision as a scan of every entry does', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 3 }), fc.constantFrom('a', 'b')), { maxLength: 900, size: 'max' }), fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 3000 }), fc.constantFrom(undefined, 'a', 'b'), (steps, compactAt, after, resource) => {
        let log = emptyLog;
        const all: LogEntry[] = [];
        let rv = 1;
        for (const [gap, r] of steps) {
          rv += gap;
          const e: LogEntry = { rv, type: 'ADDED', resource: r, namespace: '', name: `n${rv}`, object: {} as KubeObject, prev: null };
          all.push(e);
          log = appendLog(log, e);
        }
        log = compactLog(log, compactAt);
        const kept = log.chunks.flat();
        expect(kept.length).toBeLessThanOrEqual(all.length);
        const expected = kept.filter((e) => e.rv > after && (resource === undefined || e.resource === resource));
        expect([...entriesAfter(log, after, resource)]).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});
