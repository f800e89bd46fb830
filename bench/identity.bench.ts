/**
 * Issue 4 target: TokenRequest + TokenReview round trips per second in process, at least 60% of
 * raw jose EdDSA sign + verify measured in the same run (same key type, sequential, one await at
 * a time). Every round trip issues a new token (a new jti), so nothing is served from the
 * simulation's crypto fact cache.
 */
import { SignJWT, jwtVerify } from 'jose';
import { createSimulation } from '../src/index.ts';
import { fmt, rate } from './measure.ts';
import type { Row } from './store.bench.ts';



export async function identityBench(progress: (msg: string) => void): Promise<Row[]> {
  progress('identity: raw jose EdDSA sign + verify');
  const { privateKey, publicKey } = (await globalThis.crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify'])) as CryptoKeyPair;
  const now = 1_767_225_600;
  const raw = await rate(async () => {
    const token = await new SignJWT({ sub: 'system:serviceaccount:default:bench', 'platform.io': { namespace: 'default' } })
      .setProtectedHeader({ alg: 'EdDSA', kid: 'k' })
      .setIssuer('https://platform-sim.local')
      .setAudience(['https://platform-sim.local'])
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + 3600)
      .sign(privateKey);
    await jwtVerify(token, publicKey, { currentDate: new Date(now * 1000) });
  }, 500, 5);
  progress('identity: TokenRequest + TokenReview in process');
  const sim = await createSimulation({ seed: 1 });
  await sim.request({ method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts', body: { metadata: { name: 'bench' } } });
  const roundTrip = await rate(async () => {
    const tr = await sim.request({ method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts/bench/token', body: { spec: {} } });
    const token = (tr.body as { status: { token: string } }).status.token;
    const review = await sim.request({ method: 'POST', path: '/apis/authentication.platform.io/v1/tokenreviews', body: { spec: { token } } });
    if ((review.body as { status: { authenticated?: boolean } }).status.authenticated !== true) throw new Error('bench token did not authenticate');
  }, 500, 5);
  const ratio = roundTrip.opsPerSecond / raw.opsPerSecond;
  return [
    {
      what: 'TokenRequest + TokenReview round trips/s (in process)',
      value: `${fmt(roundTrip.opsPerSecond)} (${Math.round(ratio * 100)}% of raw)`,
      baseline: `${fmt(raw.opsPerSecond)} (raw jose EdDSA SignJWT + jwtVerify)`,
      target: '≥ 60% of raw',
      ok: ratio >= 0.6,
    },
  ];
}
