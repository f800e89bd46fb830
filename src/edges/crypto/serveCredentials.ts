/**
 * The server's credentials (Node only: `serve` imports this, the browser-safe library never does).
 * A public seed must not give away the admin token or the keys, so `serve` draws a key secret at
 * its first start and mixes it into both (the option `keySecret`, sim/options.ts); with seed-only
 * keys (`--seed`, `--deterministic-keys`) everything stays a function of the seed, for replays.
 */
import { createHash, randomBytes } from 'node:crypto';

/** 256 bits from the operating system's generator: nothing to compute from. */
export function drawKeySecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The admin's bearer token. With a key secret: 160 bits of SHA-256 over the seed and the secret.
 * Seed-only: the short hash of the seed earlier versions printed, kept so that seeded setups and
 * their scripts keep working.
 */
export function adminTokenFor(seed: string, keySecret: string | undefined): string {
  if (keySecret !== undefined) {
    return `psim-${createHash('sha256').update(`platform-sim\u0000admin-token\u0000${seed}\u0000${keySecret}`).digest('hex').slice(0, 40)}`;
  }
  let h = 2166136261;
  for (const c of `admin-token:${seed}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return `psim-${(h >>> 0).toString(16).padStart(8, '0')}${seed.length.toString(16)}`;
}

/**
 * The key secret to mix in: one given; none with seed-only keys (asked for with
 * `--deterministic-keys` or an explicit `--seed`); a resumed world's own — none if it was made
 * with seed-only keys, so that its credentials stay what they were; else a fresh one.
 */
export function chooseKeySecret(given: string | undefined, seedOnly: boolean, resumed: { readonly keySecret?: string } | null): string | undefined {
  if (given !== undefined) return given;
  if (seedOnly) return undefined;
  if (resumed !== null) return resumed.keySecret;
  return drawKeySecret();
}

/** With seed-only keys: a warning when the address is reachable from other machines (none on loopback). */
export function exposureWarning(host: string): string[] {
  if (isLoopback(host)) return [];
  return [
    `platform-sim: warning: listening on ${host} with keys derived from the seed alone (--seed or --deterministic-keys): anyone who can reach it and knows the seed can compute the cluster CA's key and sign themselves an admin certificate`,
  ];
}

/** Whether a listen address is reachable from this machine only. */
function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h) || /^::ffff:127\.\d+\.\d+\.\d+$/.test(h);
}
