/**
 * Authenticating a service-account JWT (pkg/serviceaccount/jwt.go and claims.go), in the real
 * order: an unverified peek decides whether the token is ours at all ("not mine" lets other
 * authenticators try), then the signature (a crypto fact), the audiences, the times with the 60 s
 * leeway, and the world: the ServiceAccount and the bound object must still exist with the uids
 * in the token. No cache: a deleted pod invalidates its tokens at once. The checks after the
 * audiences are the validator (`validateClaims`), which a test may replace (tokenValidator.ts).
 */
import type { CryptoFacts } from '../api/crypto.ts';
import type { KubeObject } from '../api/meta.ts';
import type { Names } from '../api/names.ts';
import type { UserInfo } from '../api/userInfo.ts';
import { base64UrlDecode, utf8Decode } from '../core/base64.ts';
import { parseInstant } from '../core/duration.ts';
import { goQuoteList, jsonQuote } from '../core/goFormat.ts';
import { isObject, type JsonObject } from '../core/json.ts';
import { limits } from '../core/limits.ts';
import { getObject } from '../store/objects.ts';
import type { World } from '../store/world.ts';
import { tokenLifetimes, type IdentityConfig } from './identityConfig.ts';
import { serviceAccountGroups, serviceAccountUsername } from './serviceAccountUsers.ts';
import { readClaims, type ReadClaims } from './tokenClaims.ts';
import type { ClaimsCheck } from './tokenValidator.ts';

export type TokenVerdict =
  | { readonly type: 'notMine' }
  | { readonly type: 'error'; readonly message: string }
  | { readonly type: 'user'; readonly user: UserInfo; readonly audiences: readonly string[] };

function decodeSegment(seg: string): JsonObject | null {
  const bytes = base64UrlDecode(seg);
  const text = bytes === null ? null : utf8Decode(bytes);
  if (text === null) return null;
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) ? v : null;
  } catch {
    return null;
  }
}

/**
 * Decoded payloads of recently seen tokens: decoding is a pure function of the token, and a
 * token is usually presented many times (a bearer token on every request).
 */
const decoded = new Map<string, { header: JsonObject | null; payload: JsonObject | null }>();

function decodeToken(token: string, parts: readonly string[]): { header: JsonObject | null; payload: JsonObject | null } {
  const hit = decoded.get(token);
  if (hit !== undefined) return hit;
  const value = { header: decodeSegment(parts[0]!), payload: decodeSegment(parts[1]!) };
  if (decoded.size >= limits.decodedTokensCachedMax) decoded.delete(decoded.keys().next().value!);
  decoded.set(token, value);
  return value;
}

/** The unverified peek: our issuer, a compact JWS, an algorithm our keys use. */
function peek(token: string, config: IdentityConfig): { payload: JsonObject } | null {
  if (token.startsWith('{')) return null;
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const { header, payload } = decodeToken(token, parts);
  if (header === null || payload === null || payload['iss'] !== config.issuer) return null;
  const alg = header['alg'];
  if (typeof alg !== 'string' || !config.keys.some((k) => k.alg === alg)) return null;
  return { payload };
}

const seconds = (ms: number): number => ms / 1000;

function timeError(c: ReadClaims, nowMs: number): string | null {
  const now = seconds(nowMs);
  const leeway = tokenLifetimes.leewaySeconds;
  if (c.nbf !== undefined && now + leeway < c.nbf) return 'service account token is not valid yet';
  if (c.exp !== undefined && now - leeway > c.exp) return 'service account token has expired';
  if (c.iat !== undefined && now + leeway < c.iat) return 'service account token is issued in the future';
  return null;
}

/** Deleted longer ago than the leeway (a terminating object stays valid until then). */
function deletedPastLeeway(obj: KubeObject, nowMs: number): boolean {
  const ts = obj.metadata.deletionTimestamp;
  if (ts === undefined) return false;
  const at = parseInstant(ts);
  return at !== null && at < nowMs - tokenLifetimes.leewaySeconds * 1000;
}

const invalidated = 'service account token has been invalidated';

