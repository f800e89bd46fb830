/**
 * The claims of a service-account token (pkg/serviceaccount/claims.go), in the real layout:
 * public claims `aud` (always an array), `exp`, `iat`, `iss`, `jti`, `nbf`, `sub`, and the private
 * claim object named after the well-known domain (`platform.io`, or `kubernetes.io` in k8s.io
 * mode) with the namespace, the service account and the bound object. Keys are sorted, as Go
 * marshals them, so the same inputs always give the same bytes to sign.
 */
import { canonicalJson, getOwn, isObject, type JsonObject } from '../core/json.ts';

export interface ObjectRef {
  readonly name: string;
  readonly uid: string;
}

export interface TokenClaims {
  readonly issuer: string;
  readonly audiences: readonly string[];
  readonly namespace: string;
  readonly serviceAccount: ObjectRef;
  readonly pod?: ObjectRef;
  readonly secret?: ObjectRef;
  /** The node a pod-bound token's pod ran on (uid absent when the Node did not exist), or the bound Node. */
  readonly node?: { readonly name: string; readonly uid?: string };
  /** Unix seconds. */
  readonly issuedAt: number;
  readonly expiresAt: number;
  readonly warnAfter?: number;
  readonly jti: string;
}

const ref = (r: ObjectRef): JsonObject => ({ name: r.name, uid: r.uid });

export function encodeClaims(c: TokenClaims, privateClaim: string): string {
  const priv: JsonObject = { namespace: c.namespace, serviceaccount: ref(c.serviceAccount) };
  if (c.pod !== undefined) priv['pod'] = ref(c.pod);
  if (c.secret !== undefined) priv['secret'] = ref(c.secret);
  if (c.node !== undefined) priv['node'] = c.node.uid === undefined ? { name: c.node.name } : { name: c.node.name, uid: c.node.uid };
  if (c.warnAfter !== undefined) priv['warnafter'] = c.warnAfter;
  return canonicalJson({
    aud: [...c.audiences],
    exp: c.expiresAt,
    iat: c.issuedAt,
    iss: c.issuer,
    jti: c.jti,
    [privateClaim]: priv,
    nbf: c.issuedAt,
    sub: `system:serviceaccount:${c.namespace}:${c.serviceAccount.name}`,
  });
}

/** Claims read back from a token's payload; absent or ill-typed members are undefined. */
export interface ReadClaims {
  readonly iss?: string;
  readonly aud?: readonly string[];
  readonly exp?: number;
  readonly nbf?: number;
  readonly iat?: number;
  readonly jti?: string;
  readonly namespace?: string;
  readonly serviceAccount?: Partial<ObjectRef>;
  readonly pod?: Partial<ObjectRef>;
  readonly secret?: Partial<ObjectRef>;
  readonly node?: Partial<ObjectRef>;
  readonly hasPrivateClaim: boolean;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const partialRef = (v: unknown): Partial<ObjectRef> | undefined => {
  if (!isObject(v)) return undefined;
  const out: { name?: string; uid?: string } = {};
  const name = str(v['name']);
  const uid = str(v['uid']);
  if (name !== undefined) out.name = name;
  if (uid !== undefined) out.uid = uid;
  return out;
};

export function readClaims(payload: JsonObject, privateClaim: string): ReadClaims {
  const audRaw = payload['aud'];
  const aud = typeof audRaw === 'string' ? [audRaw] : Array.isArray(audRaw) ? audRaw.filter((a): a is string => typeof a === 'string') : undefined;
  const priv = getOwn(payload, privateClaim);
  const p = isObject(priv) ? priv : undefined;
  const out: Record<string, unknown> = {
    iss: str(payload['iss']),
    aud,
    exp: num(payload['exp']),
    nbf: num(payload['nbf']),
    iat: num(payload['iat']),
    jti: str(payload['jti']),
    hasPrivateClaim: p !== undefined,
  };
  if (p !== undefined) {
    out['namespace'] = str(p['namespace']);
    out['serviceAccount'] = partialRef(p['serviceaccount']);
    out['pod'] = partialRef(p['pod']);
    out['secret'] = partialRef(p['secret']);
    out['node'] = partialRef(p['node']);
  }
  return out as unknown as ReadClaims;
}
