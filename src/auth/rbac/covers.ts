/**
 * Rule coverage of the escalation check (k8s.io/component-helpers/auth/rbac/validation,
 * policy_comparator.go): every rule a write grants is broken into atoms of one API group,
 * resource, verb and resource name (or one non-resource URL and verb), and each atom must be
 * covered whole by one rule the writer holds. What stays uncovered is what the 403 lists.
 */
import { isObject } from '../../core/json.ts';

/** A PolicyRule with every list present (Go's nil and empty slices read alike). */
export interface PolicyRule {
  readonly verbs: readonly string[];
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly resourceNames: readonly string[];
  readonly nonResourceURLs: readonly string[];
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export function policyRule(rule: unknown): PolicyRule {
  const r = isObject(rule) ? rule : {};
  return {
    verbs: strings(r['verbs']),
    apiGroups: strings(r['apiGroups']),
    resources: strings(r['resources']),
    resourceNames: strings(r['resourceNames']),
    nonResourceURLs: strings(r['nonResourceURLs']),
  };
}

const atom = (parts: Partial<PolicyRule>): PolicyRule => ({ verbs: [], apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: [], ...parts });

/** BreakdownRule: group × resource × verb (× name), then URL × verb, in that order. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups) {
    for (const resource of rule.resources) {
      for (const verb of rule.verbs) {
        if (rule.resourceNames.length === 0) out.push(atom({ apiGroups: [group], resources: [resource], verbs: [verb] }));
        else for (const name of rule.resourceNames) out.push(atom({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] }));
      }
    }
  }
  for (const url of rule.nonResourceURLs) for (const verb of rule.verbs) out.push(atom({ nonResourceURLs: [url], verbs: [verb] }));
  return out;
}

const hasAll = (set: readonly string[], wanted: readonly string[]): boolean => wanted.every((x) => set.includes(x));

/** `*`, every resource exactly, or a subresource through a `*` parent (`*` + `/<sub>`). */
function resourcesCovered(held: readonly string[], wanted: readonly string[]): boolean {
  if (held.includes('*') || hasAll(held, wanted)) return true;
  return wanted.every((path) => {
    if (held.includes(path)) return true;
    const slash = path.indexOf('/');
    return slash >= 0 && held.includes(`*/${path.slice(slash + 1)}`);
  });
}

/** The exact URL, or a held entry ending in `*` whose prefix (all trailing `*` trimmed) starts it. */
function urlCovered(held: string, path: string): boolean {
  return held === path || (held.endsWith('*') && path.startsWith(held.replace(/\*+$/, '')));
}

/**
 * ruleCovers: a held rule covers an atom when verbs, groups, resources and URLs cover it, and a
 * held rule restricted to names covers only atoms naming one of them (an unnamed atom — "every
 * name" — needs an unrestricted rule).
 */
export function ruleCovers(held: PolicyRule, wanted: PolicyRule): boolean {
  const verbs = held.verbs.includes('*') || hasAll(held.verbs, wanted.verbs);
  const groups = held.apiGroups.includes('*') || hasAll(held.apiGroups, wanted.apiGroups);
  const resources = resourcesCovered(held.resources, wanted.resources);
  const urls = wanted.nonResourceURLs.every((path) => held.nonResourceURLs.some((h) => urlCovered(h, path)));
  const names = held.resourceNames.length === 0 || (wanted.resourceNames.length > 0 && hasAll(held.resourceNames, wanted.resourceNames));
  return verbs && groups && resources && urls && names;
}

/** Covers: the atoms of `granted` that no rule of `held` covers (none: the writer holds it all). */
export function uncovered(held: readonly PolicyRule[], granted: readonly PolicyRule[]): PolicyRule[] {
  return granted.flatMap(breakdownRule).filter((a) => !held.some((h) => ruleCovers(h, a)));
}
