/** Seeded streams: the same seed and stream give the same draws; streams are independent; state restores. */
import { describe, expect, it } from 'vitest';
import { drawBytes } from '../../../src/ports/rng.ts';

describe('rng streams', () => {
  it('is a function of seed, stream name and state', () => {
    const a = drawBytes('1', {}, 'uid', 8);
    const b = drawBytes('1', {}, 'uid', 8);
    expect(a.bytes).toEqual(b.bytes);
    expect(drawBytes('2', {}, 'uid', 8).bytes).not.toEqual(a.bytes);
    expect(drawBytes('1', {}, 'names', 8).bytes).not.toEqual(a.bytes);
    const next = drawBytes('1', a.streams, 'uid', 8);
    const restored = drawBytes('1', JSON.parse(JSON.stringify(a.streams)), 'uid', 8);
    expect(restored.bytes).toEqual(next.bytes);
  });

  it('does not shift one stream when another draws', () => {
    const direct = drawBytes('1', drawBytes('1', {}, 'uid', 4).streams, 'uid', 4).bytes;
    const s1 = drawBytes('1', {}, 'uid', 4).streams;
    const s2 = drawBytes('1', s1, 'names', 16).streams;
    expect(drawBytes('1', s2, 'uid', 4).bytes).toEqual(direct);
  });
});
