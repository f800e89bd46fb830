/**
 * metav1.LabelSelector objects (`spec.selector`): validation (ValidateLabelSelector) with
 * FieldErrors under the caller's path, and conversion to a selector (LabelSelectorAsSelector).
 */
import { fieldError, type FieldError } from '../../core/fieldErrors.ts';
import { hasOwn } from '../../core/json.ts';
import { validateLabels } from '../validation/objectMeta.ts';
import { isQualifiedName, isValidLabelValue } from '../validation/names.ts';
import { byKey, nothingSelector, type LabelOperator, type LabelRequirement, type LabelSelector } from './labelSelector.ts';

export interface LabelSelectorRequirementObject {
  readonly key: string;
  readonly operator: string;
  readonly values?: readonly string[];
}

export interface LabelSelectorObject {
  readonly matchLabels?: Readonly<Record<string, string>>;
  readonly matchExpressions?: readonly LabelSelectorRequirementObject[];
}

export interface LabelSelectorValidationOptions {
  /** AllowInvalidLabelValueInSelector: for updates of objects already stored with bad values. */
  readonly allowInvalidLabelValue?: boolean;
}

const objectOperators: Readonly<Record<string, LabelOperator>> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

function validateExpression(e: LabelSelectorRequirementObject, at: string, opts: LabelSelectorValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const values = e.values ?? [];
  if (e.operator === 'In' || e.operator === 'NotIn') {
    if (values.length === 0) errs.push(fieldError.required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
  } else if (e.operator === 'Exists' || e.operator === 'DoesNotExist') {
    if (values.length > 0) errs.push(fieldError.forbidden(`${at}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
  } else errs.push(fieldError.invalid(`${at}.operator`, e.operator, 'not a valid selector operator'));
  for (const m of isQualifiedName(e.key)) errs.push(fieldError.invalid(`${at}.key`, e.key, m));
  if (opts.allowInvalidLabelValue !== true) {
    values.forEach((v, i) => {
      for (const m of isValidLabelValue(v)) errs.push(fieldError.invalid(`${at}.values[${i}]`, v, m));
    });
  }
  return errs;
}

/** ValidateLabelSelector: FieldErrors under `path` (e.g. `spec.selector`). */
export function validateLabelSelectorObject(sel: LabelSelectorObject | null | undefined, path: string, opts: LabelSelectorValidationOptions = {}): FieldError[] {
  if (sel === null || sel === undefined) return [];
  const errs = validateLabels(sel.matchLabels, `${path}.matchLabels`);
  (sel.matchExpressions ?? []).forEach((e, i) => errs.push(...validateExpression(e, `${path}.matchExpressions[${i}]`, opts)));
  return errs;
}

/**
 * Validates (without options: conversion in Go re-checks every value) then converts
 * (LabelSelectorAsSelector): null/undefined selects nothing, `{}` selects everything.
 * matchLabels become `=` requirements; expression values keep their given order.
 */
export function labelSelectorFromObject(
  sel: LabelSelectorObject | null | undefined,
  path: string,
): { ok: true; selector: LabelSelector } | { ok: false; errors: FieldError[] } {
  if (sel === null || sel === undefined) return { ok: true, selector: nothingSelector };
  const errs = validateLabelSelectorObject(sel, path);
  if (errs.length > 0) return { ok: false, errors: errs };
  const reqs: LabelRequirement[] = [];
  const matchLabels = sel.matchLabels ?? {};
  for (const k of Object.keys(matchLabels).sort()) reqs.push({ key: k, operator: '=', values: [matchLabels[k] ?? ''] });
  for (const e of sel.matchExpressions ?? []) {
    const operator = hasOwn(objectOperators, e.operator) ? objectOperators[e.operator] : undefined;
    if (operator !== undefined) reqs.push({ key: e.key, operator, values: [...(e.values ?? [])] });
  }
  return { ok: true, selector: { nothing: false, requirements: byKey(reqs) } };
}
