/**
 * `sim.hash()`: SHA-256 of the canonical JSON of the world (keys sorted), so that two runs can
 * be compared byte for byte. Pure JS (@noble/hashes) so the main entry stays browser-safe.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { canonicalJson } from '../core/json.ts';
import type { World } from '../store/world.ts';

export function hashWorld(world: World): string {
  return bytesToHex(sha256(utf8ToBytes(canonicalJson(world))));
}
