/**
 * The persistent trie: behaves as a map (model-checked against Map with fast-check), never
 * mutates an older version, and keeps every container on a write path small.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyTrie, trieAsWritten, trieChanges, trieDelete, trieGet, trieIsEmpty, trieKeys, trieSet, trieSortedKeys, trieSortedValues, type Trie } from '../../../src/store/trie.ts';
import { hashWorld } from '../../../src/sim/hash.ts';

describe('trie', () => {
  it('agrees with a Map for random sets and deletes', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.string({ maxLength: 6 }), fc.integer())), (ops) => {
        let t: Trie<number> = emptyTrie;
        const m = new Map<string, number>();
        for (const [set, k, v] of ops) {
          if (set) {
            t = trieSet(t, k, v);
            m.set(k, v);
          } else {
            t = trieDelete(t, k);
            m.delete(k);
          }
        }
        expect([...trieSortedKeys(t)]).toEqual([...m.keys()].sort());
        for (const [k, v] of m) expect(trieGet(t, k)).toBe(v);
      }),
    );
  });

  it('reads, changes, serializes and digests the same whether its levels are sparse or full', () => {
    // Written levels are full, restored ones sparse; enough keys to fill levels, and deletes that empty them.
    const key = fc.integer({ min: 0, max: 400 }).map((i) => `k-${i}`);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), key, fc.integer()), { minLength: 50, maxLength: 600 }), (ops) => {
        let t: Trie<number> = emptyTrie;
        const m = new Map<string, number>();
        const versions: Trie<number>[] = [];
        for (const [set, k, v] of ops) {
          if (set || !m.has(k)) {
            t = trieSet(t, k, v);
            m.set(k, v);
          } else {
            t = trieDelete(t, k);
            m.delete(k);
          }
          versions.push(t);
        }
        // The same entries written once each, in key order; and the trie as a saved world reads it back.
        let fresh: Trie<number> = emptyTrie;
        for (const k of [...m.keys()].sort()) fresh = trieSet(fresh, k, m.get(k)!);
        const restored = JSON.parse(JSON.stringify(t)) as Trie<number>;
        expect(hashWorld(t as never)).toBe(hashWorld(fresh as never));
        expect(hashWorld(restored as never)).toBe(hashWorld(t as never));
        expect(trieIsEmpty(t)).toBe(m.size === 0);
        expect([...trieSortedKeys(restored)]).toEqual([...m.keys()].sort());
        for (const [k, v] of m) expect(trieGet(restored, k)).toBe(v);
        // Changes between a restored (sparse) and a written (full) version, and from an old version.
        const changed = new Map<string, number | undefined>();
        trieChanges(restored, t, (k, _before, after) => changed.set(k, after));
        expect(changed.size).toBe(0);
        const old = versions[Math.floor(versions.length / 2)]!;
        const expected = new Set([...trieKeys(old), ...trieKeys(t)].filter((k) => trieGet(old, k) !== trieGet(t, k)));
        const seen = new Set<string>();
        trieChanges(old, t, (k) => seen.add(k));
        expect([...seen].sort()).toEqual([...expected].sort());
      }),
      { numRuns: 60 },
    );
  });

  it('lists in key order when listed between writes (order derived from an earlier listing)', () => {
    // Few distinct keys, so that removals and insertions meet at the same places.
    const key = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 3 });
    const op = fc.oneof(fc.tuple(fc.constant('set' as const), key, fc.integer()), fc.tuple(fc.constant('delete' as const), key, fc.constant(0)), fc.tuple(fc.constantFrom('keys' as const, 'values' as const), fc.constant(''), fc.constant(0)));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), key)), fc.array(op, { maxLength: 200 }), (initial, ops) => {
        let t: Trie<number> = emptyTrie;
        const m = new Map<string, number>();
        for (const [v, k] of initial) {
          t = trieSet(t, k, v);
          m.set(k, v);
        }
        const versions: { t: Trie<number>; m: Map<string, number> }[] = [];
        for (const [kind, k, v] of ops) {
          if (kind === 'set') {
            t = trieSet(t, k, v);
            m.set(k, v);
          } else if (kind === 'delete') {
            t = trieDelete(t, k);
            m.delete(k);
          } else {
            const keys = [...m.keys()].sort();
            if (kind === 'values') expect([...trieSortedValues(t)]).toEqual(keys.map((x) => m.get(x)));
            expect([...trieSortedKeys(t)]).toEqual(keys);
            versions.push({ t, m: new Map(m) });
          }
        }
        for (const w of versions) expect([...trieSortedValues(w.t)]).toEqual([...w.m.keys()].sort().map((x) => w.m.get(x)));
        expect([...trieSortedKeys(t)]).toEqual([...m.keys()].sort());
        expect([...trieSortedValues(t)]).toEqual([...m.keys()].sort().map((x) => m.get(x)));
      }),
      { numRuns: 300 },
    );
  });

  it('leaves older versions untouched (persistence)', () => {
    const a = trieSet(emptyTrie, 'x', 1);
    const b = trieSet(a, 'x', 2);
    const c = trieDelete(b, 'x');
    expect(trieGet(a, 'x')).toBe(1);
    expect(trieGet(b, 'x')).toBe(2);
    expect(trieGet(c, 'x')).toBeUndefined();
    expect(trieKeys(c)).toEqual([]);
  });

  it('treats __proto__ as an ordinary key', () => {
    const t = trieSet(emptyTrie, '__proto__', 5);
    expect(trieGet(t, '__proto__')).toBe(5);
    expect(trieGet(emptyTrie, '__proto__')).toBeUndefined();
    expect(trieGet(t, 'constructor')).toBeUndefined();
  });

  it('keeps every container small at 100,000 keys: slot levels of at most 64, leaves of a few keys', () => {
    let t: Trie<number> = emptyTrie;
    for (let i = 0; i < 100_000; i++) t = trieSet(t, `sa-${i}`, i);
    const sizes: number[][] = [[], [], [], []];
    // A slot level may list every slot name, the empty ones undefined (trie.ts: full levels).
    const children = (node: Record<string, unknown>, level: number): string[] => Object.keys(node).filter((k) => level === 3 || node[k] !== undefined);
    const walk = (node: Record<string, unknown>, level: number): void => {
      sizes[level]!.push(children(node, level).length);
      if (level < 3) for (const k of children(node, level)) walk(node[k] as Record<string, unknown>, level + 1);
    };
    walk(t as unknown as Record<string, unknown>, 0);
    for (const level of [0, 1, 2]) expect(Math.max(...sizes[level]!)).toBeLessThanOrEqual(64);
    expect(Math.max(...sizes[3]!)).toBeLessThan(8);
    expect(sizes[3]!.reduce((a, b) => a + b, 0)).toBe(100_000);
  });
});

describe('trie keys that name Object.prototype members', () => {
  it('keeps __proto__ and constructor as ordinary keys through sets and deletes', () => {
    let t: Trie<number> = emptyTrie;
    for (const k of ['__proto__', 'constructor', 'toString', 'a']) t = trieSet(t, k, k.length);
    t = trieSet(t, 'b', 1);
    t = trieDelete(t, 'a');
    expect(trieGet(t, '__proto__')).toBe(9);
    expect(trieGet(t, 'constructor')).toBe(11);
    expect(trieGet(t, 'toString')).toBe(8);
    expect(trieGet(t, 'a')).toBeUndefined();
    expect(trieSortedKeys(t)).toEqual(['__proto__', 'b', 'constructor', 'toString']);
    expect(Object.getPrototypeOf(t)).toBe(Object.prototype);
  });

  it('finds only own keys in a trie read back from JSON, whose leaves have a prototype', () => {
    let t: Trie<number> = emptyTrie;
    for (const k of ['a', 'sa-1', '__proto__']) t = trieSet(t, k, k.length);
    const restored = JSON.parse(JSON.stringify(t)) as Trie<number>;
    expect(trieGet(restored, 'a')).toBe(1);
    expect(trieGet(restored, '__proto__')).toBe(9);
    for (const member of ['constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(trieGet(restored, member)).toBeUndefined();
      expect(trieGet(t, member)).toBeUndefined();
    }
    // The leaf on a member's path there, without the member: what the lookup finds there is the
    // prototype's, and not the trie's.
    for (const member of ['constructor', 'toString', '__proto__']) {
      const json = JSON.parse(JSON.stringify(trieSet(t, member, 7))) as Record<string, unknown>;
      const leafOf = (node: Record<string, unknown>, depth: number): Record<string, unknown> | undefined => {
        if (depth === 3) return Object.prototype.hasOwnProperty.call(node, member) ? node : undefined;
        for (const child of Object.values(node)) {
          const found = child === null || typeof child !== 'object' ? undefined : leafOf(child as Record<string, unknown>, depth + 1);
          if (found !== undefined) return found;
        }
        return undefined;
      };
      const leaf = leafOf(json, 0)!;
      delete leaf[member];
      expect(trieGet(json as unknown as Trie<number>, member)).toBeUndefined();
    }
  });

  it('rebuilds a trie read from JSON as writes make it: the same JSON, digest, keys and values (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('__proto__', 'constructor', 'toString')), { maxLength: 300 }), (keys) => {
        let t: Trie<number> = emptyTrie;
        keys.forEach((k, i) => (t = trieSet(t, k, i)));
        const json = JSON.parse(JSON.stringify(t)) as Trie<number>;
        const rebuilt = trieAsWritten(json);
        expect(JSON.stringify(rebuilt)).toBe(JSON.stringify(t));
        expect(hashWorld({ t: rebuilt } as never)).toBe(hashWorld({ t } as never));
        keys.forEach((k, i) => expect(trieGet(rebuilt, k)).toBe(i));
        expect(trieGet(rebuilt, 'hasOwnProperty')).toBeUndefined();
        expect([...trieSortedKeys(rebuilt)]).toEqual([...trieSortedKeys(t)]);
        // Its containers are the writer's kind, and its own: writes and in-place replays work on it.
        expect(Object.isFrozen(rebuilt)).toBe(false);
        expect(trieGet(trieSet(rebuilt, 'new', -1), 'new')).toBe(-1);
      }),
      { numRuns: 200 },
    );
  });
});

