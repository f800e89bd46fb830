/**
 * The review kinds of the spec (TokenReview, SelfSubjectReview): valid bodies are answered 201 —
 * an unknown token unauthenticated, a made-up status replaced by the caller — and a TokenReview
 * without its token is refused 400 with the real message; nothing is stored either way.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSimulation } from '../../src/index.ts';
import { refusedTokenReview, selfSubjectReview, tokenReview } from '../../src/testing.ts';

const tokenReviews = '/apis/authentication.platform.io/v1/tokenreviews';
const selfSubjectReviews = '/apis/authentication.platform.io/v1/selfsubjectreviews';

describe('review arbitraries', () => {
  it('a TokenReview with any token that is no credential is answered, unauthenticated, and stores nothing', async () => {
    const sim = await createSimulation({ seed: 1 });
    const hash = sim.hash();
    await fc.assert(
      fc.asyncProperty(tokenReview(fc), async (body) => {
        const r = await sim.request({ method: 'POST', path: tokenReviews, body });
        expect(r.status).toBe(201);
        expect((r.body as { status: { authenticated?: boolean } }).status.authenticated).not.toBe(true);
      }),
      { numRuns: 60, seed: 3 },
    );
    expect(sim.hash()).toBe(hash);
  });

  it('a TokenReview without its token is a 400 with the real message', async () => {
    const sim = await createSimulation({ seed: 1 });
    await fc.assert(
      fc.asyncProperty(refusedTokenReview(fc), async (r) => {
        const res = await sim.request({ method: 'POST', path: tokenReviews, body: r.body });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ kind: 'Status', reason: r.reason, message: r.message });
      }),
      { numRuns: 30, seed: 3 },
    );
  });

  it('a SelfSubjectReview is answered with the caller, whatever status the body made up', async () => {
    const sim = await createSimulation({ seed: 1 });
    await fc.assert(
      fc.asyncProperty(selfSubjectReview(fc), async (body) => {
        const res = await sim.request({ method: 'POST', path: selfSubjectReviews, body, as: { user: 'alice', groups: ['dev'] } });
        expect(res.status).toBe(201);
        expect((res.body as { status: { userInfo: unknown } }).status.userInfo).toEqual({ username: 'alice', groups: ['dev', 'system:authenticated'] });
      }),
      { numRuns: 30, seed: 3 },
    );
  });
});
