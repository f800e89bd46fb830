/**
 * Service-account issuer discovery (pkg/serviceaccount/openidmetadata.go): the OpenID
 * configuration and the public keys, so that outside verifiers (jose's createRemoteJWKSet) can
 * check tokens. Compact JSON, members in the real order, cacheable for an hour.
 */
import type { IdentityConfig } from '../../auth/identityConfig.ts';
import type { ApiResponse } from '../types.ts';

export const openIdConfigurationPath = '/.well-known/openid-configuration';
export const jwksPath = '/openid/v1/jwks';

const cacheControl = 'public, max-age=3600';

export function openIdConfiguration(config: IdentityConfig, host: string): ApiResponse {
  const algs = [...new Set(config.keys.map((k) => k.alg))].sort();
  const doc = {
    issuer: config.issuer,
    jwks_uri: `https://${host}${jwksPath}`,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: algs,
  };
  return { status: 200, headers: { 'content-type': 'application/json', 'cache-control': cacheControl }, body: JSON.stringify(doc) };
}

export function jwks(config: IdentityConfig): ApiResponse {
  const keys = config.keys.map((k) => ({ use: 'sig', ...k.jwk, kid: k.kid, alg: k.alg }));
  return { status: 200, headers: { 'content-type': 'application/jwk-set+json', 'cache-control': cacheControl }, body: JSON.stringify({ keys }) };
}
