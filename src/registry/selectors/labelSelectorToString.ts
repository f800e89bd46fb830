/** Printing a label selector (Requirement.String, internalSelector.String). */
import { byKey, type LabelOperator, type LabelRequirement, type LabelSelector } from './labelSelector.ts';

const operatorText: Readonly<Record<LabelOperator, string>> = {
  '=': '=', '==': '==', '!=': '!=', in: ' in ', notin: ' notin ', gt: '>', lt: '<', exists: '', '!': '',
};

/** Requirement.String: one value as is, several sorted and comma-joined; sets in parentheses. */
function requirementToString(r: LabelRequirement): string {
  if (r.operator === 'exists') return r.key;
  if (r.operator === '!') return `!${r.key}`;
  const values = r.values.length === 1 ? r.values[0]! : [...r.values].sort().join(',');
  const set = r.operator === 'in' || r.operator === 'notin';
  return `${r.key}${operatorText[r.operator]}${set ? `(${values})` : values}`;
}

/** Canonical text: requirements by key, set values sorted; parses back to the same selector. */
export function labelSelectorToString(selector: LabelSelector): string {
  return byKey(selector.requirements).map(requirementToString).join(',');
}
