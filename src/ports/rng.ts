/**
 * Seeded randomness. Each consumer (uids, generated names, keys, serials, the scheduler) draws
 * from its own stream derived from the world seed and the consumer's name, so adding a consumer
 * never shifts another's draws. Stream state is plain data stored in the world: a snapshot
 * resumes exactly. This is the only file that imports seedrandom.
 */
import seedrandom from 'seedrandom';
import { withEntry } from '../core/json.ts';

/** ARC4 state as seedrandom exports it ({ i, j, S }). */
export type RngState = { readonly i: number; readonly j: number; readonly S: readonly number[] };

export type RngStreams = Readonly<Record<string, RngState>>;

const width = 256;
const mask = width - 1;
/** seedrandom's double(): 52 significant bits from whole bytes, chunks of 6 first. */
const chunks = 6;
const startDenominator = width ** chunks;
const significance = 2 ** 52;
const overflow = significance * 2;

/**
 * seedrandom's ARC4 generator, resumed from an exported state: the same outputs (a test draws
 * both side by side) without keying a new seedrandom generator for every draw — a uid is drawn
 * for every object created.
 */
class Arc4 {
  #i: number;
  #j: number;
  readonly #s: number[];

  constructor(state: RngState) {
    this.#i = state.i;
    this.#j = state.j;
    this.#s = state.S.slice();
  }

  /** The next `count` bytes as one number, big-endian (seedrandom's `g`). */
  #g(count: number): number {
    const s = this.#s;
    let i = this.#i;
    let j = this.#j;
    let r = 0;
    for (let k = 0; k < count; k++) {
      i = mask & (i + 1);
      const t = s[i]!;
      j = mask & (j + t);
      s[i] = s[j]!;
      s[j] = t;
      r = r * width + s[mask & (s[i]! + t)]!;
    }
    this.#i = i;
    this.#j = j;
    return r;
  }

  int32(): number {
    return this.#g(4) | 0;
  }

  double(): number {
    let n = this.#g(chunks);
    let d = startDenominator;
    let x = 0;
    while (n < significance) {
      n = (n + x) * width;
      d *= width;
      x = this.#g(1);
    }
    while (n >= overflow) {
      n /= 2;
      d /= 2;
      x >>>= 1;
    }
    return (n + x) / d;
  }

  /** The state to store (this generator is not used again). */
  state(): RngState {
    return { i: this.#i, j: this.#j, S: this.#s };
  }
}

/** A stream's state before its first draw: seedrandom keyed with the seed and the stream's name. */
export function initialState(seed: string, stream: string): RngState {
  const prng = seedrandom(`${seed}\u0000${stream}`, { state: true }) as unknown as { state(): RngState };
  return prng.state();
}

function open(seed: string, stream: string, state: RngState | undefined): Arc4 {
  return new Arc4(state ?? initialState(seed, stream));
}

/**
 * Draws `count` bytes from a stream and returns them with the streams' new state.
 * Pure: the input streams are not modified.
 */
export function drawBytes(seed: string, streams: RngStreams, stream: string, count: number): { bytes: Uint8Array; streams: RngStreams } {
  const prng = open(seed, stream, streams[stream]);
  const bytes = new Uint8Array(count);
  for (let k = 0; k < count; k++) bytes[k] = (prng.int32() >>> 0) & 0xff;
  return { bytes, streams: withEntry(streams, stream, prng.state()) };
}

/** Draws integers uniformly in [0, bound). */
export function drawInts(seed: string, streams: RngStreams, stream: string, count: number, bound: number): { values: number[]; streams: RngStreams } {
  const prng = open(seed, stream, streams[stream]);
  const values: number[] = [];
  for (let k = 0; k < count; k++) values.push(Math.floor(prng.double() * bound));
  return { values, streams: withEntry(streams, stream, prng.state()) };
}

/** A uniformly drawn order of `n` items (Fisher–Yates): `order[k]` is the index of the k-th. */
export function drawPermutation(seed: string, streams: RngStreams, stream: string, n: number): { order: number[]; streams: RngStreams } {
  const prng = open(seed, stream, streams[stream]);
  const order = Array.from({ length: n }, (_, k) => k);
  for (let k = n - 1; k > 0; k--) {
    const j = Math.floor(prng.double() * (k + 1));
    [order[k], order[j]] = [order[j]!, order[k]!];
  }
  return { order, streams: withEntry(streams, stream, prng.state()) };
}
