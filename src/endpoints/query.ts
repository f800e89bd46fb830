/**
 * Query parameters of the API, validated as kube-apiserver does: options errors are 422 on
 * `<X>Options.meta.k8s.io ""`, unparsable values 400. Unknown parameters are ignored.
 */
import { fieldError, fieldErrorString, type FieldError } from '../core/fieldErrors.ts';
import { errors, type ApiError } from '../core/status.ts';
import { limits } from '../core/limits.ts';

export type Params = URLSearchParams;
export type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions' | 'ListOptions';

export function optionsInvalid(kind: OptionsKind, errs: FieldError[]): ApiError {
  return errors.invalid({ group: 'meta.k8s.io', kind }, '', errs);
}

export function parseBool(v: string | null): boolean | null {
  if (v === null) return null;
  if (v === 'true' || v === '1' || v === 'True' || v === 'TRUE' || v === 't' || v === 'T') return true;
  if (v === 'false' || v === '0' || v === 'False' || v === 'FALSE' || v === 'f' || v === 'F' || v === '') return false;
  return null;
}

export function isPretty(params: Params, userAgent: string): boolean {
  const p = params.get('pretty');
  if (p !== null) return parseBool(p) === true;
  return /^(curl|Wget|Mozilla\/5\.0)/.test(userAgent);
}

export function dryRunOf(params: Params, kind: OptionsKind): { ok: true; dryRun: boolean } | { ok: false; error: ApiError } {
  const values = params.getAll('dryRun');
  if (values.length === 0) return { ok: true, dryRun: false };
  if (values.some((v) => v !== 'All')) return { ok: false, error: optionsInvalid(kind, [fieldError.notSupported('dryRun', values, ['All'])]) };
  return { ok: true, dryRun: true };
}

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

export function fieldValidationOf(params: Params, kind: OptionsKind): { ok: true; value: FieldValidation } | { ok: false; error: ApiError } {
  const v = params.get('fieldValidation');
  if (v === null || v === '' || v === 'Warn') return { ok: true, value: 'Warn' };
  if (v === 'Ignore' || v === 'Strict') return { ok: true, value: v };
  return { ok: false, error: optionsInvalid(kind, [fieldError.notSupported('fieldValidation', v, ['', 'Ignore', 'Strict', 'Warn'])]) };
}

/** The last user agent's manager: a client sends the same agent with every write. */
let lastAgent: string | undefined;
let lastManager = '';

/** The default field manager: the agent's product (before the first `/`), printable characters only. */
function managerOfAgent(userAgent: string): string {
  if (userAgent !== lastAgent) {
    const fromAgent = [...(userAgent.split('/')[0] ?? '')].filter((c) => c >= ' ' && c <= '~').join('').slice(0, limits.fieldManagerBytesMax);
    lastManager = fromAgent === '' ? 'unknown' : fromAgent;
    lastAgent = userAgent;
  }
  return lastManager;
}

/** The manager name: the parameter, else the User-Agent up to the first `/`, else `unknown`. */
export function fieldManagerOf(params: Params, userAgent: string, kind: OptionsKind, required: boolean): { ok: true; value: string } | { ok: false; error: ApiError } {
  const v = params.get('fieldManager');
  if (v === null || v === '') {
    if (required) return { ok: false, error: optionsInvalid(kind, [fieldError.required('fieldManager', 'is required for apply patch')]) };
    return { ok: true, value: managerOfAgent(userAgent) };
  }
  const errs: FieldError[] = [];
  if (new TextEncoder().encode(v).length > limits.fieldManagerBytesMax) errs.push(fieldError.tooLong('fieldManager', limits.fieldManagerBytesMax));
  else if ([...v].some((c) => c < ' ' || c > '~')) errs.push(fieldError.invalid('fieldManager', v, 'must be made of printable characters'));
  if (errs.length > 0) return { ok: false, error: optionsInvalid(kind, errs) };
  return { ok: true, value: v };
}

/**
 * TableOptions of a request answered as a Table, as apiserver's `optionsForTransform` /
 * `ValidateTableOptions`: `includeObject` is `Metadata` (also empty), `None` or `Object`, anything
 * else a 400.
 */
export function tableOptionsError(params: Params): ApiError | null {
  const v = params.get('includeObject');
  if (v === null || v === '' || v === 'Metadata' || v === 'None' || v === 'Object') return null;
  return errors.badRequest(`Unable to convert to Table as requested: ${fieldErrorString(fieldError.notSupported('includeObject', v, ['Metadata', 'None', 'Object']))}`);
}

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/**
 * An int64 query parameter (`limit`, `timeoutSeconds`), as apimachinery's query conversion reads
 * it with strconv.ParseInt: not clamped (kube-apiserver serves any `limit`: a page is bounded by
 * what is stored); present but empty, not decimal digits, or beyond int64 is a 400 whose message
 * is the bare strconv error (`strconv.ParseInt: parsing "x": invalid syntax`, `value out of range`).
 */
export function integerParam(params: Params, name: string): { ok: true; value: number | undefined } | { ok: false; error: ApiError } {
  const v = params.get(name);
  if (v === null) return { ok: true, value: undefined };
  if (!/^[+-]?\d+$/.test(v)) return { ok: false, error: errors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`) };
  const n = BigInt(v);
  if (n < int64Min || n > int64Max) return { ok: false, error: errors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(v)}: value out of range`) };
  return { ok: true, value: Number(n) };
}
