/**
 * POST …/serviceaccounts/<name>/token (pkg/registry/core/serviceaccount/storage/token.go), in the
 * real order: body name and uid against the URL and the ServiceAccount, defaults, validation,
 * the bound object, the server's maximum lifetime, the one-year extension of 3607 s pod-bound
 * tokens, then the claims — signed through the crypto facts. The only change to the world is the
 * `jti` drawn from the seeded rng; like the real handler, dryRun still issues a token.
 */
import type { CryptoFacts } from '../../api/crypto.ts';
import type { KubeObject } from '../../api/meta.ts';
import { parseGroupVersion } from '../../api/meta.ts';
import type { Names } from '../../api/names.ts';
import { tokenLifetimes, type IdentityConfig } from '../../auth/identityConfig.ts';
import { encodeClaims, type TokenClaims } from '../../auth/tokenClaims.ts';
import { formatInstant } from '../../core/duration.ts';
import { fieldError } from '../../core/fieldErrors.ts';
import { isObject, objectField, type JsonObject } from '../../core/json.ts';
import { errors } from '../../core/status.ts';
import { newTokenId } from '../../store/ids.ts';
import { getObject } from '../../store/objects.ts';
import { fail, type OpResult } from '../../store/ops/context.ts';
import type { World } from '../../store/world.ts';

