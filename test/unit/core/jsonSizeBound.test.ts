/**
 * The size bound the storage limit clears objects with: never below the true UTF-8 length of the
 * JSON, whatever the strings hold (escapes, non-ASCII, surrogate pairs).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonBytesAtMost } from '../../../src/core/jsonSizeBound.ts';

const bytesOf = (v: unknown): number => new TextEncoder().encode(JSON.stringify(v)).length;

describe('jsonBytesAtMost', () => {
  it('never clears a value whose JSON is longer than the bound (property)', () => {
    const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom('\u0000', '\u001f', '"', '\\', '\u2028', '😀', 'é') }));
    const value = fc.letrec((tie) => ({
      v: fc.oneof({ depthSize: 'small' }, text, fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(tie('v')), fc.dictionary(text, tie('v'))),
    })).v;
    fc.assert(
      fc.property(value, fc.nat({ max: 2000 }), (v, max) => {
        if (jsonBytesAtMost(v, max)) expect(bytesOf(v)).toBeLessThanOrEqual(max);
      }),
      { numRuns: 3000 },
    );
  });

  it('clears an ordinary object far below the limit and refuses one near it', () => {
    const sa = { kind: 'ServiceAccount', apiVersion: 'v1', metadata: { name: 'sa-0', labels: { app: 'bench' } } };
    expect(jsonBytesAtMost(sa, 1024)).toBe(true);
    expect(jsonBytesAtMost({ data: 'x'.repeat(1000) }, 1024)).toBe(false);
    expect(jsonBytesAtMost({ data: ['x'.repeat(100), 'y'.repeat(100)] }, 1300)).toBe(true);
  });
});
