/**
 * StatefulSet (apps/v1) schema facts: the pod template is the Pod's, volume claim templates are
 * PersistentVolumeClaims, conditions merge by type.
 */
import { objectMetaSchema } from '../../api/meta.ts';
import { s } from '../../api/schema.ts';
import { podSpecSchema } from '../pod/schema.ts';
import { pvcSpecSchema, pvcStatusSchema } from '../persistent-volume-claim/schema.ts';

export const labelSelectorSchema = s.struct('LabelSelector', {
  matchLabels: s.map(s.string()),
  matchExpressions: s.atomicList(s.struct('LabelSelectorRequirement', { key: s.string(), operator: s.string(), values: s.atomicList(s.string()) })),
});

export const podTemplateSpecSchema = s.struct('PodTemplateSpec', { metadata: objectMetaSchema, spec: podSpecSchema });

const claimTemplate = s.struct('PersistentVolumeClaim', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  spec: pvcSpecSchema,
  status: pvcStatusSchema,
});

export const statefulSetSpecSchema = s.struct('StatefulSetSpec', {
  replicas: s.int32(),
  selector: labelSelectorSchema,
  template: podTemplateSpecSchema,
  volumeClaimTemplates: s.atomicList(claimTemplate),
  serviceName: s.string(),
  podManagementPolicy: s.string(),
  updateStrategy: s.struct('StatefulSetUpdateStrategy', {
    type: s.string(),
    rollingUpdate: s.struct('RollingUpdateStatefulSetStrategy', { partition: s.int32(), maxUnavailable: s.intOrString() }),
  }),
  revisionHistoryLimit: s.int32(),
  minReadySeconds: s.int32(),
  persistentVolumeClaimRetentionPolicy: s.struct('StatefulSetPersistentVolumeClaimRetentionPolicy', { whenDeleted: s.string(), whenScaled: s.string() }),
  ordinals: s.struct('StatefulSetOrdinals', { start: s.int32() }),
});

export const statefulSetStatusSchema = s.struct('StatefulSetStatus', {
  observedGeneration: s.int64(),
  replicas: s.int32(),
  readyReplicas: s.int32(),
  currentReplicas: s.int32(),
  updatedReplicas: s.int32(),
  currentRevision: s.string(),
  updateRevision: s.string(),
  collisionCount: s.int32(),
  conditions: s.keyedList(s.struct('StatefulSetCondition', { type: s.string(), status: s.string(), lastTransitionTime: s.time(), reason: s.string(), message: s.string() }), 'type'),
  availableReplicas: s.int32(),
});

export const statefulSetSchema = s.struct('StatefulSet', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  spec: statefulSetSpecSchema,
  status: statefulSetStatusSchema,
});
