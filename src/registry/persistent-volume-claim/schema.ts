/**
 * PersistentVolumeClaim (core/v1) schema facts: the spec fields StatefulSet claim templates
 * carry and the status a volume binder would write. Label selectors and data sources are kept
 * free-form: nothing here binds volumes.
 */
import { s } from '../../api/schema.ts';
import { objectMetaSchema } from '../../api/meta.ts';

const resourceList = () => s.map(s.quantity(), { goType: 'v1.ResourceList' });

export const pvcSpecSchema = s.struct('PersistentVolumeClaimSpec', {
  accessModes: s.atomicList(s.string()),
  selector: s.any(),
  resources: s.struct('VolumeResourceRequirements', { limits: resourceList(), requests: resourceList() }),
  volumeName: s.string(),
  storageClassName: s.string(),
  volumeMode: s.string(),
  dataSource: s.any(),
  dataSourceRef: s.any(),
  volumeAttributesClassName: s.string(),
});

const pvcCondition = s.struct('PersistentVolumeClaimCondition', {
  type: s.string(),
  status: s.string(),
  lastProbeTime: s.time(),
  lastTransitionTime: s.time(),
  reason: s.string(),
  message: s.string(),
});

export const pvcStatusSchema = s.struct('PersistentVolumeClaimStatus', {
  phase: s.string(),
  accessModes: s.atomicList(s.string()),
  capacity: resourceList(),
  conditions: s.keyedList(pvcCondition, 'type'),
  allocatedResources: resourceList(),
  allocatedResourceStatuses: s.map(s.string()),
  currentVolumeAttributesClassName: s.string(),
  modifyVolumeStatus: s.any(),
});

export const pvcSchema = s.struct('PersistentVolumeClaim', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  spec: pvcSpecSchema,
  status: pvcStatusSchema,
});
