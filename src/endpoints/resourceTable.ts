/**
 * The served resource types of one simulation, looked up by path (group, version, resource) and
 * by storage id or kind. Built once per simulation from its names table.
 */
import type { Names } from '../api/names.ts';
import type { ResourceType } from '../registry/types.ts';
import { resourceTypesFor } from './servedKinds.ts';
import type { RegistryView } from '../store/ops/context.ts';

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
