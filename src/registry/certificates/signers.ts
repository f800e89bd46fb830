/**
 * Well-known signer names of the names table (CONTRACT.md): `platform.io/…` by default,
 * Kubernetes' own names in k8s.io compatibility mode.
 */
import type { Names } from '../../api/names.ts';

export interface WellKnownSigners {
  readonly apiserverClient: string;
  readonly apiserverClientNodeAgent: string;
  readonly nodeAgentServing: string;
  /** Rejected for new CSRs (v1 validation). */
  readonly legacyUnknown: string;
}

export function wellKnownSigners(names: Names): WellKnownSigners {
  const k = names.wellKnown;
  const platform = names.domain === 'platform.io';
  return {
    apiserverClient: `${k}/${platform ? 'apiserver-client' : 'kube-apiserver-client'}`,
    apiserverClientNodeAgent: `${k}/${platform ? 'apiserver-client-nodeagent' : 'kube-apiserver-client-kubelet'}`,
    nodeAgentServing: `${k}/${platform ? 'nodeagent-serving' : 'kubelet-serving'}`,
    legacyUnknown: `${k}/legacy-unknown`,
  };
}
