/** Schemas shared by the apply tests: a ServiceAccount and a StatefulSet-like kind. */
import { objectMetaSchema } from '../../../src/api/meta.ts';
import { s } from '../../../src/api/schema.ts';

export const saSchema = s.struct('ServiceAccount', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  secrets: s.keyedList(s.struct('ObjectReference', { name: s.string(), namespace: s.string() }), 'name'),
  imagePullSecrets: s.atomicList(s.struct('LocalObjectReference', { name: s.string() })),
  automountServiceAccountToken: s.boolean(),
});

const container = s.struct('Container', {
  name: s.string(),
  image: s.string(),
  args: s.atomicList(s.string()),
  ports: s.keyedList(s.struct('ContainerPort', { containerPort: s.int32(), protocol: s.string(), name: s.string() }), 'containerPort', ['protocol']),
  resources: s.struct('ResourceRequirements', { limits: s.map(s.quantity()) }),
});

export const stsSchema = s.struct('StatefulSet', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  spec: s.struct('StatefulSetSpec', {
    replicas: s.int32(),
    serviceName: s.string(),
    selector: s.struct('LabelSelector', { matchLabels: s.map(s.string()) }, { atomic: true }),
    updateStrategy: s.struct('StatefulSetUpdateStrategy', {
      type: s.string(),
      rollingUpdate: s.struct('RollingUpdateStatefulSetStrategy', { partition: s.int32(), maxUnavailable: s.intOrString() }),
    }),
    template: s.struct('PodTemplateSpec', {
      metadata: objectMetaSchema,
      spec: s.struct('PodSpec', { containers: s.keyedList(container, 'name'), nodeSelector: s.map(s.string()) }),
    }),
    extra: s.any(),
  }),
  status: s.struct('StatefulSetStatus', {
    replicas: s.int32(),
    readyReplicas: s.int32(),
    conditions: s.keyedList(s.struct('StatefulSetCondition', { type: s.string(), status: s.string() }), 'type'),
  }),
});
