/** ClusterTrustBundle (certificates/v1beta1) schema facts: a spec of two strings, no status. */
import { s } from '../../../api/schema.ts';
import { objectMetaSchema } from '../../../api/meta.ts';

export const clusterTrustBundleSchema = s.struct('ClusterTrustBundle', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  spec: s.struct('ClusterTrustBundleSpec', { signerName: s.string(), trustBundle: s.string() }),
});
