/**
 * PersistentVolumeClaim columns as kubectl prints them (printPersistentVolumeClaim): capacity and
 * access modes come from status and only once the claim names a volume.
 */
import { isObject, type JsonObject } from '../../core/json.ts';
import type { KubeObject } from '../../api/meta.ts';
import { ageColumn, nameColumn } from '../common/tables.ts';
import type { TableColumn } from '../types.ts';

const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

/** GetAccessModesAsString: a fixed order, whatever the order in the object. */
const modeAbbreviations: readonly [string, string][] = [
  ['ReadWriteOnce', 'RWO'],
  ['ReadOnlyMany', 'ROX'],
  ['ReadWriteMany', 'RWX'],
  ['ReadWriteOncePod', 'RWOP'],
];

function accessModes(o: KubeObject): string {
  if (str(obj(o['spec'])['volumeName']) === '') return '';
  const modes = obj(o['status'])['accessModes'];
  const list = Array.isArray(modes) ? modes : [];
  return modeAbbreviations.filter(([mode]) => list.includes(mode)).map(([, short]) => short).join(',');
}

function capacity(o: KubeObject): string {
  if (str(obj(o['spec'])['volumeName']) === '') return '';
  return str(obj(obj(o['status'])['capacity'])['storage']);
}

/** GetPersistentVolumeClaimClass: the beta annotation wins over the field, as in Kubernetes. */
function storageClass(o: KubeObject): string {
  const beta = o.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'];
  return beta ?? str(obj(o['spec'])['storageClassName']);
}

const column = (name: string, description: string, cell: TableColumn['cell'], priority = 0): TableColumn => ({ name, type: 'string', format: '', description, priority, cell });

export const pvcColumns: readonly TableColumn[] = [
  nameColumn,
  column('Status', 'phase represents the current phase of PersistentVolumeClaim.', (o) => (o.metadata.deletionTimestamp !== undefined ? 'Terminating' : str(obj(o['status'])['phase']))),
  column('Volume', 'volumeName is the binding reference to the PersistentVolume backing this claim.', (o) => str(obj(o['spec'])['volumeName'])),
  column('Capacity', 'capacity represents the actual resources of the underlying volume.', capacity),
  column('Access Modes', 'accessModes contains the actual access modes the volume backing the PVC has.', accessModes),
  column('StorageClass', 'StorageClass of the pvc', storageClass),
  column('VolumeAttributesClass', 'VolumeAttributesClass of the pvc', (o) => {
    const current = obj(o['status'])['currentVolumeAttributesClassName'];
    return typeof current === 'string' ? current : '<unset>';
  }),
  ageColumn,
  column('VolumeMode', 'volumeMode defines what type of volume is required by the claim.', (o) => str(obj(o['spec'])['volumeMode']) || '<unset>', 1),
];
