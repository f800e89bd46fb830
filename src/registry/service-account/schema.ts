/** ServiceAccount (core/v1) schema facts: `secrets` keyed on `name`, `imagePullSecrets` atomic. */
import { s } from '../../api/schema.ts';
import { objectMetaSchema } from '../../api/meta.ts';

export const objectReferenceSchema = s.struct('ObjectReference', {
  kind: s.string(),
  namespace: s.string(),
  name: s.string(),
  uid: s.string(),
  apiVersion: s.string(),
  resourceVersion: s.string(),
  fieldPath: s.string(),
});

export const localObjectReferenceSchema = s.struct('LocalObjectReference', { name: s.string() });

export const serviceAccountSchema = s.struct('ServiceAccount', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  secrets: s.keyedList(objectReferenceSchema, 'name'),
  imagePullSecrets: s.atomicList(localObjectReferenceSchema),
  automountServiceAccountToken: s.boolean(),
});
