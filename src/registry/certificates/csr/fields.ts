/** CertificateSigningRequest field selectors: metadata.name and spec.signerName (cluster-scoped). */
import { objectField } from '../../../core/json.ts';
import type { FieldSelectorFacts } from '../../types.ts';

export const csrFieldSelectors: FieldSelectorFacts = {
  fields: ['metadata.name', 'spec.signerName'],
  custom: true,
  extract: (obj) => {
    const spec = objectField(obj, 'spec');
    return { 'metadata.name': obj.metadata.name ?? '', 'spec.signerName': typeof spec['signerName'] === 'string' ? spec['signerName'] : '' };
  },
};
