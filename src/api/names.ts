/**
 * The names table of CONTRACT.md: one rule, `k8s.io` → `platform.io` and `kubernetes.io` →
 * `platform.io`, unless the simulation runs in k8s.io compatibility mode. Names that clients
 * hard-code (meta.k8s.io, finalizers, the initial-events annotation, user names) never change
 * and are not in this table.
 */
export type GroupDomainName = 'platform.io' | 'k8s.io';

export interface Names {
  readonly domain: GroupDomainName;
  readonly authenticationGroup: string;
  readonly authorizationGroup: string;
  readonly certificatesGroup: string;
  readonly rbacGroup: string;
  readonly enforceMountableSecretsAnnotation: string;
  readonly systemNamespace: string;
  readonly publicNamespace: string;
  readonly nodeLeaseNamespace: string;
  readonly systemNamespaces: readonly string[];
  /** Prefix of well-known label, annotation and signer names (`platform.io` / `kubernetes.io`). */
  readonly wellKnown: string;
  /** StatefulSet pod labels: the pod's name and its ordinal. */
  readonly podNameLabel: string;
  readonly podIndexLabel: string;
  /** The hash label of a ControllerRevision. */
  readonly controllerRevisionHashLabel: string;
}

export function namesFor(domain: GroupDomainName): Names {
  const platform = domain === 'platform.io';
  const groupSuffix = platform ? 'platform.io' : 'k8s.io';
  const wellKnown = platform ? 'platform.io' : 'kubernetes.io';
  const systemNamespace = platform ? 'platform-system' : 'kube-system';
  const publicNamespace = platform ? 'platform-public' : 'kube-public';
  const nodeLeaseNamespace = platform ? 'platform-node-lease' : 'kube-node-lease';
  return {
    domain,
    authenticationGroup: `authentication.${groupSuffix}`,
    authorizationGroup: `authorization.${groupSuffix}`,
    certificatesGroup: `certificates.${groupSuffix}`,
    rbacGroup: `rbac.authorization.${groupSuffix}`,
    enforceMountableSecretsAnnotation: `${wellKnown}/enforce-mountable-secrets`,
    systemNamespace,
    publicNamespace,
    nodeLeaseNamespace,
    systemNamespaces: ['default', systemNamespace, publicNamespace, nodeLeaseNamespace],
    wellKnown,
    podNameLabel: `statefulset.${wellKnown}/pod-name`,
    podIndexLabel: `apps.${wellKnown}/pod-index`,
    controllerRevisionHashLabel: `controller.${wellKnown}/hash`,
  };
}

/** Names clients hard-code; never renamed. */
export const fixedNames = {
  initialEventsEndAnnotation: 'k8s.io/initial-events-end',
  orphanFinalizer: 'orphan',
  foregroundFinalizer: 'foregroundDeletion',
  lastAppliedAnnotation: 'kubectl.kubernetes.io/last-applied-configuration',
  metaGroup: 'meta.k8s.io',
  namespaceFinalizer: 'kubernetes',
} as const;
