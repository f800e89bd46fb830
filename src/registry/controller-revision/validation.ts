/**
 * ControllerRevision validation (pkg/apis/apps/validation ValidateControllerRevision and
 * ValidateControllerRevisionUpdate): data is mandatory and immutable, revision is not negative.
 */
import type { KubeObject } from '../../api/meta.ts';
import { fieldError, type FieldError } from '../../core/fieldErrors.ts';
import { deepEqual } from '../../core/json.ts';

export function validateControllerRevision(o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (o['data'] === undefined || o['data'] === null) errs.push(fieldError.required('data', 'data is mandatory'));
  const r = o['revision'];
  if (typeof r === 'number' && r < 0) errs.push(fieldError.invalid('revision', r, 'must be greater than or equal to 0'));
  return errs;
}

export function validateControllerRevisionUpdate(o: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateControllerRevision(o);
  if (!deepEqual(o['data'], old['data'])) errs.push(fieldError.invalid('data', o['data'] ?? null, 'field is immutable'));
  return errs;
}
