/**
 * The copies the write path makes instead of spreads (core/json.ts: copyObject, copyInto,
 * withEntry): the same own keys in the same order with the same values as the spread they stand
 * for, `__proto__` included as an own key (JSON.parse makes it one), the source untouched.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { copyInto, copyObject, withEntry } from '../../../src/core/json.ts';

const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('__proto__', 'constructor', 'toString', '0', '17', 'kind', 'apiVersion'));
/** Objects as request bodies come: parsed from JSON text, so `__proto__` is an own key. */
const parsed = fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 8 }).map((o) => {
  const text = `{${Object.entries(o)
    .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`)
    .join(',')}}`;
  return JSON.parse(text) as Record<string, unknown>;
});

/** Own keys in order, each with its value (a prototype set by mistake would drop `__proto__` here). */
const entries = (o: object): [string, unknown][] => Object.keys(o).map((k) => [k, Object.getOwnPropertyDescriptor(o, k)?.value]);

describe('copies instead of spreads', () => {
  it('copyObject is the spread: same keys, order and values, a plain prototype, the source unchanged (property)', () => {
    fc.assert(
      fc.property(parsed, (o) => {
        const before = JSON.stringify(entries(o));
        const copy = copyObject(o);
        expect(entries(copy)).toEqual(entries({ ...o }));
        expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
        expect(copy).not.toBe(o);
        expect(JSON.stringify(entries(o))).toBe(before);
      }),
      { numRuns: 2000 },
    );
  });

  it('withEntry is `{ ...o, [key]: value }`: an existing key keeps its place, a new one comes last (property)', () => {
    fc.assert(
      fc.property(parsed, key, fc.jsonValue({ maxDepth: 1 }), (o, k, v) => {
        const expected = { ...o };
        Object.defineProperty(expected, k, { value: v, writable: true, enumerable: true, configurable: true });
        expect(entries(withEntry<unknown>(o, k, v))).toEqual(entries(expected));
      }),
      { numRuns: 2000 },
    );
  });

  it('copyInto adds all but the excepted keys after what the target holds (property)', () => {
    fc.assert(
      fc.property(parsed, (o) => {
        const out: Record<string, unknown> = { kind: 'K', apiVersion: 'v1' };
        copyInto(out, o, (k) => k === 'kind' || k === 'apiVersion');
        const { kind: _k, apiVersion: _a, ...rest } = o;
        expect(entries(out)).toEqual(entries({ kind: 'K', apiVersion: 'v1', ...rest }));
      }),
      { numRuns: 2000 },
    );
  });
});
