/**
 * The authenticator chain of kube-apiserver (pkg/kubeapiserver/authenticator/config.go), pure:
 * front-proxy headers (only behind a client certificate of the request-header CA), the x509
 * client certificate, then the bearer token (static users, service-account JWTs). The first
 * success wins; the authenticated-group adder runs on it. With anonymous auth on, a request that
 * presented no usable credential becomes `system:anonymous`, but a bad credential still fails.
 */
import type { CertificateChainFact, CryptoFacts } from '../api/crypto.ts';
import { headerValues, headersWithPrefix, header, type HeaderMap } from '../api/headers.ts';
import type { Names } from '../api/names.ts';
import { extraMap, type UserInfo } from '../api/userInfo.ts';
import type { World } from '../store/world.ts';
import { bearerToken } from './bearer.ts';
import type { IdentityConfig, RequestHeaderConfig } from './identityConfig.ts';
import { authenticateServiceAccountToken } from './serviceAccountToken.ts';
import { anonymousUser, withAuthenticatedGroup } from './serviceAccountUsers.ts';

export interface Credentials {
  readonly headers: HeaderMap;
  /** PEM chain of a client certificate (mTLS, or `sim.request({ clientCertificate })`). */
  readonly clientCertificate?: string;
}

export type Authentication =
  | { readonly type: 'user'; readonly user: UserInfo; readonly via: 'requestHeader' | 'x509' | 'token' | 'anonymous'; readonly warnings: readonly string[] }
  | { readonly type: 'unauthorized'; readonly warnings: readonly string[] };

export interface AuthContext {
  readonly world: World;
  readonly config: IdentityConfig;
  readonly names: Names;
  readonly crypto: CryptoFacts;
}

export type TokenAuthentication =
  | { readonly ok: true; readonly user: UserInfo; readonly audiences: readonly string[] }
  | { readonly ok: false; readonly error: string };

/** Kubernetes' aggregate error text: one message alone, several as `[a, b]`, duplicates removed. */
function aggregate(messages: readonly string[]): string {
  const distinct = [...new Set(messages)];
  return distinct.length === 1 ? distinct[0]! : `[${distinct.join(', ')}]`;
}

/**
 * A bearer token through the token authenticators, for `targetAudiences` (the API audiences for
 * ordinary requests; a TokenReview's spec.audiences). The loopback authenticator that sits first
 * in real servers rejects every other token with `invalid bearer token`, hence the error shape.
 */
export function authenticateToken(token: string, targetAudiences: readonly string[], ctx: AuthContext): TokenAuthentication {
  const { config } = ctx;
  const apiOverlap = targetAudiences.filter((a) => config.apiAudiences.includes(a));
  // Static tokens are audience-agnostic: they answer only for targets that include an API audience.
  const staticUser = apiOverlap.length === 0 ? undefined : [...config.staticUsers].reverse().find((u) => u.token === token);
  if (staticUser !== undefined) {
    const user: UserInfo = { username: staticUser.user, ...(staticUser.uid === undefined || staticUser.uid === '' ? {} : { uid: staticUser.uid }), groups: [...(staticUser.groups ?? [])] };
    return { ok: true, user: withAuthenticatedGroup(user), audiences: apiOverlap };
  }
  const verdict = authenticateServiceAccountToken(token, targetAudiences, ctx.world, config, ctx.names, ctx.crypto);
  if (verdict.type === 'user') return { ok: true, user: withAuthenticatedGroup(verdict.user), audiences: verdict.audiences };
  const errors = ['invalid bearer token', verdict.type === 'error' ? verdict.message : 'invalid bearer token'];
  return { ok: false, error: aggregate(errors) };
}

/** A certificate's validity at virtual time. */
function currentlyValid(fact: CertificateChainFact & { ok: true }, now: number): boolean {
  return fact.notBefore <= now && now <= fact.notAfter;
}

function percentDecoded(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/** The user named by front-proxy headers, or null when no username header is set. */
function headerUser(headers: HeaderMap, rh: RequestHeaderConfig): UserInfo | null {
  const first = (names: readonly string[]): string => {
    for (const n of names) {
      const v = headerValues(headers, n.toLowerCase()).find((x) => x !== '');
      if (v !== undefined) return v;
    }
    return '';
  };
  const username = first(rh.usernameHeaders);
  if (username === '') return null;
  const uid = first(rh.uidHeaders);
  const groups = rh.groupHeaders.flatMap((n) => headerValues(headers, n.toLowerCase())).filter((g) => g !== '');
  const extra = extraMap(
    rh.extraHeaderPrefixes.flatMap((prefix) => headersWithPrefix(headers, prefix).map((name) => [percentDecoded(name.slice(prefix.length).toLowerCase()), headerValues(headers, name)] as const)),
  );
  return { username, ...(uid === '' ? {} : { uid }), groups, ...(Object.keys(extra).length === 0 ? {} : { extra }) };
}

export function authenticateRequest(creds: Credentials, ctx: AuthContext): Authentication {
  const { config } = ctx;
  const errors: string[] = [];
  const cert = creds.clientCertificate === undefined || creds.clientCertificate === '' ? null : ctx.crypto.certificateChain(creds.clientCertificate);
  if (cert !== null && cert.ok && currentlyValid(cert, ctx.world.now)) {
    const rh = config.requestHeader;
    if (rh !== null && cert.trustedBy.includes('requestHeader') && (rh.allowedNames.length === 0 || rh.allowedNames.includes(cert.subject.commonName))) {
      const user = headerUser(creds.headers, rh);
      if (user !== null) return { type: 'user', user: withAuthenticatedGroup(user), via: 'requestHeader', warnings: [] };
    }
    if (cert.trustedBy.includes('client') && cert.clientAuth && cert.subject.commonName !== '') {
      const extra = { [`authentication.${ctx.names.wellKnown}/credential-id`]: [`X509SHA256=${cert.sha256}`] };
      const user: UserInfo = { username: cert.subject.commonName, groups: [...cert.subject.organizations], extra };
      return { type: 'user', user: withAuthenticatedGroup(user), via: 'x509', warnings: [] };
    }
    if (!cert.trustedBy.includes('client')) errors.push('x509: certificate signed by unknown authority');
  } else if (cert !== null) errors.push(cert.ok ? 'x509: certificate has expired or is not yet valid' : cert.message);
  const bearer = bearerToken(header(creds.headers, 'authorization'));
  const warnings = 'warning' in bearer ? [bearer.warning] : [];
  if (bearer.type === 'token') {
    const r = authenticateToken(bearer.token, config.apiAudiences, ctx);
    if (r.ok) return { type: 'user', user: r.user, via: 'token', warnings };
    errors.push(r.error);
  }
  if (errors.length > 0 || !config.anonymous) return { type: 'unauthorized', warnings };
  return { type: 'user', user: anonymousUser, via: 'anonymous', warnings };
}

