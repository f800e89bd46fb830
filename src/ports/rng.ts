/**
 * Seeded randomness. Each consumer (uids, generated names, keys, serials, the scheduler) draws
 * from its own stream derived from the world seed and the consumer's name, so adding a consumer
 * never shifts another's draws. Stream state is plain data stored in the world: a snapshot
 * resumes exactly. This is the only file that imports seedrandom.
 */
import seedrandom from 'seedrandom';

/** ARC4 state as seedrandom exports it ({ i, j, S }). */
export type RngState = { readonly i: number; readonly j: number; readonly S: readonly number[] };

export type RngStreams = Readonly<Record<string, RngState>>;

/** The part of seedrandom's ARC4 generator we use (its typings omit `state()`). */
interface Prng {
  int32(): number;
  double(): number;
  state(): RngState;
}

function open(seed: string, stream: string, state: RngState | undefined): Prng {
  // `state: true` makes the generator exportable; passing an object restores it.
  const restore = state === undefined ? true : { i: state.i, j: state.j, S: [...state.S] };
  const key = state === undefined ? `${seed}\u0000${stream}` : '';
  return seedrandom(key, { state: restore as never }) as unknown as Prng;
}

/**
 * Draws `count` bytes from a stream and returns them with the streams' new state.
 * Pure: the input streams are not modified.
 */
export function drawBytes(seed: string, streams: RngStreams, stream: string, count: number): { bytes: Uint8Array; streams: RngStreams } {
  const prng = open(seed, stream, streams[stream]);
  const bytes = new Uint8Array(count);
  for (let k = 0; k < count; k++) bytes[k] = (prng.int32() >>> 0) & 0xff;
  const state = prng.state();
  return { bytes, streams: { ...streams, [stream]: { i: state.i, j: state.j, S: state.S } } };
}

/** Draws integers uniformly in [0, bound). */
export function drawInts(seed: string, streams: RngStreams, stream: string, count: number, bound: number): { values: number[]; streams: RngStreams } {
  const prng = open(seed, stream, streams[stream]);
  const values: number[] = [];
  for (let k = 0; k < count; k++) values.push(Math.floor(prng.double() * bound));
  const state = prng.state();
  return { values, streams: { ...streams, [stream]: { i: state.i, j: state.j, S: state.S } } };
}

/** A uniformly drawn order of `n` items (Fisher–Yates): `order[k]` is the index of the k-th. */
export function drawPermutation(seed: string, streams: RngStreams, stream: string, n: number): { order: number[]; streams: RngStreams } {
  const prng = open(seed, stream, streams[stream]);
  const order = Array.from({ length: n }, (_, k) => k);
  for (let k = n - 1; k > 0; k--) {
    const j = Math.floor(prng.double() * (k + 1));
    [order[k], order[j]] = [order[j]!, order[k]!];
  }
  const state = prng.state();
  return { order, streams: { ...streams, [stream]: { i: state.i, j: state.j, S: state.S } } };
}