function boundObjectError(world: World, c: ReadClaims, namespace: string): string | null {
  const checks: [string, string, Partial<{ name: string; uid: string }> | undefined, string][] = [
    ['core/secrets', namespace, c.secret, 'secret UID (%c) does not match service account secret ref claim (%t)'],
    ['core/pods', namespace, c.pod, 'pod UID (%c) does not match service account pod ref claim (%t)'],
  ];
  // A node claim binds the token only when there is no pod (a pod-bound token just records its node).
  if (c.pod === undefined) checks.push(['core/nodes', '', c.node, 'node UID (%c) does not match service account node ref claim (%t)']);
  for (const [resource, ns, ref, mismatch] of checks) {
    if (ref === undefined) continue;
    const obj = getObject(world, resource, ns, ref.name ?? '');
    if (obj === undefined) return invalidated;
    if (obj.metadata.uid !== ref.uid) return mismatch.replace('%c', obj.metadata.uid ?? '').replace('%t', ref.uid ?? '');
    if (deletedPastLeeway(obj, world.now)) return invalidated;
  }
  return null;
}

const unexpectedPrivateClaim = 'service account token claims could not be validated due to unexpected private claim';

/**
 * The built-in validator (claims.go's Validate), in the real order: the times, the private claim,
 * the ServiceAccount (there, same uid, not deleted past the leeway), the bound object.
 */
export const validateClaims: ClaimsCheck = (c, world) => {
  const late = timeError(c, world.now);
  if (late !== null) return late;
  if (!c.hasPrivateClaim || c.namespace === undefined || c.serviceAccount?.name === undefined) return unexpectedPrivateClaim;
  const ns = c.namespace;
  const saName = c.serviceAccount.name;
  const sa = getObject(world, 'core/serviceaccounts', ns, saName);
  if (sa === undefined) return `serviceaccounts "${saName}" not found`;
  if (sa.metadata.uid !== c.serviceAccount.uid) return `service account UID (${sa.metadata.uid ?? ''}) does not match claim (${c.serviceAccount.uid ?? ''})`;
  if (deletedPastLeeway(sa, world.now)) return `service account ${ns}/${saName} has been deleted`;
  return boundObjectError(world, c, ns);
};

export function authenticateServiceAccountToken(
  token: string,
  targetAudiences: readonly string[],
  world: World,
  config: IdentityConfig,
  names: Names,
  crypto: CryptoFacts,
): TokenVerdict {
  const peeked = peek(token, config);
  if (peeked === null) return { type: 'notMine' };
  const signature = crypto.jwsSignature(token);
  if (signature === 'unknownKey') return { type: 'error', message: 'invalid signature, no keys found' };
  if (signature === 'invalid') return { type: 'error', message: 'go-jose/go-jose: error in cryptographic primitive' };
  const c = readClaims(peeked.payload, names.wellKnown);
  const tokenAudiences = c.aud ?? config.apiAudiences;
  const audiences = targetAudiences.filter((a) => tokenAudiences.includes(a));
  if (audiences.length === 0) {
    return { type: 'error', message: `token audiences ${goQuoteList(tokenAudiences, jsonQuote)} is invalid for the target audiences ${goQuoteList(targetAudiences, jsonQuote)}` };
  }
  const variant = config.serviceAccountTokenValidator;
  const refused = variant === undefined ? validateClaims(c, world) : variant(c, world, validateClaims);
  if (refused !== null) return { type: 'error', message: refused };
  // Only a variant accepts a token without a namespace or a name: there is no user to make of it.
  if (c.namespace === undefined || c.serviceAccount?.name === undefined) return { type: 'error', message: unexpectedPrivateClaim };
  // The user's uid is the claim's, as claims.go's ServiceAccountInfo (the built-in checked it is the ServiceAccount's).
  return { type: 'user', user: serviceAccountUser(c.namespace, c.serviceAccount.name, c.serviceAccount.uid ?? '', c, names), audiences };
}

function serviceAccountUser(namespace: string, name: string, uid: string, c: ReadClaims, names: Names): UserInfo {
  const key = (k: string): string => `authentication.${names.wellKnown}/${k}`;
  const extra = Object.create(null) as Record<string, string[]>;
  if (c.jti !== undefined) extra[key('credential-id')] = [`JTI=${c.jti}`];
  if (c.node?.name !== undefined) extra[key('node-name')] = [c.node.name];
  if (c.node?.uid !== undefined) extra[key('node-uid')] = [c.node.uid];
  if (c.pod?.name !== undefined) extra[key('pod-name')] = [c.pod.name];
  if (c.pod?.uid !== undefined) extra[key('pod-uid')] = [c.pod.uid];
  return { username: serviceAccountUsername(namespace, name), uid, groups: serviceAccountGroups(namespace), extra };
}
