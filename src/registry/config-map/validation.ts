/**
 * ConfigMap validation (ValidateConfigMap, ValidateConfigMapUpdate): config-key names in `data`
 * and `binaryData`; once `immutable` is set, neither it nor the data may change.
 */
import type { KubeObject } from '../../api/meta.ts';
import type { FieldError } from '../../core/fieldErrors.ts';
import { validateDataKeys, validateImmutableData } from '../common/dataKeys.ts';

export function validateConfigMap(obj: KubeObject): FieldError[] {
  return [...validateDataKeys(obj['data'], 'data'), ...validateDataKeys(obj['binaryData'], 'binaryData')];
}

export function validateConfigMapUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  return [...validateConfigMap(obj), ...validateImmutableData(obj, old, ['data', 'binaryData'])];
}
