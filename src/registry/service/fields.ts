/** Service field selectors: spec.clusterIP and spec.type besides metadata. */
import type { FieldSelectorFacts } from '../types.ts';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export const serviceFieldSelectors: FieldSelectorFacts = {
  fields: ['metadata.name', 'metadata.namespace', 'spec.clusterIP', 'spec.type'],
  custom: true,
  extract: (svc) => {
    const spec = (svc['spec'] ?? {}) as Record<string, unknown>;
    return {
      'metadata.name': svc.metadata.name ?? '',
      'metadata.namespace': svc.metadata.namespace ?? '',
      'spec.clusterIP': str(spec['clusterIP']),
      'spec.type': str(spec['type']),
    };
  },
};
