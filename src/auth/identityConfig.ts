/**
 * Everything authentication needs besides the world, fixed for the life of a simulation and
 * derived from its options: issuers and audiences, the public service-account keys (the edge
 * imported them; the core only needs their ids and algorithms), static users, front-proxy
 * settings. Plain data, but for the test hook `serviceAccountTokenValidator` (a pure function).
 */
import type { JsonObject } from '../core/json.ts';
import type { ServiceAccountTokenValidator } from './tokenValidator.ts';

export interface StaticUser {
  readonly token: string;
  readonly user: string;
  readonly uid?: string;
  readonly groups?: readonly string[];
}

export interface ServiceAccountKey {
  /** base64url(SHA-256(DER SubjectPublicKeyInfo)), as Kubernetes' keyIDFromPublicKey. */
  readonly kid: string;
  /** JWS algorithm: EdDSA (seeded default), RS256, ES256, ES384, ES512. */
  readonly alg: string;
  /** The public key as a JWK (served by /openid/v1/jwks). */
  readonly jwk: JsonObject;
}

export interface RequestHeaderConfig {
  readonly allowedNames: readonly string[];
  readonly usernameHeaders: readonly string[];
  readonly uidHeaders: readonly string[];
  readonly groupHeaders: readonly string[];
  readonly extraHeaderPrefixes: readonly string[];
}

export interface IdentityConfig {
  readonly issuer: string;
  readonly apiAudiences: readonly string[];
  /** The first key signs; every key verifies. */
  readonly keys: readonly ServiceAccountKey[];
  readonly maxTokenExpirationSeconds: number | null;
  readonly extendTokenExpiration: boolean;
  /** Feature gate ServiceAccountTokenNodeBinding: TokenRequests may bind to a Node. */
  readonly nodeBinding: boolean;
  readonly staticUsers: readonly StaticUser[];
  readonly anonymous: boolean;
  readonly requestHeader: RequestHeaderConfig | null;
  /** A variant of the service-account token validator under test (tokenValidator.ts); absent: the built-in. */
  readonly serviceAccountTokenValidator?: ServiceAccountTokenValidator;
}

/** Token lifetimes of the TokenRequest API (pkg/apis/authentication/validation). */
export const tokenLifetimes = {
  defaultSeconds: 3600,
  minimumSeconds: 600,
  maximumSeconds: 2 ** 32,
  /** Pod-bound tokens asked for exactly this long get a year ("safe rollout of bound tokens"). */
  extendableSeconds: 3607,
  extendedSeconds: 365 * 24 * 3600,
  /** Clock skew allowed when checking nbf/exp/iat. */
  leewaySeconds: 60,
} as const;
