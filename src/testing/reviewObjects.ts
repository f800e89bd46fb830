/**
 * The spec's review kinds, which are not stored: a TokenReview (any token string is a valid
 * request — an unknown token is answered `authenticated: false`, not refused) and a
 * SelfSubjectReview (no spec; whatever a client puts in `status` is ignored and replaced by the
 * caller). Their near-valid bodies are refused before validation, with a 400 and no causes, so they
 * come as `RefusedReview` rather than `Rejected`.
 */
import type * as FastCheck from 'fast-check';
import type { Fc } from './arbitraries.ts';

type Body = Record<string, any>;

/** A near-valid review: the 400 BadRequest a faithful server answers, with its message. */
export interface RefusedReview {
  readonly body: Body;
  readonly mistake: string;
  readonly reason: 'BadRequest';
  readonly message: string;
}

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** Base64url text, as a JWT's parts are (a token that looks like one but is none). */
const base64url = (fc: Fc): FastCheck.Arbitrary<string> => fc.array(fc.integer({ min: 0, max: 63 }), { minLength: 4, maxLength: 24 }).map((xs) => xs.map((x) => alphabet[x]).join(''));

const audiences = (fc: Fc): FastCheck.Arbitrary<string[] | undefined> => fc.option(fc.uniqueArray(fc.constantFrom('https://platform-sim.local', 'vault', 'api', ''), { minLength: 1, maxLength: 3 }), { nil: undefined });

/** A TokenReview body with a token that is no credential (the answer: 201, not authenticated). */
export function tokenReview(fc: Fc): FastCheck.Arbitrary<Body> {
  const token = fc.oneof(
    fc.string({ minLength: 1, maxLength: 40 }).filter((t) => t.trim() !== ''),
    fc.tuple(base64url(fc), base64url(fc)).map(([h, p]) => `eyJ${h}.${p}.sig`),
  );
  return fc.record({ token, audiences: audiences(fc) }).map((d) => ({ spec: { token: d.token, ...(d.audiences === undefined ? {} : { audiences: d.audiences }) } }));
}

/** A TokenReview without its token: `token is required for TokenReview in authentication`. */
export function refusedTokenReview(fc: Fc): FastCheck.Arbitrary<RefusedReview> {
  const message = 'token is required for TokenReview in authentication';
  return fc.record({ audiences: audiences(fc), empty: fc.constantFrom('absent', 'empty', 'no spec') }).map((d) => {
    const spec = { ...(d.empty === 'empty' ? { token: '' } : {}), ...(d.audiences === undefined ? {} : { audiences: d.audiences }) };
    return { body: d.empty === 'no spec' ? {} : { spec }, mistake: `token ${d.empty === 'empty' ? 'empty' : 'missing'}`, reason: 'BadRequest' as const, message };
  });
}

/** A SelfSubjectReview body, with a `status` a client made up (it is ignored: the answer is the caller). */
export function selfSubjectReview(fc: Fc): FastCheck.Arbitrary<Body> {
  return fc.option(fc.record({ username: fc.string({ maxLength: 12 }), groups: fc.array(fc.string({ maxLength: 8 }), { maxLength: 2 }) }), { nil: undefined }).map((u) => (u === undefined ? {} : { status: { userInfo: u } }));
}
