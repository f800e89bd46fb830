/**
 * Condition rules (validation.go validateConditions and the update checks): per-condition
 * type/status, Approved and Denied exclusive, one condition per type; on update Approved, Denied
 * and Failed are never removed and, off the `/approval` path, Approved and Denied are never
 * added or changed. `Tolerate` flags skip a check when the stored object already breaks it.
 * Which conditions these are comes from the lifecycle table (lifecycle.ts): the conditions that
 * mark a move, the exclusive pairs of its mark rules, the decisions made through `approval`.
 */
import { fieldError, type FieldError } from '../../../core/fieldErrors.ts';
import { deepEqual } from '../../../core/json.ts';
import { countOf, type Condition } from './accessors.ts';
import { decisionConditions, exclusivePairs, markConditions, type CsrVia } from './lifecycle.ts';

const path = 'status.conditions';
const trueOnly = ['True'];
const anyStatus = ['False', 'True', 'Unknown'];
const markTypes: ReadonlySet<string> = new Set(markConditions);

/** The exclusive pair a condition of `type` completes, given the types before it, if any. */
function pairCompleted(type: string, before: ReadonlySet<string>): readonly [string, string] | undefined {
  return exclusivePairs.find(([a, b]) => (type === a && before.has(b)) || (type === b && before.has(a)));
}

export interface ConditionTolerance {
  /** The stored object already holds both conditions of an exclusive pair (Approved and Denied). */
  readonly bothApprovedAndDenied: boolean;
  readonly duplicateTypes: boolean;
  readonly emptyType: boolean;
}

export const strictConditions: ConditionTolerance = { bothApprovedAndDenied: false, duplicateTypes: false, emptyType: false };

export function conditionTolerance(old: readonly Condition[]): ConditionTolerance {
  const types = old.map((c) => c.type ?? '');
  return {
    bothApprovedAndDenied: exclusivePairs.some(([a, b]) => types.includes(a) && types.includes(b)),
    duplicateTypes: new Set(types).size !== types.length,
    emptyType: types.includes(''),
  };
}

export function validateConditions(conditions: readonly Condition[], tolerate: ConditionTolerance): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  conditions.forEach((c, i) => {
    const type = c.type ?? '';
    const status = c.status ?? '';
    if (!tolerate.emptyType && type === '') errs.push(fieldError.required(`${path}[${i}].type`));
    const allowed = markTypes.has(type) ? trueOnly : anyStatus;
    if (status === '') errs.push(fieldError.required(`${path}[${i}].status`));
    else if (!allowed.includes(status)) errs.push(fieldError.notSupported(`${path}[${i}].status`, status, allowed));
    // Reported at the list, naming the type that completes the pair.
    const pair = tolerate.bothApprovedAndDenied ? undefined : pairCompleted(type, seen);
    if (pair !== undefined) errs.push(fieldError.invalid(path, type, `${pair[0]} and ${pair[1]} conditions are mutually exclusive`));
    if (!tolerate.duplicateTypes && seen.has(type)) errs.push(fieldError.duplicate(`${path}[${i}].type`, type));
    seen.add(type);
  });
  return errs;
}

/**
 * Update-only rules for a write through `via`: marks are never removed; the decisions are added
 * or changed only through `approval`. Kubernetes follows the modify message
 * with a diff of the conditions; it is left out here (the path is unreachable through the API
 * because the `/status` strategy restores the stored Approved/Denied conditions first).
 */
export function validateConditionChanges(next: readonly Condition[], old: readonly Condition[], via: CsrVia | 'main'): FieldError[] {
  const errs: FieldError[] = [];
  for (const t of markConditions) {
    if (countOf(next, t) < countOf(old, t)) errs.push(fieldError.forbidden(path, `updates may not remove a condition of type ${JSON.stringify(t)}`));
  }
  if (via === 'approval') return errs;
  for (const t of decisionConditions) {
    const before = old.filter((c) => c.type === t);
    const after = next.filter((c) => c.type === t);
    if (after.length > before.length) errs.push(fieldError.forbidden(path, `updates may not add a condition of type ${JSON.stringify(t)}`));
    else if (after.length === before.length && !deepEqual(after, before)) errs.push(fieldError.forbidden(path, `updates may not modify a condition of type ${JSON.stringify(t)}`));
  }
  return errs;
}
