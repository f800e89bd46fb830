/**
 * A minimal OpenAPI v3: the discovery document `/openapi/v3` and one document per served
 * group-version with each kind's item path and a `patch` operation carrying
 * `x-kubernetes-group-version-kind` and the `fieldValidation` parameter, which is what kubectl
 * looks for before it lets the server validate (`create -f`, `apply -f`, `edit`, `replace`).
 * Component schemas are generated from each kind's schema facts.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Schema } from '../api/schema.ts';
import type { ResourceType } from '../registry/types.ts';
import type { ResourceTable } from '../registry/index.ts';
import { descriptions } from '../registry/descriptions.ts';

function gvPath(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}

function toOpenApi(schema: Schema): object {
  switch (schema.type) {
    case 'string':
      return schema.format === undefined ? { type: 'string' } : { type: 'string', format: schema.format };
    case 'integer':
      return { type: 'integer', format: schema.format };
    case 'number':
      return { type: 'number', format: 'double' };
    case 'boolean':
      return { type: 'boolean' };
    case 'int-or-string':
      return { 'x-kubernetes-int-or-string': true };
    case 'quantity':
      return { type: 'string' };
    case 'any':
      return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
    case 'map':
      return { type: 'object', additionalProperties: toOpenApi(schema.values), ...(schema.atomic === true ? { 'x-kubernetes-map-type': 'atomic' } : {}) };
    case 'list':
      return {
        type: 'array',
        items: toOpenApi(schema.items),
        'x-kubernetes-list-type': schema.listType,
        ...(schema.mapKeys === undefined ? {} : { 'x-kubernetes-list-map-keys': [...schema.mapKeys] }),
        ...(schema.patchStrategy === undefined ? {} : { 'x-kubernetes-patch-strategy': schema.patchStrategy }),
        ...(schema.patchMergeKey === undefined ? {} : { 'x-kubernetes-patch-merge-key': schema.patchMergeKey }),
      };
    case 'struct': {
      const described = descriptions[schema.goName] ?? {};
      const properties: Record<string, object> = {};
      for (const k of Object.keys(schema.fields).sort()) {
        const field = toOpenApi(schema.fields[k]!);
        properties[k] = described[k] === undefined ? field : { ...field, description: described[k] };
      }
      return { ...(described[''] === undefined ? {} : { description: described[''] }), type: 'object', properties };
    }
  }
}

function gvk(rt: ResourceType): object[] {
  return [{ group: rt.group, version: rt.version, kind: rt.kind }];
}

const queryParam = (name: string): object => ({ name, in: 'query', schema: { type: 'string', uniqueItems: true } });

function itemPath(rt: ResourceType): string {
  const prefix = `/${gvPath(rt.group, rt.version)}`;
  return rt.namespaced ? `${prefix}/namespaces/{namespace}/${rt.resource}/{name}` : `${prefix}/${rt.resource}/{name}`;
}

export function openApiDocument(table: ResourceTable, group: string, version: string): object | null {
  const rts = table.all.filter((rt) => rt.group === group && rt.version === version);
  if (rts.length === 0) return null;
  const paths: Record<string, object> = {};
  const schemas: Record<string, object> = {};
  for (const rt of rts) {
    const ref = `io.platform-sim.${gvPath(rt.group, rt.version).replace(/\//g, '.')}.${rt.kind}`;
    schemas[ref] = { ...toOpenApi(rt.schema), 'x-kubernetes-group-version-kind': gvk(rt) };
    const body = { content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } } };
    const ext = { 'x-kubernetes-action': 'patch', 'x-kubernetes-group-version-kind': gvk(rt)[0] };
    paths[itemPath(rt)] = {
      get: { operationId: `read${rt.kind}`, 'x-kubernetes-action': 'get', 'x-kubernetes-group-version-kind': gvk(rt)[0], responses: { '200': body } },
      put: { operationId: `replace${rt.kind}`, 'x-kubernetes-action': 'put', 'x-kubernetes-group-version-kind': gvk(rt)[0], parameters: ['dryRun', 'fieldManager', 'fieldValidation'].map(queryParam), requestBody: body, responses: { '200': body } },
      patch: { operationId: `patch${rt.kind}`, ...ext, parameters: ['dryRun', 'fieldManager', 'fieldValidation', 'force'].map(queryParam), responses: { '200': body } },
    };
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'v1.35.0' }, paths, components: { schemas } };
}

export function openApiRoot(table: ResourceTable): object {
  const paths: Record<string, object> = {};
  for (const [group, versions] of [...table.groupVersions.entries()].sort()) {
    for (const v of versions) {
      const doc = openApiDocument(table, group, v);
      const hash = bytesToHex(sha256(utf8ToBytes(JSON.stringify(doc)))).slice(0, 32).toUpperCase();
      paths[gvPath(group, v)] = { serverRelativeURL: `/openapi/v3/${gvPath(group, v)}?hash=${hash}` };
    }
  }
  return { paths };
}
