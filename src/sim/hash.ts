/**
 * `sim.hash()`: a SHA-256 digest of the whole world, equal for equal worlds and different for
 * different ones, cheap to take again after a few changes. It is a Merkle digest: every JSON
 * container's digest hashes its canonical form (keys sorted) with each child container written as
 * that child's digest, and a stored Kubernetes object (a value with `apiVersion` and `metadata`)
 * is a leaf hashed as its canonical JSON. Digests are kept per container object, and a world
 * shares every part a write did not touch with the world before it (persistent tries, the chunked
 * log), so the digest after one change costs the path from that change to the root — not the
 * 100,000 objects around it. Pure JS (@noble/hashes) so the main entry stays browser-safe.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { canonicalJson } from '../core/json.ts';
import type { World } from '../store/world.ts';

/** Digests (hex) by container; a stored container never changes, so its digest never does. */
const digests = new WeakMap<object, string>();
let hashed = 0;

/** How many containers have been digested so far in this process (tests count work with it). */
export function hashedContainers(): number {
  return hashed;
}

function isStoredObject(v: object): boolean {
  const o = v as Record<string, unknown>;
  return typeof o['apiVersion'] === 'string' && o['metadata'] !== null && typeof o['metadata'] === 'object' && !Array.isArray(o['metadata']);
}

/** How a value appears inside its parent's canonical form: primitives as JSON, containers by digest. */
function token(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  return `#${digestOf(v)}`;
}

function digestOf(v: object): string {
  const known = digests.get(v);
  if (known !== undefined) return known;
  let form: string;
  if (Array.isArray(v)) form = `[${v.map(token).join(',')}]`;
  else if (isStoredObject(v)) form = `@${canonicalJson(v)}`;
  else {
    const parts: string[] = [];
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined) parts.push(`${JSON.stringify(k)}:${token(x)}`);
    }
    form = `{${parts.join(',')}}`;
  }
  const digest = bytesToHex(sha256(utf8ToBytes(form)));
  hashed++;
  digests.set(v, digest);
  return digest;
}

export function hashWorld(world: World): string {
  return digestOf(world);
}
