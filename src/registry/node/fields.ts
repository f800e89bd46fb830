/** Node field selectors: metadata.name and spec.unschedulable (cluster-scoped: no namespace). */
import type { FieldSelectorFacts } from '../types.ts';

export const nodeFieldSelectors: FieldSelectorFacts = {
  fields: ['metadata.name', 'spec.unschedulable'],
  custom: true,
  extract: (node) => ({
    'metadata.name': node.metadata.name ?? '',
    'spec.unschedulable': String((node['spec'] as { unschedulable?: unknown } | undefined)?.unschedulable === true),
  }),
};
