/**
 * Keys of Secret and ConfigMap data (IsConfigMapKey): alphanumerics, `-`, `_`, `.`, at most 253
 * characters, not `.` or `..` and not starting with `..`.
 */
import { fieldError, type FieldError } from '../../core/fieldErrors.ts';
import { deepEqual, getOwn, isObject } from '../../core/json.ts';

const configKey = /^[-._a-zA-Z0-9]+$/;

export function configKeyErrors(key: string): string[] {
  const errs: string[] = [];
  if (key.length > 253) errs.push('must be no more than 253 characters');
  if (!configKey.test(key)) errs.push("a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')");
  if (key === '.') errs.push("must not be '.'");
  else if (key === '..') errs.push("must not be '..'");
  else if (key.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

export function validateDataKeys(data: unknown, path: string): FieldError[] {
  if (!isObject(data)) return [];
  const errs: FieldError[] = [];
  for (const key of Object.keys(data).sort()) {
    for (const msg of configKeyErrors(key)) errs.push(fieldError.invalid(`${path}[${key}]`, key, msg));
  }
  return errs;
}

/** Once `immutable: true` is set, neither the switch nor the data fields may change. */
export function validateImmutableData(obj: Record<string, unknown>, old: Record<string, unknown>, dataFields: readonly string[]): FieldError[] {
  if (old['immutable'] !== true) return [];
  const detail = 'field is immutable when `immutable` is set';
  const errs: FieldError[] = [];
  if (obj['immutable'] !== true) errs.push(fieldError.forbidden('immutable', detail));
  for (const f of dataFields) if (!deepEqual(getOwn(obj, f), getOwn(old, f))) errs.push(fieldError.forbidden(f, detail));
  return errs;
}
