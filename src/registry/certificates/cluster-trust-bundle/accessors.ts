/** Typed reads of a ClusterTrustBundle: its spec strings, '' when absent or mistyped. */
import type { KubeObject } from '../../../api/meta.ts';
import { objectField } from '../../../core/json.ts';

export function specString(obj: KubeObject, key: 'signerName' | 'trustBundle'): string {
  const spec = objectField(obj, 'spec');
  return typeof spec[key] === 'string' ? spec[key] : '';
}