export interface TokenRequestInput {
  readonly world: World;
  readonly names: Names;
  readonly identity: IdentityConfig;
  readonly crypto: CryptoFacts;
  readonly namespace: string;
  /** The ServiceAccount named in the URL. */
  readonly name: string;
  readonly body: JsonObject;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

type Bound = { pod?: KubeObject; secret?: KubeObject; node?: { name: string; uid?: string } };

function boundObject(input: TokenRequestInput, ref: JsonObject): { ok: true; bound: Bound } | { ok: false; result: OpResult } {
  const { world, namespace, name } = input;
  const gv = parseGroupVersion(str(ref['apiVersion']));
  const kind = str(ref['kind']);
  const refName = str(ref['name']);
  const refUid = str(ref['uid']);
  let obj: KubeObject | undefined;
  let bound: Bound;
  const notFound = (resource: string): { ok: false; result: OpResult } => ({ ok: false, result: fail(errors.notFound({ group: '', resource }, refName)) });
  if (gv.group === '' && kind === 'Pod') {
    obj = getObject(world, 'core/pods', namespace, refName);
    if (obj === undefined) return notFound('pods');
    const spec = objectField(obj, 'spec');
    if (str(spec['serviceAccountName']) !== name) {
      return { ok: false, result: fail(errors.badRequest(`cannot bind token for serviceaccount "${name}" to pod running with different serviceaccount name.`)) };
    }
    const nodeName = str(spec['nodeName']);
    const node = nodeName === '' ? undefined : getObject(world, 'core/nodes', '', nodeName);
    bound = { pod: obj, ...(nodeName === '' ? {} : { node: node === undefined ? { name: nodeName } : { name: nodeName, uid: node.metadata.uid ?? '' } }) };
  } else if (gv.group === '' && kind === 'Secret') {
    obj = getObject(world, 'core/secrets', namespace, refName);
    if (obj === undefined) return notFound('secrets');
    bound = { secret: obj };
  } else if (gv.group === '' && kind === 'Node' && input.identity.nodeBinding) {
    obj = getObject(world, 'core/nodes', '', refName);
    if (obj === undefined) return notFound('nodes');
    bound = { node: { name: refName, uid: obj.metadata.uid ?? '' } };
  } else {
    return { ok: false, result: fail(errors.badRequest(`cannot bind token to object of type ${gv.group}/${gv.version}, Kind=${kind}`)) };
  }
  if (refUid !== '' && refUid !== obj.metadata.uid) {
    const why = `the UID in the bound object reference (${refUid}) does not match the UID in record. The object might have been deleted and then recreated`;
    return { ok: false, result: fail(errors.conflict({ group: gv.group, resource: kind }, refName, why)) };
  }
  return { ok: true, bound };
}

export function issueToken(input: TokenRequestInput): OpResult {
  const { world, names, identity, namespace, name } = input;
  const gk = { group: names.authenticationGroup, kind: 'TokenRequest' };
  const meta = objectField(input.body, 'metadata');
  const bodyName = str(meta['name']);
  if (bodyName !== '' && bodyName !== name) {
    return fail(errors.invalid(gk, name, [fieldError.invalid('metadata.name', bodyName, 'must match the service account name if specified')]));
  }
  const sa = getObject(world, 'core/serviceaccounts', namespace, name);
  if (sa === undefined) return fail(errors.notFound({ group: '', resource: 'serviceaccounts' }, name));
  const saUid = sa.metadata.uid ?? '';
  const bodyUid = str(meta['uid']);
  if (bodyUid !== '' && bodyUid !== saUid) {
    const why = `the UID in the token request (${bodyUid}) does not match the UID of the service account (${saUid})`;
    return fail(errors.conflict({ group: names.authenticationGroup, resource: 'TokenRequest' }, name, why));
  }
  const spec: JsonObject = { ...objectField(input.body, 'spec') };
  if (spec['expirationSeconds'] === undefined) spec['expirationSeconds'] = tokenLifetimes.defaultSeconds;
  const audiences = Array.isArray(spec['audiences']) && spec['audiences'].length > 0 ? (spec['audiences'] as string[]) : [...identity.apiAudiences];
  spec['audiences'] = audiences;
  const expiration = spec['expirationSeconds'] as number;
  if (expiration < tokenLifetimes.minimumSeconds) {
    return fail(errors.invalid(gk, '', [fieldError.invalid('spec.expirationSeconds', expiration, 'may not specify a duration less than 10 minutes')]));
  }
  if (expiration > tokenLifetimes.maximumSeconds) {
    return fail(errors.invalid(gk, '', [fieldError.invalid('spec.expirationSeconds', expiration, 'may not specify a duration larger than 2^32 seconds')]));
  }
  let bound: Bound = {};
  if (isObject(spec['boundObjectRef'])) {
    const b = boundObject(input, spec['boundObjectRef']);
    if (!b.ok) return b.result;
    bound = b.bound;
  }
  const warnings: string[] = [];
  let lifetime = expiration;
  const max = identity.maxTokenExpirationSeconds;
  if (max !== null && lifetime > max) {
    warnings.push(`requested expiration of ${lifetime} seconds shortened to ${max} seconds`);
    lifetime = max;
    spec['expirationSeconds'] = max;
  }
  const nowSeconds = Math.floor(world.now / 1000);
  const extend = identity.extendTokenExpiration && bound.pod !== undefined && lifetime === tokenLifetimes.extendableSeconds && audiences.every((a) => identity.apiAudiences.includes(a));
  const drawn = newTokenId(world);
  const claims: TokenClaims = {
    issuer: identity.issuer,
    audiences,
    namespace,
    serviceAccount: { name, uid: saUid },
    ...(bound.pod === undefined ? {} : { pod: { name: bound.pod.metadata.name ?? '', uid: bound.pod.metadata.uid ?? '' } }),
    ...(bound.secret === undefined ? {} : { secret: { name: bound.secret.metadata.name ?? '', uid: bound.secret.metadata.uid ?? '' } }),
    ...(bound.node === undefined ? {} : { node: bound.node }),
    issuedAt: nowSeconds,
    expiresAt: nowSeconds + (extend ? tokenLifetimes.extendedSeconds : lifetime),
    ...(extend ? { warnAfter: nowSeconds + lifetime } : {}),
    jti: drawn.jti,
  };
  const token = input.crypto.serviceAccountToken(encodeClaims(claims, names.wellKnown));
  const body = {
    kind: 'TokenRequest',
    apiVersion: `${names.authenticationGroup}/v1`,
    metadata: { name, namespace, uid: saUid, creationTimestamp: formatInstant(world.now) },
    spec,
    status: { token, expirationTimestamp: formatInstant((nowSeconds + lifetime) * 1000) },
  } as unknown as KubeObject;
  return { ok: true, world: drawn.world, code: 201, body, warnings };
}
