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

/** The values, a `null` item read as Go reads it into a string: the empty string. */
const valuesOf = (e: LabelSelectorRequirementObject): string[] => (e.values ?? []).map((v) => v ?? '');

/** The expressions, a `null` item read as Go reads it into a struct: every field zero. */
const expressionsOf = (sel: LabelSelectorObject): LabelSelectorRequirementObject[] => (sel.matchExpressions ?? []).map((e) => e ?? ({} as LabelSelectorRequirementObject));

const objectOperators: Readonly<Record<string, LabelOperator>> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

function validateExpression(e: LabelSelectorRequirementObject, at: string, opts: LabelSelectorValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const values = valuesOf(e);
  // An absent key or operator is Go's zero value, the empty string (a client may leave either out).
  const key = e.key ?? '';
  const operator = e.operator ?? '';
  if (operator === 'In' || operator === 'NotIn') {
    if (values.length === 0) errs.push(fieldError.required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
  } else if (operator === 'Exists' || operator === 'DoesNotExist') {
    if (values.length > 0) errs.push(fieldError.forbidden(`${at}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
  } else errs.push(fieldError.invalid(`${at}.operator`, operator, 'not a valid selector operator'));
  for (const m of isQualifiedName(key)) errs.push(fieldError.invalid(`${at}.key`, key, m));
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
  expressionsOf(sel).forEach((e, i) => errs.push(...validateExpression(e, `${path}.matchExpressions[${i}]`, opts)));
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
  for (const e of expressionsOf(sel)) {
    const operator = hasOwn(objectOperators, e.operator) ? objectOperators[e.operator] : undefined;
    if (operator !== undefined) reqs.push({ key: e.key, operator, values: valuesOf(e) });
  }
  return { ok: true, selector: { nothing: false, requirements: byKey(reqs) } };
}
