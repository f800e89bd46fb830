/**
 * How the escalation 403 lists what the writer lacks (pkg/registry/rbac/validation
 * policy_compact.go and CompactString of pkg/apis/rbac/v1/evaluation_helpers.go): atoms of one
 * group and resource (and at most one name) are merged, verbs in order of appearance; each rule
 * prints as `{APIGroups:["…"], Resources:["…"], Verbs:["…"]}`; the lines are a sorted set.
 */
import { compareStrings } from '../../core/compareStrings.ts';
import { goQuoteList } from '../../core/goFormat.ts';
import type { PolicyRule } from './covers.ts';

/** isSimpleResourceRule: one group, one resource, at most one name, no URLs: its merge key. */
function simpleKey(rule: PolicyRule): string | null {
  if (rule.resourceNames.length > 1 || rule.nonResourceURLs.length > 0) return null;
  if (rule.apiGroups.length !== 1 || rule.resources.length !== 1) return null;
  return JSON.stringify([rule.apiGroups[0], rule.resources[0], rule.resourceNames.length === 0 ? null : rule.resourceNames[0]]);
}

/** CompactRules: simple rules merged by key (their verbs concatenated), the others as they are. */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const merged = new Map<string, PolicyRule>();
  const others: PolicyRule[] = [];
  for (const rule of rules) {
    const key = simpleKey(rule);
    if (key === null) {
      others.push(rule);
      continue;
    }
    const seen = merged.get(key);
    merged.set(key, seen === undefined ? rule : { ...seen, verbs: [...seen.verbs, ...rule.verbs] });
  }
  return [...others, ...merged.values()];
}

/** CompactString: the non-empty lists as `Name:%q`, in this fixed order. */
export function compactString(rule: PolicyRule): string {
  const parts: string[] = [];
  if (rule.apiGroups.length > 0) parts.push(`APIGroups:${goQuoteList(rule.apiGroups)}`);
  if (rule.resources.length > 0) parts.push(`Resources:${goQuoteList(rule.resources)}`);
  if (rule.nonResourceURLs.length > 0) parts.push(`NonResourceURLs:${goQuoteList(rule.nonResourceURLs)}`);
  if (rule.resourceNames.length > 0) parts.push(`ResourceNames:${goQuoteList(rule.resourceNames)}`);
  if (rule.verbs.length > 0) parts.push(`Verbs:${goQuoteList(rule.verbs)}`);
  return `{${parts.join(', ')}}`;
}

/** The missing atoms as the message's lines: compacted, printed, deduplicated and sorted (sets.String.List). */
export function describeMissing(missing: readonly PolicyRule[]): string {
  return [...new Set(compactRules(missing).map(compactString))].sort(compareStrings).join('\n');
}
