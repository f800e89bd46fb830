/**
 * Condition rules (validation.go validateConditions and the update checks): per-condition
 * type/status, Approved and Denied exclusive, one condition per type; on update Approved, Denied
 * and Failed are never removed and, off the `/approval` path, Approved and Denied are never
 * added or changed. `Tolerate` flags skip a check when the stored object already breaks it.
 */
import { fieldError, type FieldError } from '../../../core/fieldErrors.ts';
import { deepEqual } from '../../../core/json.ts';
import { approved, countOf, denied, failed, type Condition } from './fields.ts';

const path = 'status.conditions';
const trueOnly = ['True'];
const anyStatus = ['False', 'True', 'Unknown'];
const decisionTypes = new Set([approved, denied, failed]);

export interface ConditionTolerance {
  readonly bothApprovedAndDenied: boolean;
  readonly duplicateTypes: boolean;
  readonly emptyType: boolean;
}

export const strictConditions: ConditionTolerance = { bothApprovedAndDenied: false, duplicateTypes: false, emptyType: false };

export function conditionTolerance(old: readonly Condition[]): ConditionTolerance {
  const types = old.map((c) => c.type ?? '');
  return {
    bothApprovedAndDenied: types.includes(approved) && types.includes(denied),
    duplicateTypes: new Set(types).size !== types.length,
    emptyType: types.includes(''),
  };
}

export function validateConditions(conditions: readonly Condition[], tolerate: ConditionTolerance): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let hasApproved = false;
  let hasDenied = false;
  conditions.forEach((c, i) => {
    const type = c.type ?? '';
    const status = c.status ?? '';
    if (!tolerate.emptyType && type === '') errs.push(fieldError.required(`${path}[${i}].type`));
    const allowed = decisionTypes.has(type) ? trueOnly : anyStatus;
    if (status === '') errs.push(fieldError.required(`${path}[${i}].status`));
    else if (!allowed.includes(status)) errs.push(fieldError.notSupported(`${path}[${i}].status`, status, allowed));
    if (!tolerate.bothApprovedAndDenied) {
      // Reported once, at the list, naming the type seen second.
      if (type === approved) {
        hasApproved = true;
        if (hasDenied) errs.push(fieldError.invalid(path, type, 'Approved and Denied conditions are mutually exclusive'));
      } else if (type === denied) {
        hasDenied = true;
        if (hasApproved) errs.push(fieldError.invalid(path, type, 'Approved and Denied conditions are mutually exclusive'));
      }
    }
    if (!tolerate.duplicateTypes && seen.has(type)) errs.push(fieldError.duplicate(`${path}[${i}].type`, type));
    seen.add(type);
  });
  return errs;
}

/**
 * Update-only rules. `mayDecide` is true on `/approval`. Kubernetes follows the modify message
 * with a diff of the conditions; it is left out here (the path is unreachable through the API
 * because the `/status` strategy restores the stored Approved/Denied conditions first).
 */
export function validateConditionChanges(next: readonly Condition[], old: readonly Condition[], mayDecide: boolean): FieldError[] {
  const errs: FieldError[] = [];
  for (const t of [approved, denied, failed]) {
    if (countOf(next, t) < countOf(old, t)) errs.push(fieldError.forbidden(path, `updates may not remove a condition of type ${JSON.stringify(t)}`));
  }
  if (mayDecide) return errs;
  for (const t of [approved, denied]) {
    const before = old.filter((c) => c.type === t);
    const after = next.filter((c) => c.type === t);
    if (after.length > before.length) errs.push(fieldError.forbidden(path, `updates may not add a condition of type ${JSON.stringify(t)}`));
    else if (after.length === before.length && !deepEqual(after, before)) errs.push(fieldError.forbidden(path, `updates may not modify a condition of type ${JSON.stringify(t)}`));
  }
  return errs;
}
