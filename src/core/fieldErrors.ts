/**
 * Field errors: the data form of a validation failure, rendered exactly as apimachinery's
 * `field.Error` (pkg/util/validation/field/errors.go). Validation returns these and never throws;
 * the store turns them into a 422 `Invalid` Status (status.ts).
 */
import { goBadValue, jsonQuote } from './goFormat.ts';

export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueDuplicate'
  | 'FieldValueNotFound'
  | 'InternalError';

export interface FieldError {
  readonly type: FieldErrorType;
  /** Path such as `metadata.labels` or `spec.template.spec.containers[0].image`. */
  readonly field: string;
  /** The offending value; omitted where the real message does not show one. */
  readonly badValue?: unknown;
  readonly detail: string;
}

const phrases: Record<FieldErrorType, string> = {
  FieldValueRequired: 'Required value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueNotFound: 'Not found',
  InternalError: 'Internal error',
};

/** Types whose rendering shows the bad value. */
const showsValue = new Set<FieldErrorType>([
  'FieldValueInvalid',
  'FieldValueNotSupported',
  'FieldValueDuplicate',
  'FieldValueNotFound',
  'FieldValueTooMany',
]);

/** The message body without the path: `Invalid value: "x": detail`. */
export function fieldErrorBody(e: FieldError): string {
  let s = phrases[e.type];
  if (showsValue.has(e.type) && 'badValue' in e) s += `: ${goBadValue(e.badValue)}`;
  if (e.detail !== '') s += `: ${e.detail}`;
  return s;
}

/** The full rendering: `metadata.name: Invalid value: "x": detail`. */
export function fieldErrorString(e: FieldError): string {
  return e.field === '' ? fieldErrorBody(e) : `${e.field}: ${fieldErrorBody(e)}`;
}

/** Aggregate rendering: one error bare, several as `[e1, e2]`, duplicates removed. */
export function aggregateFieldErrors(errors: readonly FieldError[]): string {
  const seen: string[] = [];
  for (const e of errors) {
    const s = fieldErrorString(e);
    if (!seen.includes(s)) seen.push(s);
  }
  return seen.length === 1 ? seen[0]! : `[${seen.join(', ')}]`;
}

export const fieldError = {
  required: (field: string, detail = ''): FieldError => ({ type: 'FieldValueRequired', field, detail }),
  forbidden: (field: string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field, detail }),
  tooLong: (field: string, max: number, unit = 'bytes'): FieldError => ({
    type: 'FieldValueTooLong',
    field,
    detail: `may not be more than ${max} ${unit}`,
  }),
  tooMany: (field: string, actual: number, max: number): FieldError => ({
    type: 'FieldValueTooMany',
    field,
    badValue: actual,
    detail: `must have at most ${max} items`,
  }),
  invalid: (field: string, badValue: unknown, detail: string): FieldError => ({
    type: 'FieldValueInvalid',
    field,
    badValue,
    detail,
  }),
  notSupported: (field: string, badValue: unknown, supported: readonly string[]): FieldError => ({
    type: 'FieldValueNotSupported',
    field,
    badValue,
    detail: supported.length === 0 ? '' : `supported values: ${supported.map(jsonQuote).join(', ')}`,
  }),
  duplicate: (field: string, badValue: unknown): FieldError => ({ type: 'FieldValueDuplicate', field, badValue, detail: '' }),
  notFound: (field: string, badValue: unknown): FieldError => ({ type: 'FieldValueNotFound', field, badValue, detail: '' }),
  immutable: (field: string, badValue: unknown): FieldError => ({
    type: 'FieldValueInvalid',
    field,
    badValue,
    detail: 'field is immutable',
  }),
};
