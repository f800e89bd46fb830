/**
 * Changes between two versions of a store, and views kept up to date by them: model-checked
 * against recomputing from scratch, for versions written from one another and for unrelated ones.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/api/meta.ts';
import { emptyTrie, trieChanges, trieDelete, trieGet, trieKeys, trieSet, type Trie } from '../../../src/store/trie.ts';
import { emptyWorld, type World } from '../../../src/store/world.ts';
import { listObjects, putObject, removeObject } from '../../../src/store/objects.ts';
import { ResourceView } from '../../../src/store/views.ts';

const op = fc.tuple(fc.boolean(), fc.constantFrom('a', 'b', 'c'), fc.string({ maxLength: 4 }), fc.integer({ min: 0, max: 3 }));
type Op = [boolean, string, string, number];

function apply(world: World, ops: readonly Op[]): World {
  let w = world;
  for (const [put, ns, name, v] of ops) {
    w = put ? putObject(w, 'core/pods', ns, name, { metadata: { namespace: ns, name, labels: { v: String(v) } } } as KubeObject) : removeObject(w, 'core/pods', ns, name);
  }
  return w;
}

const world0 = emptyWorld('1', 0, { groupDomain: 'platform.io', compactionIntervalMs: 300_000, nodeAgent: true, podReadyAfterMs: 0 });

describe('trieChanges', () => {
  it('names exactly the keys whose values differ, with both values', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.string({ maxLength: 3 }), fc.integer({ min: 0, max: 2 }))), fc.array(fc.tuple(fc.boolean(), fc.string({ maxLength: 3 }), fc.integer({ min: 0, max: 2 }))), (first, second) => {
        const build = (t: Trie<number>, ops: typeof first): Trie<number> => ops.reduce((acc, [set, k, v]) => (set ? trieSet(acc, k, v) : trieDelete(acc, k)), t);
        const a = build(emptyTrie, first);
        const b = build(a, second);
        const seen = new Map<string, [number | undefined, number | undefined]>();
        trieChanges(a, b, (k, x, y) => {
          expect(seen.has(k)).toBe(false);
          seen.set(k, [x, y]);
        });
        const asMap = (t: Trie<number>): Map<string, number> => {
          const m = new Map<string, number>();
          trieChanges(emptyTrie, t, (k, _x, y) => m.set(k, y!));
          return m;
        };
        const ma = asMap(a);
        const mb = asMap(b);
        const expected = new Map<string, [number | undefined, number | undefined]>();
        for (const k of new Set([...ma.keys(), ...mb.keys()])) if (ma.get(k) !== mb.get(k)) expected.set(k, [ma.get(k), mb.get(k)]);
        expect(seen).toEqual(expected);
      }),
    );
  });

  it('costs the change between versions that share structure', () => {
    let t: Trie<number> = emptyTrie;
    for (let i = 0; i < 10_000; i++) t = trieSet(t, `k${i}`, i);
    const u = trieSet(t, 'k42', -1);
    const visited: string[] = [];
    trieChanges(t, u, (k) => visited.push(k));
    expect(visited).toEqual(['k42']);
  });
});

describe('ResourceView', () => {
  it('answers as a view recomputed from scratch, whatever versions it is asked about in turn', () => {
    // The view: names by label value, per namespace.
    const view = new ResourceView<Map<string, Set<string>>>('core/pods', {
      empty: () => new Map(),
      change(state, ns, name, before, after) {
        if (before !== undefined) state.get(`${ns}/${before.metadata.labels!['v']!}`)?.delete(name);
        if (after !== undefined) {
          const k = `${ns}/${after.metadata.labels!['v']!}`;
          if (!state.has(k)) state.set(k, new Set());
          state.get(k)!.add(name);
        }
      },
    });
    const scratch = (w: World): Record<string, string[]> => {
      const out: Record<string, string[]> = {};
      for (const o of listObjects(w, 'core/pods', null)) (out[`${o.metadata.namespace}/${o.metadata.labels!['v']!}`] ??= []).push(o.metadata.name!);
      return out;
    };
    const read = (w: World): Record<string, string[]> => {
      const out: Record<string, string[]> = {};
      for (const [k, names] of view.read(w)) if (names.size > 0) out[k] = [...names].sort();
      for (const k of Object.keys(out)) out[k]!.sort();
      return out;
    };
    const sorted = (r: Record<string, string[]>): Record<string, string[]> => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, [...v].sort()]));
    fc.assert(
      fc.property(fc.array(fc.array(op, { maxLength: 12 }), { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 8 }), (batches, lookups) => {
        const worlds = [world0];
        for (const b of batches) worlds.push(apply(worlds[worlds.length - 1]!, b as Op[]));
        // Forward, then back and forth between versions, then an unrelated copy.
        for (const w of worlds) expect(read(w)).toEqual(sorted(scratch(w)));
        for (const i of lookups) {
          const w = worlds[i % worlds.length]!;
          expect(read(w)).toEqual(sorted(scratch(w)));
        }
        const copy = JSON.parse(JSON.stringify(worlds[worlds.length - 1])) as World;
        expect(read(copy)).toEqual(sorted(scratch(copy)));
      }),
    );
  });
});

describe('trieChanges between any two versions of one history', () => {
  it('agrees with comparing every key, for versions far apart, in either order, and on forks', () => {
    // The reference walks every key, not the changes.
    const entries = (t: Trie<number>): Map<string, number> => new Map(trieKeys(t).map((k) => [k, trieGet(t, k)!]));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.string({ maxLength: 2 }), fc.integer({ min: 0, max: 3 })), { minLength: 1, maxLength: 90 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 10 }),
        fc.nat(),
        (ops, pairs, forkAt) => {
          const versions: Trie<number>[] = [emptyTrie];
          for (const [set, k, v] of ops) versions.push(set ? trieSet(versions.at(-1)!, k, v) : trieDelete(versions.at(-1)!, k));
          // A fork: other writes from a version in the middle.
          let fork = versions[forkAt % versions.length]!;
          for (const [set, k, v] of ops.slice(0, 5)) fork = set ? trieSet(fork, `${k}!`, v) : trieDelete(fork, k);
          versions.push(fork);
          for (const [i, j] of pairs) {
            const a = versions[i % versions.length]!;
            const b = versions[j % versions.length]!;
            const seen = new Map<string, [number | undefined, number | undefined]>();
            trieChanges(a, b, (k, x, y) => {
              expect(seen.has(k)).toBe(false);
              seen.set(k, [x, y]);
            });
            const ma = entries(a);
            const mb = entries(b);
            const expected = new Map<string, [number | undefined, number | undefined]>();
            for (const k of new Set([...ma.keys(), ...mb.keys()])) if (ma.get(k) !== mb.get(k)) expected.set(k, [ma.get(k), mb.get(k)]);
            expect(seen).toEqual(expected);
          }
        },
      ),
    );
  });
});
