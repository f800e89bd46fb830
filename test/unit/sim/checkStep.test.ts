/**
 * The checkers' `checkStep` judges a step from a world that passed by what the step changed:
 * it must reach the verdict `check` reaches on the whole world, and look only at the step. A
 * property drives steps of valid writes and of corruptions no real step makes (an entry appended
 * out of order, an object stored beyond the revision or without a uid, a request both approved
 * and denied, the revision or the compaction mark moved back) and compactions, each from a world
 * that passes. Replay a failure with FC_SEED=<seed> (test/setup.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/api/meta.ts';
import { checkers, checkStep } from '../../../src/sim/checkers/all.ts';
import { csrDecisions } from '../../../src/sim/checkers/csrDecisions.ts';
import { revisionsIncrease } from '../../../src/sim/checkers/revisionsIncrease.ts';
import { storeKeysMatch } from '../../../src/sim/checkers/storeKeysMatch.ts';
import { commit } from '../../../src/store/commit.ts';
import { appendLog, compactLog } from '../../../src/store/history.ts';
import { getObject, putObject } from '../../../src/store/objects.ts';
import type { World } from '../../../src/store/world.ts';
import { sim } from '../../helpers.ts';

const cms = 'core/configmaps';
const csrs = 'certificates/certificatesigningrequests';
const cm = (name: string, extra: Partial<KubeObject['metadata']> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', uid: `uid-${name}`, ...extra } } as KubeObject);
const csr = (name: string, conditions: string[]): KubeObject =>
  ({ apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name, uid: `uid-${name}` }, spec: {}, status: { conditions: conditions.map((type) => ({ type, status: 'True' })) } }) as unknown as KubeObject;

type Move =
  | { kind: 'write'; name: string }
  | { kind: 'delete'; name: string }
  | { kind: 'outOfOrder' }
  | { kind: 'beyondRevision'; name: string }
  | { kind: 'noUid'; name: string }
  | { kind: 'csr'; name: string; conditions: string[] }
  | { kind: 'compact' }
  | { kind: 'revisionBack' }
  | { kind: 'markBack' };

const name = fc.constantFrom('a', 'b', 'c', 'd');
const move: fc.Arbitrary<Move> = fc.oneof(
  { weight: 6, arbitrary: name.map((n) => ({ kind: 'write' as const, name: n })) },
  { weight: 2, arbitrary: name.map((n) => ({ kind: 'delete' as const, name: n })) },
  fc.constant({ kind: 'outOfOrder' as const }),
  name.map((n) => ({ kind: 'beyondRevision' as const, name: n })),
  name.map((n) => ({ kind: 'noUid' as const, name: n })),
  fc.record({ kind: fc.constant('csr' as const), name, conditions: fc.subarray(['Approved', 'Denied', 'Failed']) }),
  fc.constant({ kind: 'compact' as const }),
  fc.constant({ kind: 'revisionBack' as const }),
  fc.constant({ kind: 'markBack' as const }),
);

/** One step's world from `w`: a valid commit, or a corruption. */
function apply(w: World, m: Move): World {
  switch (m.kind) {
    case 'write': {
      const prev = getObject(w, cms, 'default', m.name) ?? null;
      return commit(w, cms, prev === null ? 'ADDED' : 'MODIFIED', { ...cm(m.name), data: { n: String(w.revision) } } as KubeObject, prev).world;
    }
    case 'delete': {
      const prev = getObject(w, cms, 'default', m.name);
      return prev === undefined ? w : commit(w, cms, 'DELETED', prev, prev).world;
    }
    case 'outOfOrder': {
      // Again at the revision the last write took (out of order when the log ends with that write).
      const object = { ...cm('late'), metadata: { ...cm('late').metadata, resourceVersion: String(w.revision) } };
      return { ...w, log: appendLog(w.log, { rv: w.revision, type: 'ADDED', resource: cms, namespace: 'default', name: 'late', object, prev: null }) };
    }
    case 'beyondRevision':
      return putObject(w, cms, 'default', m.name, cm(m.name, { resourceVersion: String(w.revision + 5) }));
    case 'noUid':
      return putObject(w, cms, 'default', m.name, cm(m.name, { uid: '', resourceVersion: String(w.revision) }));
    case 'compact':
      // As the periodic compactor: the mark moves to the revision and whole chunks below it go.
      return { ...w, compactedRevision: w.revision, log: compactLog(w.log, w.revision) };
    case 'revisionBack':
      return { ...w, revision: Math.max(0, w.revision - 3) };
    case 'markBack':
      return { ...w, compactedRevision: Math.max(0, w.compactedRevision - 3) };
    case 'csr': {
      const prev = getObject(w, csrs, '', m.name) ?? null;
      return commit(w, csrs, prev === null ? 'ADDED' : 'MODIFIED', csr(m.name, m.conditions), prev).world;
    }
  }
}

