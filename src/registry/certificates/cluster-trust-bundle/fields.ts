/** ClusterTrustBundle field selectors: metadata.name and spec.signerName (cluster-scoped). */
import type { FieldSelectorFacts } from '../../types.ts';
import { specString } from './accessors.ts';

export const clusterTrustBundleFieldSelectors: FieldSelectorFacts = {
  fields: ['metadata.name', 'spec.signerName'],
  custom: true,
  extract: (obj) => ({ 'metadata.name': obj.metadata.name ?? '', 'spec.signerName': specString(obj, 'signerName') }),
};
