/**
 * Seeded identifiers: v4-shaped uids and generateName suffixes, drawn from named rng streams
 * whose state lives in the world. Dry runs draw from a throw-away stream keyed by the current
 * revision, so they change nothing and never hand out the uid a real create will get.
 */
import { drawBytes, drawInts } from '../ports/rng.ts';
import { worldWith, type World } from './world.ts';

/** Two hex digits per byte value, made once (a uid is made for every object created). */
const hexOfByte: readonly string[] = Array.from({ length: 256 }, (_, x) => x.toString(16).padStart(2, '0'));

function uuidFromBytes(b: Uint8Array): string {
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  let out = '';
  for (let i = 0; i < 16; i++) out += (i === 4 || i === 6 || i === 8 || i === 10 ? '-' : '') + hexOfByte[b[i]!]!;
  return out;
}

export function newUid(world: World, dryRun: boolean): { uid: string; world: World } {
  if (dryRun) {
    const { bytes } = drawBytes(world.seed, {}, `dryrun-uid/${world.revision}`, 16);
    return { uid: uuidFromBytes(bytes), world };
  }
  const { bytes, streams } = drawBytes(world.seed, world.rng, 'uid', 16);
  return { uid: uuidFromBytes(bytes), world: worldWith(world, { rng: streams }) };
}

/** apimachinery's alphabet: no vowels, no digits that look like letters. */
const alphabet = 'bcdfghjklmnpqrstvwxz2456789';

export function generatedSuffix(world: World, dryRun: boolean, attempt: number): { suffix: string; world: World } {
  const stream = dryRun ? `dryrun-names/${world.revision}/${attempt}` : 'names';
  const { values, streams } = drawInts(world.seed, dryRun ? {} : world.rng, stream, 5, alphabet.length);
  const suffix = values.map((v) => alphabet[v]).join('');
  return { suffix, world: dryRun ? world : worldWith(world, { rng: streams }) };
}

/** A token's `jti`: a v4-shaped UUID from its own stream, so issuing tokens never shifts uids. */
export function newTokenId(world: World): { jti: string; world: World } {
  const { bytes, streams } = drawBytes(world.seed, world.rng, 'jti', 16);
  return { jti: uuidFromBytes(bytes), world: worldWith(world, { rng: streams }) };
}
