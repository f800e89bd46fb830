/**
 * The seam where a service-account token meets the world: Kubernetes' serviceaccount.Validator
 * (pkg/serviceaccount/claims.go), which runs once the signature and the audiences have passed —
 * the times with their leeway, the private claim, the ServiceAccount, the bound Secret, Pod or
 * Node. The simulation's own is `validateClaims` (serviceAccountToken.ts). A test plugs in a
 * variant with the option `serviceAccountTokenValidator`, to prove that it catches a validator's
 * bug (a TokenReview that ignores the bound pod's uid, test/fixtures/brokenTokenReview.ts), as
 * the option `controllers` swaps a controller for a broken one.
 */
import type { World } from '../store/world.ts';
import type { ReadClaims } from './tokenClaims.ts';

/** Why the token is refused (what follows `invalid bearer token, ` in the answer), or null to accept it. */
export type ClaimsCheck = (claims: ReadClaims, world: World) => string | null;

/**
 * A variant of the validator: it gets the token's claims, the world (its clock is `world.now`)
 * and the built-in check, which it may call on doctored claims or a doctored world. Pure and
 * synchronous like the built-in: the same claims and world give the same verdict. A token it
 * accepts authenticates as the ServiceAccount its claims name, with the claims' uids.
 */
export type ServiceAccountTokenValidator = (claims: ReadClaims, world: World, builtIn: ClaimsCheck) => string | null;
