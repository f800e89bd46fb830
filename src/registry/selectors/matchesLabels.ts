/**
 * Matching a label selector against an object's labels (internalSelector.Matches): every
 * requirement must hold; `!=`/`notin` also match a missing key; `>`/`<` compare as int64.
 */
import { hasOwn } from '../../core/json.ts';
import { parseInt64, type LabelRequirement, type LabelSelector } from './labelSelector.ts';

function lookup(labels: Readonly<Record<string, string>> | undefined, key: string): string | undefined {
  return labels !== undefined && hasOwn(labels, key) ? labels[key] : undefined;
}

function requirementMatches(r: LabelRequirement, labels: Readonly<Record<string, string>> | undefined): boolean {
  const v = lookup(labels, r.key);
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return v !== undefined && r.values.includes(v);
    case 'notin':
    case '!=':
      return v === undefined || !r.values.includes(v);
    case 'exists':
      return v !== undefined;
    case '!':
      return v === undefined;
    case 'gt':
    case 'lt': {
      if (v === undefined || r.values.length !== 1) return false;
      const have = parseInt64(v);
      const want = parseInt64(r.values[0]!);
      if (have === undefined || want === undefined) return false;
      return r.operator === 'gt' ? have > want : have < want;
    }
  }
}

export function matchesLabels(selector: LabelSelector, labels: Readonly<Record<string, string>> | undefined): boolean {
  return !selector.nothing && selector.requirements.every((r) => requirementMatches(r, labels));
}

export function labelSelectorIsEmpty(selector: LabelSelector): boolean {
  return !selector.nothing && selector.requirements.length === 0;
}
