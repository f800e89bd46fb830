/** ClusterTrustBundle writes: stored as sent (no status, no defaults), validated. */
import { strategy } from '../../common/defaultStrategy.ts';
import type { Strategy } from '../../types.ts';
import { validateBundle, validateBundleUpdate } from './validation.ts';

export const clusterTrustBundleStrategy: Strategy = strategy({
  validate: validateBundle,
  validateUpdate: validateBundleUpdate,
});
