/**
 * Secret validation (ValidateSecret, ValidateSecretUpdate): config-key names, at most 1 MiB of
 * data, `type` immutable, and the `immutable` switch freezing the data once set.
 */
import type { KubeObject } from '../../api/meta.ts';
import { fieldError, type FieldError } from '../../core/fieldErrors.ts';
import { isObject } from '../../core/json.ts';
import { limits } from '../../core/limits.ts';
import { validateDataKeys, validateImmutableData } from '../common/dataKeys.ts';

export function validateSecret(obj: KubeObject): FieldError[] {
  const errs = validateDataKeys(obj['data'], 'data');
  const data = obj['data'];
  if (isObject(data)) {
    let total = 0;
    for (const k of Object.keys(data)) total += Math.floor((String(data[k]).length * 3) / 4);
    if (total > limits.secretDataBytesMax) errs.push(fieldError.tooLong('data', limits.secretDataBytesMax));
  }
  return errs;
}

export function validateSecretUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateSecret(obj);
  if (obj['type'] !== old['type']) errs.push(fieldError.immutable('type', obj['type']));
  return [...errs, ...validateImmutableData(obj, old, ['data'])];
}
