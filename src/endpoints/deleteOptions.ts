/**
 * DeleteOptions from the request body (JSON, kind/apiVersion optional) or, when there is no
 * body, from the query (`propagationPolicy`, `gracePeriodSeconds`, `orphanDependents`).
 */
import { fieldError } from '../core/fieldErrors.ts';
import { errors, type ApiError } from '../core/status.ts';
import { isObject } from '../core/json.ts';
import type { DeleteOptions, PropagationPolicy } from '../store/ops/delete.ts';
import { parseJson } from '../store/decode/parseJson.ts';
import { integerParam, optionsInvalid, parseBool } from './query.ts';

const policies = ['Foreground', 'Background', 'Orphan'];

type Parsed = { ok: true; options: DeleteOptions; dryRun: boolean } | { ok: false; error: ApiError };

export function parseDeleteOptions(params: URLSearchParams, body: string): Parsed {
  let raw: Record<string, unknown> = {};
  if (body.trim() !== '') {
    const parsed = parseJson(body);
    if (!parsed.ok) return { ok: false, error: errors.badRequest(parsed.message) };
    if (!isObject(parsed.value)) return { ok: false, error: errors.badRequest('decoded object cannot be converted to DeleteOptions') };
    const kind = parsed.value['kind'];
    if (kind !== undefined && kind !== 'DeleteOptions') return { ok: false, error: errors.badRequest('decoded object cannot be converted to DeleteOptions') };
    raw = parsed.value;
  } else {
    const grace = integerParam(params, 'gracePeriodSeconds');
    if (!grace.ok) return grace;
    if (grace.value !== undefined) raw['gracePeriodSeconds'] = grace.value;
    const policy = params.get('propagationPolicy');
    if (policy !== null && policy !== '') raw['propagationPolicy'] = policy;
    const orphan = params.get('orphanDependents');
    if (orphan !== null) raw['orphanDependents'] = parseBool(orphan) === true;
  }
  return validate(raw);
}

function validate(raw: Record<string, unknown>): Parsed {
  const options: { -readonly [K in keyof DeleteOptions]: DeleteOptions[K] } = {};
  const policy = raw['propagationPolicy'];
  if (policy !== undefined && policy !== null) {
    if (typeof policy !== 'string' || !policies.includes(policy)) {
      return { ok: false, error: optionsInvalid('DeleteOptions', [fieldError.notSupported('propagationPolicy', policy, [...policies, 'nil'])]) };
    }
    options.propagationPolicy = policy as PropagationPolicy;
  }
  if (typeof raw['orphanDependents'] === 'boolean') {
    if (options.propagationPolicy !== undefined) {
      return { ok: false, error: optionsInvalid('DeleteOptions', [fieldError.invalid('propagationPolicy', options.propagationPolicy, 'orphanDependents and deletionPropagation cannot be both set')]) };
    }
    options.orphanDependents = raw['orphanDependents'];
  }
  if (typeof raw['gracePeriodSeconds'] === 'number') options.gracePeriodSeconds = Math.max(0, raw['gracePeriodSeconds']);
  const pre = raw['preconditions'];
  if (isObject(pre)) {
    options.preconditions = {
      ...(typeof pre['uid'] === 'string' ? { uid: pre['uid'] } : {}),
      ...(typeof pre['resourceVersion'] === 'string' ? { resourceVersion: pre['resourceVersion'] } : {}),
    };
  }
  const dry = raw['dryRun'];
  if (dry !== undefined && !(Array.isArray(dry) && dry.every((d) => d === 'All'))) {
    return { ok: false, error: optionsInvalid('DeleteOptions', [fieldError.notSupported('dryRun', dry, ['All'])]) };
  }
  return { ok: true, options, dryRun: Array.isArray(dry) && dry.length > 0 };
}
