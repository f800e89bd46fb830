/** Seeded streams: the same seed and stream give the same draws; streams are independent; state restores. */
import fc from 'fast-check';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { drawBytes, drawInts, drawPermutation, type RngState, type RngStreams } from '../../../src/ports/rng.ts';

/** The draws as seedrandom itself makes them, generator keyed or restored for every draw (the definition). */
type Prng = { int32(): number; double(): number; state(): RngState };
const reference = (seed: string, streams: RngStreams, stream: string): Prng =>
  seedrandom(streams[stream] === undefined ? `${seed}\u0000${stream}` : '', { state: streams[stream] === undefined ? true : { ...streams[stream], S: [...streams[stream]!.S] } } as never) as unknown as Prng;
const after = (streams: RngStreams, stream: string, prng: Prng): RngStreams => ({ ...streams, [stream]: prng.state() });

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

  it("draws exactly what seedrandom's generator draws, draw after draw", () => {
    type Draw = { kind: 'bytes' | 'ints' | 'order'; stream: string; count: number };
    const draw = fc.record({ kind: fc.constantFrom<Draw['kind']>('bytes', 'ints', 'order'), stream: fc.constantFrom('uid', 'names', 'sched'), count: fc.integer({ min: 0, max: 40 }) });
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), fc.array(draw, { maxLength: 12 }), (seed, draws) => {
        let ours: RngStreams = {};
        let theirs: RngStreams = {};
        for (const d of draws) {
          const prng = reference(seed, theirs, d.stream);
          if (d.kind === 'bytes') {
            const got = drawBytes(seed, ours, d.stream, d.count);
            expect([...got.bytes]).toEqual(Array.from({ length: d.count }, () => (prng.int32() >>> 0) & 0xff));
            ours = got.streams;
          } else if (d.kind === 'ints') {
            const got = drawInts(seed, ours, d.stream, d.count, 27);
            expect(got.values).toEqual(Array.from({ length: d.count }, () => Math.floor(prng.double() * 27)));
            ours = got.streams;
          } else {
            const got = drawPermutation(seed, ours, d.stream, d.count);
            const order = Array.from({ length: d.count }, (_, k) => k);
            for (let k = d.count - 1; k > 0; k--) {
              const j = Math.floor(prng.double() * (k + 1));
              [order[k], order[j]] = [order[j]!, order[k]!];
            }
            expect(got.order).toEqual(order);
            ours = got.streams;
          }
          theirs = after(theirs, d.stream, prng);
          // The stored states are the same too (snapshots stay byte for byte).
          expect(JSON.stringify(ours)).toBe(JSON.stringify(theirs));
        }
      }),
    );
  });
});
