/**
 * One label requirement as labels.NewRequirement builds it: the key must be a qualified name,
 * the values fit the operator and are valid label values. Errors are FieldErrors with Go's paths.
 */
import { fieldError, type FieldError } from '../../core/fieldErrors.ts';
import { isQualifiedName, isValidLabelValue } from '../validation/names.ts';
import { parseInt64, type LabelOperator, type LabelRequirement } from './labelSelector.ts';

export type Checked<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

/**
 * NewRequirement's checks, with its paths: `root` is the field path of the selector (the string
 * parser has none, so its values render as `values[0][key]`).
 */
export function newLabelRequirement(key: string, operator: LabelOperator, values: readonly string[], root = ''): Checked<LabelRequirement> {
  const at = (child: string): string => (root === '' ? child : `${root}.${child}`);
  const errs: FieldError[] = [];
  const keyMsgs = isQualifiedName(key);
  if (keyMsgs.length > 0) errs.push(fieldError.invalid(at('key'), key, keyMsgs.join('; ')));
  const valuesPath = at('values');
  // Go marshals the empty (nil) slice of these messages as null.
  const shown = values.length === 0 ? null : values;
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0) errs.push(fieldError.invalid(valuesPath, shown, "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1) errs.push(fieldError.invalid(valuesPath, shown, 'exact-match compatibility requires one single value'));
      break;
    case 'exists':
    case '!':
      if (values.length !== 0) errs.push(fieldError.invalid(valuesPath, shown, 'values set must be empty for exists and does not exist'));
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1) errs.push(fieldError.invalid(valuesPath, shown, "for 'Gt', 'Lt' operators, exactly one value is required"));
      values.forEach((v, i) => {
        if (parseInt64(v) === undefined) errs.push(fieldError.invalid(`${valuesPath}[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"));
      });
      break;
  }
  values.forEach((v, i) => {
    const msgs = isValidLabelValue(v);
    if (msgs.length > 0) errs.push(fieldError.invalid(`${valuesPath}[${i}][${key}]`, v, msgs.join('; ')));
  });
  return errs.length > 0 ? { ok: false, errors: errs } : { ok: true, value: { key, operator, values: [...values] } };
}
