/**
 * Every kind the simulation serves, in discovery order. A kind whose group follows the group
 * domain (rbac.authorization.<domain>, certificates.<domain>, …) is a factory of the names table.
 */
import type { Names } from '../api/names.ts';
import type { ResourceType } from '../registry/types.ts';
import { configMapResource } from '../registry/configmap/resource.ts';
import { namespaceResource } from '../registry/namespace/resource.ts';
import { podResource } from '../registry/pod/resource.ts';
import { secretResource } from '../registry/secret/resource.ts';
import { serviceAccountResource } from '../registry/serviceaccount/resource.ts';
import { authenticationResources } from '../registry/authentication/resources.ts';
import { clusterRoleBindingResource, roleBindingResource } from '../registry/rbac/bindings.ts';
import { clusterRoleResource, roleResource } from '../registry/rbac/roles.ts';
import { certificateSigningRequestResource } from '../registry/certificates/csr/resource.ts';
import { clusterTrustBundleResource } from '../registry/certificates/clusterTrustBundle/resource.ts';
import { nodeResource } from '../registry/node/resource.ts';
import { serviceResource } from '../registry/service/resource.ts';
import { persistentVolumeClaimResource } from '../registry/persistentvolumeclaim/resource.ts';
import { eventResource } from '../registry/event/resource.ts';

import { statefulSetResource } from '../registry/statefulset/resource.ts';
import { controllerRevisionResource } from '../registry/controllerrevision/resource.ts';

export type KindEntry = ResourceType | ((names: Names) => ResourceType | readonly ResourceType[]);

export const servedKinds: readonly KindEntry[] = [
  namespaceResource,
  serviceAccountResource,
  secretResource,
  configMapResource,
  podResource,
  authenticationResources,
  clusterRoleBindingResource,
  clusterRoleResource,
  roleBindingResource,
  roleResource,
  certificateSigningRequestResource,
  clusterTrustBundleResource,
  nodeResource,
  serviceResource,
  persistentVolumeClaimResource,
  eventResource,
  statefulSetResource,
  controllerRevisionResource,
];

export function resourceTypesFor(names: Names): ResourceType[] {
  return servedKinds.flatMap((k) => (typeof k === 'function' ? k(names) : [k]));
}
