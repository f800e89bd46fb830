/**
 * The registry as one index: every kind the simulation serves, in discovery order, and the
 * lookup table of one simulation built from its names table (by path, storage id and kind).
 * A kind whose group follows the group domain (rbac.authorization.<domain>,
 * certificates.<domain>, …) is a factory of the names table. A new kind is added here and
 * nowhere else; test/registry/genericRules.test.ts then holds it to the generic rules.
 */
import type { Names } from '../api/names.ts';
import type { RegistryView, ResourceType } from './types.ts';
import { configMapResource } from './config-map/resource.ts';
import { namespaceResource } from './namespace/resource.ts';
import { podResource } from './pod/resource.ts';
import { secretResource } from './secret/resource.ts';
import { serviceAccountResource } from './service-account/resource.ts';
import { authenticationResources } from './authentication/resource.ts';
import { clusterRoleBindingResource, clusterRoleResource, roleBindingResource, roleResource } from './rbac/resource.ts';
import { certificateSigningRequestResource } from './certificates/csr/resource.ts';
import { clusterTrustBundleResource } from './certificates/cluster-trust-bundle/resource.ts';
import { nodeResource } from './node/resource.ts';
import { serviceResource } from './service/resource.ts';
import { persistentVolumeClaimResource } from './persistent-volume-claim/resource.ts';
import { eventResource } from './event/resource.ts';
import { statefulSetResource } from './stateful-set/resource.ts';
import { controllerRevisionResource } from './controller-revision/resource.ts';

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

/** The served resource types of one simulation. Built once per simulation from its names table. */
export interface ResourceTable extends RegistryView {
  readonly names: Names;
  readonly all: readonly ResourceType[];
  byPath(group: string, version: string, resource: string): ResourceType | undefined;
  /** Served group/versions: `''` → ['v1'], `apps` → ['v1'], … */
  readonly groupVersions: ReadonlyMap<string, readonly string[]>;
}

export function buildResourceTable(names: Names): ResourceTable {
  const all = resourceTypesFor(names);
  const byPathMap = new Map(all.map((rt) => [`${rt.group}/${rt.version}/${rt.resource}`, rt]));
  const byIdMap = new Map(all.map((rt) => [rt.id, rt]));
  const byKindMap = new Map(all.map((rt) => [`${rt.group}/${rt.kind}`, rt]));
  const groupVersions = new Map<string, string[]>();
  for (const rt of all) {
    const versions = groupVersions.get(rt.group) ?? [];
    if (!versions.includes(rt.version)) versions.push(rt.version);
    groupVersions.set(rt.group, versions);
  }
  return {
    names,
    all,
    byPath: (group, version, resource) => byPathMap.get(`${group}/${version}/${resource}`),
    byId: (id) => byIdMap.get(id),
    byGroupKind: (group, kind) => byKindMap.get(`${group}/${kind}`),
    groupVersions,
  };
}