const stepCheckers = [revisionsIncrease, storeKeysMatch, csrDecisions];

describe('checkStep', () => {
  it('reaches the verdict of check on every step from a world that passes', async () => {
    const start = (await sim()).world;
    const verdicts = new Map<string, number>();
    fc.assert(
      fc.property(fc.array(move, { maxLength: 25 }), (moves) => {
        let w = start;
        let steps = 0;
        for (const m of moves) {
          const next = apply(w, m);
          for (const c of stepCheckers) {
            const whole = c.check(w, next);
            const step = c.checkStep!(w, next);
            // Same verdict; the step's sentences are the whole check's (it may list fewer).
            expect(step.length === 0, `${c.name} after ${JSON.stringify(m)}: ${JSON.stringify({ whole, step })}`).toBe(whole.length === 0);
            for (const p of step) expect(whole).toContain(p);
            if (whole.length > 0) verdicts.set(c.name, (verdicts.get(c.name) ?? 0) + 1);
          }
          // Steps go on only from worlds that pass, as in a simulation (a failure ends its run).
          if (checkers.every((c) => c.check(null, next).length === 0 && c.check(w, next).length === 0)) w = next;
          steps++;
        }
        return steps === moves.length;
      }),
      { numRuns: 200 },
    );
    // Every checker was shown broken steps, not only sound ones.
    for (const c of stepCheckers) expect(verdicts.get(c.name) ?? 0, c.name).toBeGreaterThan(10);
  });

  it('looks at the step alone: a problem already in the world before is not the step\'s', async () => {
    const w0 = (await sim()).world;
    const broken = putObject(w0, cms, 'default', 'old', cm('old', { uid: '', resourceVersion: '1' }));
    const next = commit(broken, cms, 'ADDED', cm('fresh'), null).world;
    expect(storeKeysMatch.check(broken, next)).toEqual(['core/configmaps old has no uid']);
    expect(storeKeysMatch.checkStep!(broken, next)).toEqual([]);
    expect(checkStep(w0, broken)).toEqual(['store-keys-match: core/configmaps old has no uid']);
  });

  it('walks the whole log when the last entry it had is gone (compacted away)', async () => {
    const w0 = (await sim()).world;
    const w1 = commit(w0, cms, 'ADDED', cm('a'), null).world;
    const emptied = { ...w1, log: { chunks: [], size: 0 }, compactedRevision: w1.revision };
    const late = { ...emptied, log: appendLog(emptied.log, { rv: 1, type: 'ADDED' as const, resource: cms, namespace: 'default', name: 'x', object: { ...cm('x'), metadata: { ...cm('x').metadata, resourceVersion: '2' } }, prev: null }) };
    expect(revisionsIncrease.checkStep!(w1, late)).toEqual(revisionsIncrease.check(w1, late));
    expect(revisionsIncrease.checkStep!(w1, late)).toEqual(['log entry 1 carries resourceVersion 2']);
  });
});
