/** Secret field selectors: metadata.name, metadata.namespace and `type`. */
import type { FieldSelectorFacts } from '../types.ts';

export const secretFieldSelectors: FieldSelectorFacts = {
  fields: ['metadata.name', 'metadata.namespace', 'type'],
  custom: true,
  extract: (obj) => ({ 'metadata.name': obj.metadata.name ?? '', 'metadata.namespace': obj.metadata.namespace ?? '', type: String(obj['type'] ?? '') }),
};
