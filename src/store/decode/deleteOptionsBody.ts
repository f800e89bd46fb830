/**
 * A DeleteOptions request body, decoded as kube-apiserver's delete handlers do: the JSON
 * serializer reads apiVersion and kind first (versionKind.ts), then decodes the body into
 * metav1.DeleteOptions — not strictly (unknown fields are dropped), with Go's type errors
 * (`json: cannot unmarshal number 1.5 into Go struct field DeleteOptions.gracePeriodSeconds of
 * type int64`). Every failure is a 400 BadRequest whose message is the decoder's text, as from
 * 1.35 on (1.34 answers a reason-less 500: docs/divergences.md).
 */
import { s, type Schema } from '../../api/schema.ts';
import type { JsonObject } from '../../core/json.ts';
import { errors, type ApiError } from '../../core/status.ts';
import { parseJson } from './parseJson.ts';
import { decodeTyped } from './typedDecode.ts';
import { versionKindError } from './versionKind.ts';

const named = (goType: string): Schema => ({ type: 'string', goType });

/** metav1.DeleteOptions as its Go struct declares it (the TypeMeta fields inlined). */
const deleteOptionsSchema = s.struct('DeleteOptions', {
  kind: s.string(),
  apiVersion: s.string(),
  gracePeriodSeconds: s.int64(),
  preconditions: s.struct('Preconditions', { uid: named('types.UID'), resourceVersion: s.string() }),
  orphanDependents: s.boolean(),
  propagationPolicy: named('v1.DeletionPropagation'),
  dryRun: s.atomicList(s.string()),
  ignoreStoreReadErrorWithClusterBreakingPotential: s.boolean(),
});

/**
 * math.MaxInt64 (9223372036854775807, what clients send for "as long as possible") reads as the
 * double 2^63, which typed decoding refuses as beyond int64. DeleteOptions are never stored: it is
 * taken as the largest double below 2^63, a grace period that ends at the same instant.
 */
const readAsMaxInt64 = 2 ** 63;
const largestBelowMaxInt64 = 2 ** 63 - 1024;

export type DecodedDeleteOptions = { ok: true; value: JsonObject } | { ok: false; error: ApiError };

const refused = (message: string): DecodedDeleteOptions => ({ ok: false, error: errors.badRequest(message) });

/** `text`: a body of at least one byte (an empty body means the query holds the options). */
export function decodeDeleteOptionsBody(text: string): DecodedDeleteOptions {
  const parsed = parseJson(text);
  if (!parsed.ok) return refused(`couldn't get version/kind; json parse error: ${parsed.message}`);
  const unreadable = versionKindError(parsed.value);
  if (unreadable !== null) return refused(unreadable);
  // `null` reads as no apiVersion and no kind, which default to DeleteOptions: no options.
  if (parsed.value === null) return { ok: true, value: {} };
  const body = parsed.value as JsonObject;
  const kind = body['kind'];
  if (typeof kind === 'string' && kind !== '' && kind !== 'DeleteOptions') return refused('decoded object cannot be converted to DeleteOptions');
  const grace = body['gracePeriodSeconds'];
  const held = grace === readAsMaxInt64 ? { ...body, gracePeriodSeconds: largestBelowMaxInt64 } : body;
  const decoded = decodeTyped(held, deleteOptionsSchema, { kind: 'DeleteOptions', version: 'v1' });
  if (!decoded.ok) return refused(decoded.message);
  return { ok: true, value: decoded.value as JsonObject };
}
