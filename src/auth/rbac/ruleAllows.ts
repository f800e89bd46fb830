/**
 * PolicyRule matching of plugin/pkg/auth/authorizer/rbac/rbac.go (RuleAllows) and
 * pkg/apis/rbac/v1/evaluation_helpers.go. Reads the stored rule in place: the authorizer runs on
 * every request, so nothing is copied or normalised.
 */
import { isObject } from '../../core/json.ts';
import type { Attributes } from './attributes.ts';

function hasOrAll(list: unknown, value: string): boolean {
  return Array.isArray(list) && (list.includes('*') || list.includes(value));
}

/** `*`, `<resource>` or `<resource>/<sub>` exactly, or `*` + `/<sub>` for that subresource of any resource. */
function resourceMatches(resources: unknown, attrs: Attributes): boolean {
  if (!Array.isArray(resources)) return false;
  const combined = attrs.subresource === '' ? attrs.resource : `${attrs.resource}/${attrs.subresource}`;
  const anyParent = attrs.subresource === '' ? null : `*/${attrs.subresource}`;
  for (const r of resources) {
    if (r === '*' || r === combined || (anyParent !== null && r === anyParent)) return true;
  }
  return false;
}

/** An empty resourceNames allows every name; otherwise the request name must be listed. */
function resourceNameMatches(names: unknown, name: string): boolean {
  return !Array.isArray(names) || names.length === 0 || names.includes(name);
}

/** `*`, the exact path, or an entry ending in `*` whose prefix (all trailing `*` trimmed) starts the path. */
function nonResourceURLMatches(urls: unknown, path: string): boolean {
  if (!Array.isArray(urls)) return false;
  for (const u of urls) {
    if (typeof u !== 'string') continue;
    if (u === '*' || u === path) return true;
    if (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))) return true;
  }
  return false;
}

export function ruleAllows(rule: unknown, attrs: Attributes): boolean {
  if (!isObject(rule) || !hasOrAll(rule['verbs'], attrs.verb)) return false;
  if (!attrs.resourceRequest) return nonResourceURLMatches(rule['nonResourceURLs'], attrs.path);
  return hasOrAll(rule['apiGroups'], attrs.apiGroup) && resourceMatches(rule['resources'], attrs) && resourceNameMatches(rule['resourceNames'], attrs.name);
}
