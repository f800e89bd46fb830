/**
 * Discovery documents, built from the served resource types: `/version`, `/api`, `/apis`,
 * `/apis/<group>`, `/api/v1`, `/apis/<group>/<version>` (legacy documents), and aggregated
 * discovery v2 (`apidiscovery.k8s.io`) when the client asks for it by Accept header.
 */
import { sha512 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { ResourceType } from '../registry/types.ts';
import type { ResourceTable } from '../registry/index.ts';

export const aggregatedMediaType = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

export const versionInfo = {
  major: '1',
  minor: '35',
  emulationMajor: '1',
  emulationMinor: '35',
  minCompatibilityMajor: '1',
  minCompatibilityMinor: '34',
  gitVersion: 'v1.35.0-platform-sim',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2025-01-01T00:00:00Z',
  goVersion: 'go1.25.0',
  compiler: 'gc',
  platform: 'linux/amd64',
};

function groupVersion(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

function sortedGroups(table: ResourceTable): string[] {
  return [...table.groupVersions.keys()].filter((g) => g !== '').sort();
}

export function apiVersions(host: string): object {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: host }] };
}

function apiGroup(table: ResourceTable, group: string): object {
  const versions = (table.groupVersions.get(group) ?? []).map((v) => ({ groupVersion: groupVersion(group, v), version: v }));
  return { name: group, versions, preferredVersion: versions[0] };
}

export function apiGroupList(table: ResourceTable): object {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: sortedGroups(table).map((g) => apiGroup(table, g)) };
}

export function apiGroupDocument(table: ResourceTable, group: string): object | null {
  if (!table.groupVersions.has(group) || group === '') return null;
  return { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(table, group) };
}

function resourcesOf(table: ResourceTable, group: string, version: string): ResourceType[] {
  return table.all.filter((rt) => rt.group === group && rt.version === version).sort((a, b) => (a.resource < b.resource ? -1 : 1));
}

export function apiResourceList(table: ResourceTable, group: string, version: string): object | null {
  if (!(table.groupVersions.get(group) ?? []).includes(version)) return null;
  const resources: object[] = [];
  for (const rt of resourcesOf(table, group, version)) {
    resources.push({
      name: rt.resource,
      singularName: rt.singular,
      namespaced: rt.namespaced,
      kind: rt.kind,
      verbs: [...rt.verbs].sort(),
      ...(rt.shortNames.length > 0 ? { shortNames: [...rt.shortNames] } : {}),
      ...(rt.categories.length > 0 ? { categories: [...rt.categories] } : {}),
    });
    for (const sub of [...rt.subresources].sort((a, b) => (a.name < b.name ? -1 : 1))) {
      resources.push({
        name: `${rt.resource}/${sub.name}`,
        singularName: '',
        namespaced: rt.namespaced,
        // Another group-version than the list's: both are named (installer.go sets them together).
        ...((sub.group ?? group) !== group || (sub.version ?? version) !== version ? { group: sub.group ?? group, version: sub.version ?? version } : {}),
        kind: sub.kind,
        verbs: [...sub.verbs].sort(),
      });
    }
  }
  // Only the named groups' lists carry apiVersion, as the real server emits them.
  return group === ''
    ? { kind: 'APIResourceList', groupVersion: version, resources }
    : { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: groupVersion(group, version), resources };
}

function aggregatedResource(rt: ResourceType): object {
  return {
    resource: rt.resource,
    responseKind: { group: rt.group, version: rt.version, kind: rt.kind },
    scope: rt.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: rt.singular,
    verbs: [...rt.verbs].sort(),
    ...(rt.shortNames.length > 0 ? { shortNames: [...rt.shortNames] } : {}),
    ...(rt.categories.length > 0 ? { categories: [...rt.categories] } : {}),
    ...(rt.subresources.length > 0
      ? {
          subresources: rt.subresources.map((sub) => ({
            subresource: sub.name,
            responseKind: { group: sub.group ?? rt.group, version: sub.version ?? rt.version, kind: sub.kind },
            verbs: [...sub.verbs].sort(),
          })),
        }
      : {}),
  };
}

/** Aggregated discovery for `/api` (core only) or `/apis` (every named group). */
export function aggregatedDiscovery(table: ResourceTable, core: boolean): object {
  const groups = core ? [''] : sortedGroups(table);
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: 'apidiscovery.k8s.io/v2',
    metadata: {},
    items: groups.map((g) => ({
      metadata: g === '' ? { creationTimestamp: null } : { name: g, creationTimestamp: null },
      versions: (table.groupVersions.get(g) ?? []).map((v) => ({ version: v, resources: resourcesOf(table, g, v).map(aggregatedResource), freshness: 'Current' })),
    })),
  };
}

/**
 * The ETag of an aggregated discovery document, as kube-apiserver's `aggregated/etag.go`: the
 * upper-case hex SHA-512 of the JSON document, quoted (`strconv.Quote`).
 */
export function aggregatedETag(doc: object): string {
  return `"${bytesToHex(sha512(utf8ToBytes(JSON.stringify(doc)))).toUpperCase()}"`;
}

/**
 * The headers of an aggregated discovery answer, and whether the client's cached copy is current:
 * an `If-None-Match` equal to the quoted ETag (Go's `Header.Get`, the first value) gets a 304
 * without a body.
 */
export function aggregatedCaching(doc: object, ifNoneMatch: string | undefined): { headers: Record<string, string>; notModified: boolean } {
  const etag = aggregatedETag(doc);
  return { headers: { etag, vary: 'Accept', 'cache-control': 'public' }, notModified: ifNoneMatch === etag };
}

export function wantsAggregated(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  return accept.split(',').some((part) => {
    const p = part.replace(/\s/g, '');
    return p.startsWith('application/json') && p.includes('g=apidiscovery.k8s.io') && p.includes('v=v2') && p.includes('as=APIGroupDiscoveryList');
  });
}
