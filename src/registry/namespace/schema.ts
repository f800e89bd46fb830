/** Namespace (core/v1) schema facts: spec.finalizers, status phase and conditions keyed by type. */
import { s } from '../../api/schema.ts';
import { objectMetaSchema } from '../../api/meta.ts';

export const namespaceSchema = s.struct('Namespace', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  spec: s.struct('NamespaceSpec', { finalizers: s.atomicList(s.string()) }),
  status: s.struct('NamespaceStatus', {
    phase: s.string(),
    conditions: s.keyedList(
      s.struct('NamespaceCondition', {
        type: s.string(),
        status: s.string(),
        lastTransitionTime: s.time(),
        reason: s.string(),
        message: s.string(),
      }),
      'type',
    ),
  }),
});
