/**
 * Object metadata shared by every kind (metav1.ObjectMeta, TypeMeta, ListMeta) and its schema.
 * Stored objects are plain JSON; these types describe the fields the machinery reads.
 */
import type { JsonObject } from '../core/json.ts';
import { s, type StructSchema } from './schema.ts';

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: 'Apply' | 'Update';
  apiVersion?: string;
  time?: string;
  fieldsType?: 'FieldsV1';
  fieldsV1?: JsonObject;
  subresource?: string;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
}

/** Any stored object: TypeMeta + ObjectMeta + kind-specific fields. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

export const ownerReferenceSchema = s.struct('OwnerReference', {
  apiVersion: s.string(),
  kind: s.string(),
  name: s.string(),
  uid: s.string(),
  controller: s.boolean(),
  blockOwnerDeletion: s.boolean(),
});

export const managedFieldsEntrySchema = s.struct('ManagedFieldsEntry', {
  manager: s.string(),
  operation: s.string(),
  apiVersion: s.string(),
  time: s.time(),
  fieldsType: s.string(),
  fieldsV1: { type: 'any', goType: 'v1.FieldsV1' },
  subresource: s.string(),
});

export const objectMetaSchema: StructSchema = s.struct('ObjectMeta', {
  name: s.string(),
  generateName: s.string(),
  namespace: s.string(),
  selfLink: s.string(),
  uid: s.string(),
  resourceVersion: s.string(),
  generation: s.int64(),
  creationTimestamp: s.time(),
  deletionTimestamp: s.time(),
  deletionGracePeriodSeconds: s.int64(),
  labels: s.map(s.string()),
  annotations: s.map(s.string()),
  ownerReferences: s.keyedList(ownerReferenceSchema, 'uid'),
  finalizers: s.set(s.string()),
  managedFields: s.atomicList(managedFieldsEntrySchema),
});

/** ListMeta as emitted on lists. */
export interface ListMeta {
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

/** `apiVersion` string of a group and version: `v1` for core, else `group/version`. */
export function groupVersionString(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

/** Splits `apps/v1` into group and version (`v1` → core). */
export function parseGroupVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.indexOf('/');
  return i < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}
