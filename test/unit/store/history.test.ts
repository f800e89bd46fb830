/**
 * The watch log: entries after a revision (optionally of one resource), and the entry of one
 * revision, are exactly those a scan of every entry finds, across chunk boundaries and after
 * compaction; compaction keeps every entry newer than its revision; an append copies little (the
 * chunks are a binary counter) and leaves the log it appended to as it was.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/api/meta.ts';
import { appendLog, compactLog, emptyLog, entriesAfter, entryAt, type LogEntry } from '../../../src/store/history.ts';

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
        // The entry of one revision: that very entry while the log holds it, else none.
        for (const probe of [after, after + 1, rv, rv + 1, compactAt]) expect(entryAt(log, probe)).toBe(kept.find((e) => e.rv === probe));
      }),
      { numRuns: 200 },
    );
  });

  it('keeps full chunks then chunks of decreasing powers of two, and older versions unchanged', () => {
    const entry = (rv: number): LogEntry => ({ rv, type: 'ADDED', resource: 'a', namespace: '', name: `n${rv}`, object: {} as KubeObject, prev: null });
    let log = emptyLog;
    const versions: { log: typeof log; flat: LogEntry[] }[] = [];
    for (let rv = 1; rv <= 1100; rv++) {
      log = appendLog(log, entry(rv));
      if (rv % 97 === 0) versions.push({ log, flat: log.chunks.flat() });
      const sizes = log.chunks.map((c) => c.length);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(rv);
      expect(log.size).toBe(rv);
      const full = sizes.filter((n) => n === 256).length;
      expect(sizes.slice(0, full).every((n) => n === 256)).toBe(true);
      const tail = sizes.slice(full);
      // The binary digits of the entries past the full chunks, largest first.
      expect(tail).toEqual([128, 64, 32, 16, 8, 4, 2, 1].filter((bit) => ((rv - 256 * full) & bit) !== 0));
    }
    for (const v of versions) expect(v.log.chunks.flat()).toEqual(v.flat);
    // A version appended to twice (two branches of one world) gives each branch its own entry.
    const base = versions[3]!.log;
    const left = appendLog(base, entry(5000));
    const right = appendLog(base, entry(6000));
    expect(left.chunks.flat().at(-1)!.rv).toBe(5000);
    expect(right.chunks.flat().at(-1)!.rv).toBe(6000);
    expect(base.chunks.flat()).toEqual(versions[3]!.flat);
  });

  it('keeps every entry newer than the compacted revision', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 700 }), fc.integer({ min: 0, max: 800 }), (count, compactAt) => {
        let log = emptyLog;
        for (let rv = 1; rv <= count; rv++) log = appendLog(log, { rv, type: 'ADDED', resource: 'a', namespace: '', name: `n${rv}`, object: {} as KubeObject, prev: null });
        const kept = compactLog(log, compactAt).chunks.flat().map((e) => e.rv);
        const newer = Array.from({ length: Math.max(0, count - compactAt) }, (_, i) => compactAt + 1 + i);
        expect(kept.slice(kept.length - newer.length)).toEqual(newer);
        expect(kept.every((rv, i) => i === 0 || rv === kept[i - 1]! + 1)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
