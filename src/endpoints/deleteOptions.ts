/**
 * DeleteOptions of a delete or deletecollection, read as kube-apiserver's handlers read them: from
 * the body when there is one (at least one byte; the query is then not looked at, `dryRun`
 * included), else from the query (`gracePeriodSeconds`, `orphanDependents`, `propagationPolicy`,
 * `dryRun`, and `uid`/`resourceVersion` as preconditions), then checked by ValidateDeleteOptions:
 * every cause in one 422 on `DeleteOptions.meta.k8s.io ""`.
 */
import { fieldError, type FieldError } from '../core/fieldErrors.ts';
import { errors, type ApiError } from '../core/status.ts';
import { isObject, setOwn, type JsonObject } from '../core/json.ts';
import type { DeleteOptions, PropagationPolicy } from '../store/ops/delete.ts';
import { decodeDeleteOptionsBody } from '../store/decode/deleteOptionsBody.ts';
import { optionsInvalid } from './query.ts';

const policies: readonly string[] = ['Foreground', 'Background', 'Orphan'];

type Parsed = { ok: true; options: DeleteOptions; dryRun: boolean } | { ok: false; error: ApiError };

export function parseDeleteOptions(params: URLSearchParams, body: string): Parsed {
  const raw = body === '' ? fromQuery(params) : decodeDeleteOptionsBody(body);
  return raw.ok ? validate(raw.value) : raw;
}

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/**
 * The query's options as apimachinery's url.Values conversion makes them: a parameter counts when
 * present, even empty; only an integer that strconv.ParseInt refuses fails it, and the 400 carries
 * that error alone, as the handler wraps it (`strconv.ParseInt: parsing "x": invalid syntax`).
 */
function fromQuery(params: URLSearchParams): { ok: true; value: JsonObject } | { ok: false; error: ApiError } {
  const out: JsonObject = {};
  const grace = params.get('gracePeriodSeconds');
  if (grace !== null) {
    if (!/^[+-]?\d+$/.test(grace)) return { ok: false, error: errors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(grace)}: invalid syntax`) };
    const n = BigInt(grace);
    if (n < int64Min || n > int64Max) return { ok: false, error: errors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(grace)}: value out of range`) };
    setOwn(out, 'gracePeriodSeconds', Number(n));
  }
  const orphan = params.get('orphanDependents');
  // Only "0" and "false" in any case are false; anything else, the empty value too, is true.
  if (orphan !== null) setOwn(out, 'orphanDependents', !(orphan === '0' || orphan.toLowerCase().replace(/\u017f/g, 's') === 'false'));
  const policy = params.get('propagationPolicy');
  if (policy !== null) setOwn(out, 'propagationPolicy', policy);
  const dryRun = params.getAll('dryRun');
  if (dryRun.length > 0) setOwn(out, 'dryRun', dryRun);
  const uid = params.get('uid') ?? '';
  const resourceVersion = params.get('resourceVersion') ?? '';
  if (uid !== '' || resourceVersion !== '') {
    const pre: JsonObject = {};
    if (uid !== '') setOwn(pre, 'uid', uid);
    if (resourceVersion !== '') setOwn(pre, 'resourceVersion', resourceVersion);
    setOwn(out, 'preconditions', pre);
  }
  return { ok: true, value: out };
}

/** `raw`: decoded DeleteOptions, every field of its Go type (an unset one absent). */
function validate(raw: JsonObject): Parsed {
  const policy = typeof raw['propagationPolicy'] === 'string' ? raw['propagationPolicy'] : undefined;
  const orphan = typeof raw['orphanDependents'] === 'boolean' ? raw['orphanDependents'] : undefined;
  const dryRun = Array.isArray(raw['dryRun']) ? raw['dryRun'] : [];
  const errs: FieldError[] = [];
  if (orphan !== undefined && policy !== undefined) errs.push(fieldError.invalid('propagationPolicy', policy, 'orphanDependents and deletionPropagation cannot be both set'));
  if (policy !== undefined && !policies.includes(policy)) errs.push(fieldError.notSupported('propagationPolicy', policy, [...policies, 'nil']));
  if (dryRun.some((d) => d !== 'All')) errs.push(fieldError.notSupported('dryRun', dryRun, ['All']));
  if (errs.length > 0) return { ok: false, error: optionsInvalid('DeleteOptions', errs) };
  const options: { -readonly [K in keyof DeleteOptions]: DeleteOptions[K] } = {};
  if (policy !== undefined) options.propagationPolicy = policy as PropagationPolicy;
  if (orphan !== undefined) options.orphanDependents = orphan;
  const grace = raw['gracePeriodSeconds'];
  // The registry's BeforeDelete: a negative grace period is one second.
  if (typeof grace === 'number') options.gracePeriodSeconds = grace < 0 ? 1 : grace;
  const pre = raw['preconditions'];
  if (isObject(pre)) {
    options.preconditions = {
      ...(typeof pre['uid'] === 'string' ? { uid: pre['uid'] } : {}),
      ...(typeof pre['resourceVersion'] === 'string' ? { resourceVersion: pre['resourceVersion'] } : {}),
    };
  }
  return { ok: true, options, dryRun: dryRun.length > 0 };
}
