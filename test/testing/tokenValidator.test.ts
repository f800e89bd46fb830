/**
 * The option `serviceAccountTokenValidator`: the hook through which a test plugs a variant of the
 * API server's check of service-account tokens into a simulation. It is checked like every option,
 * sees the token's claims and the world, is asked for requests and TokenReviews alike, leaves static
 * tokens alone, and is not kept in snapshots; delegating to the built-in changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation, PlatformSimError, restoreSimulation, type Simulation, type SimulationOptions } from '../../src/index.ts';
import type { ServiceAccountTokenClaims, ServiceAccountTokenValidator } from '../../src/testing.ts';
import { tokenReviewIgnoringPodUid } from '../fixtures/brokenTokenReview.ts';

const ns = '/api/v1/namespaces/default';
const reviews = '/apis/authentication.platform.io/v1/tokenreviews';

async function podBoundToken(sim: Simulation): Promise<string> {
  await sim.request({ method: 'POST', path: `${ns}/pods`, body: { metadata: { name: 'app' }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } } });
  const res = await sim.request({ method: 'POST', path: `${ns}/serviceaccounts/default/token`, body: { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'app' } } } });
  return (res.body as { status: { token: string } }).status.token;
}

const review = async (sim: Simulation, token: string): Promise<Record<string, unknown>> => ((await sim.request({ method: 'POST', path: reviews, body: { spec: { token } } })).body as { status: Record<string, unknown> }).status;

/** The pod deleted and made again under the same name: a new uid. */
async function replacePod(sim: Simulation): Promise<void> {
  await sim.request({ method: 'DELETE', path: `${ns}/pods/app` });
  await sim.request({ method: 'POST', path: `${ns}/pods`, body: { metadata: { name: 'app' }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } } });
}

describe('the option serviceAccountTokenValidator', () => {
  it.each([['a function', 'yes'], ['a function', { validate: () => null }]])('must be %s, not %j', async (_, value) => {
    const e = await createSimulation({ serviceAccountTokenValidator: value } as unknown as SimulationOptions).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PlatformSimError);
    expect((e as PlatformSimError).code).toBe('PSIM_OPTION_INVALID');
    expect((e as PlatformSimError).message).toMatch(/^option serviceAccountTokenValidator: must be a function \(claims, world, builtIn\) => reason \| null, not /);
  });

  it('sees the claims and the world, and its reason is the review\'s error and the request\'s 401', async () => {
    const seen: { claims: ServiceAccountTokenClaims; now: number }[] = [];
    const refuseAll: ServiceAccountTokenValidator = (claims, world) => (seen.push({ claims, now: world.now }), 'refused by the test');
    const sim = await createSimulation({ seed: 1, serviceAccountTokenValidator: refuseAll });
    const token = await podBoundToken(sim);
    expect(await review(sim, token)).toEqual({ user: {}, error: '[invalid bearer token, refused by the test]' });
    expect((await sim.request({ method: 'GET', path: `${ns}/pods`, headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    const pod = (await sim.request({ method: 'GET', path: `${ns}/pods/app` })).body as { metadata: { uid: string } };
    expect(seen[0]!.claims).toMatchObject({ namespace: 'default', serviceAccount: { name: 'default' }, pod: { name: 'app', uid: pod.metadata.uid } });
    expect(seen[0]!.now).toBe(Date.parse(sim.now()));
  });

  it('leaves static tokens to the static-token authenticator', async () => {
    const sim = await createSimulation({ seed: 1, users: [{ token: 'static-1', user: 'alice' }], serviceAccountTokenValidator: () => 'never asked' });
    expect(await review(sim, 'static-1')).toMatchObject({ authenticated: true, user: { username: 'alice' } });
  });

  it('changes nothing when it asks the built-in check', async () => {
    const answers = async (options: SimulationOptions): Promise<unknown[]> => {
      const sim = await createSimulation({ seed: 1, ...options });
      const token = await podBoundToken(sim);
      const fresh = await review(sim, token);
      await replacePod(sim);
      return [fresh, await review(sim, token)];
    };
    const builtIn = await answers({});
    expect(builtIn[1]).toMatchObject({ error: expect.stringMatching(/^\[invalid bearer token, pod UID \(.+\) does not match service account pod ref claim \(.+\)\]$/) });
    expect(await answers({ serviceAccountTokenValidator: (claims, world, check) => check(claims, world) })).toEqual(builtIn);
  });

  it('puts the broken variant of the fixture in the API server\'s place: a replaced pod\'s token still works', async () => {
    const sim = await createSimulation({ seed: 1, serviceAccountTokenValidator: tokenReviewIgnoringPodUid });
    const token = await podBoundToken(sim);
    await replacePod(sim);
    expect(await review(sim, token)).toMatchObject({ authenticated: true, user: { username: 'system:serviceaccount:default:default' } });
    // A pod that is gone still invalidates it: only the uid is ignored.
    await sim.request({ method: 'DELETE', path: `${ns}/pods/app` });
    expect(await review(sim, token)).toEqual({ user: {}, error: '[invalid bearer token, service account token has been invalidated]' });
  });

  it('is not kept in snapshots (a function), like controllers', async () => {
    const sim = await createSimulation({ seed: 1, serviceAccountTokenValidator: tokenReviewIgnoringPodUid });
    const token = await podBoundToken(sim);
    const snapshot = sim.snapshot();
    expect(Object.keys(snapshot.options)).not.toContain('serviceAccountTokenValidator');
    const restored = await restoreSimulation(snapshot);
    await replacePod(restored);
    expect(await review(restored, token)).toMatchObject({ error: expect.stringContaining('does not match service account pod ref claim') });
  });
});
