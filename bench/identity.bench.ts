/**
 * Issue 4 target: TokenRequest + TokenReview round trips per second in process, at least 60% of
 * raw jose EdDSA sign + verify measured in the same run (same key type), one at a time. Shown
 * beside it: node:crypto's synchronous Ed25519 sign + verify (the primitive the simulation uses
 * in Node, edges/crypto/nodeEd25519.ts), and both sides with 16 round trips in flight (jose's
 * WebCrypto work overlaps on the libuv thread pool; the simulation's runs on the main thread).
 * Every round trip issues a new token (a new jti), so nothing comes from the fact cache.
 */
import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Simulation } from '../src/index.ts';
import { createSimulation } from './package.ts';
import { fmt, rate } from './measure.ts';
import type { Row } from './store.bench.ts';

const inFlight = 16;

async function rawRoundTrip(keys: CryptoKeyPair, now: number): Promise<void> {
  const token = await new SignJWT({ sub: 'system:serviceaccount:default:bench', 'platform.io': { namespace: 'default' } })
    .setProtectedHeader({ alg: 'EdDSA', kid: 'k' })
    .setIssuer('https://platform-sim.local')
    .setAudience(['https://platform-sim.local'])
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + 3600)
    .sign(keys.privateKey);
  await jwtVerify(token, keys.publicKey, { currentDate: new Date(now * 1000) });
}

async function simRoundTrip(sim: Simulation): Promise<void> {
  const tr = await sim.request({ method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts/bench/token', body: { spec: {} } });
  const token = (tr.body as { status: { token: string } }).status.token;
  const review = await sim.request({ method: 'POST', path: '/apis/authentication.platform.io/v1/tokenreviews', body: { spec: { token } } });
  if ((review.body as { status: { authenticated?: boolean } }).status.authenticated !== true) throw new Error('bench token did not authenticate');
}

/** `n` round trips at once: the rate counts round trips, not batches. */
async function batch(n: number, one: () => Promise<void>): Promise<void> {
  await Promise.all(Array.from({ length: n }, one));
}

export async function identityBench(progress: (msg: string) => void): Promise<Row[]> {
  const keys = (await globalThis.crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify'])) as CryptoKeyPair;
  const now = 1_767_225_600;
  const sim = await createSimulation({ seed: 1 });
  await sim.request({ method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts', body: { metadata: { name: 'bench' } } });
  progress('identity: raw jose EdDSA sign + verify, then TokenRequest + TokenReview, one at a time');
  const raw = await rate(() => rawRoundTrip(keys, now), 500, 5);
  const nodeKeys = generateKeyPairSync('ed25519');
  let n = 0;
  const rawNode = await rate(() => {
    const data = Buffer.from(`eyJhbGciOiJFZERTQSJ9.${Buffer.from(`{"sub":"bench","n":${n++}}`).toString('base64url')}`);
    verify(null, data, nodeKeys.publicKey, sign(null, data, nodeKeys.privateKey));
  }, 500, 5);
  const seq = await rate(() => simRoundTrip(sim), 500, 5);
  progress(`identity: the same with ${inFlight} in flight`);
  const rawPar = await rate(() => batch(inFlight, () => rawRoundTrip(keys, now)), 500, 5);
  const simPar = await rate(() => batch(inFlight, () => simRoundTrip(sim)), 500, 5);
  const pct = (a: number, b: number): string => `${Math.round((a / b) * 100)}% of raw jose`;
  return [
    {
      what: 'TokenRequest + TokenReview round trips/s, one at a time',
      value: `${fmt(seq.opsPerSecond)} (${pct(seq.opsPerSecond, raw.opsPerSecond)})`,
      baseline: `${fmt(raw.opsPerSecond)} raw jose EdDSA SignJWT + jwtVerify; ${fmt(rawNode.opsPerSecond)} raw node:crypto Ed25519 sign + verify`,
      target: '≥ 60% of raw jose',
      ok: seq.opsPerSecond / raw.opsPerSecond >= 0.6,
    },
    {
      what: `TokenRequest + TokenReview round trips/s, ${inFlight} in flight`,
      value: `${fmt(simPar.opsPerSecond * inFlight)} (${pct(simPar.opsPerSecond, rawPar.opsPerSecond)})`,
      baseline: `${fmt(rawPar.opsPerSecond * inFlight)} raw jose, ${inFlight} in flight (WebCrypto on the thread pool)`,
      target: 'informational',
      ok: null,
    },
  ];
}
