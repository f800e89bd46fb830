/** Namespace field selectors: metadata.name and status.phase (cluster-scoped: no namespace). */
import type { FieldSelectorFacts } from '../types.ts';

export const namespaceFieldSelectors: FieldSelectorFacts = {
  fields: ['metadata.name', 'status.phase'],
  custom: true,
  extract: (obj) => ({ 'metadata.name': obj.metadata.name ?? '', 'status.phase': String((obj['status'] as { phase?: string } | undefined)?.phase ?? '') }),
};
