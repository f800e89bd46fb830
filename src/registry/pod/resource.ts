/**
 * Pod (core/v1), a supporting kind: defaults as the real API server applies them, a `/status`
 * subresource, spec immutability apart from the fields Kubernetes lets change, and graceful
 * deletion for pods bound to a node (a pod with no `spec.nodeName` goes at once).
 */
import type { KubeObject } from '../../api/meta.ts';
import { fieldError, type FieldError } from '../../core/fieldErrors.ts';
import { deepEqual, isObject, type JsonObject } from '../../core/json.ts';
import { allVerbs, keepAllButStatus, keepStatus, strategy } from '../common/defaultStrategy.ts';
import { ageColumn, nameColumn } from '../common/tables.ts';
import type { ResourceType } from '../types.ts';
import { podSchema } from './schema.ts';
import { isDNS1123Label } from '../validation/names.ts';
import { serviceAccountAdmission } from './serviceAccountAdmission.ts';

export function defaultContainer(c: unknown): unknown {
  if (!isObject(c)) return c;
  const image = typeof c['image'] === 'string' ? c['image'] : '';
  const tagged = /:[^/]+$/.test(image) && !image.endsWith(':latest');
  return {
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    imagePullPolicy: tagged ? 'IfNotPresent' : 'Always',
    resources: {},
    ...c,
  };
}

function withDefaults(obj: KubeObject): KubeObject {
  const spec: JsonObject = isObject(obj['spec']) ? { ...obj['spec'] } : {};
  const defaults: JsonObject = {
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 30,
    dnsPolicy: 'ClusterFirst',
    serviceAccountName: typeof spec['serviceAccount'] === 'string' ? spec['serviceAccount'] : 'default',
    securityContext: {},
    schedulerName: 'default-scheduler',
    enableServiceLinks: true,
    preemptionPolicy: 'PreemptLowerPriority',
    priority: 0,
  };
  const out: JsonObject = { ...defaults, ...spec };
  if (out['serviceAccount'] === undefined) out['serviceAccount'] = out['serviceAccountName']!;
  if (Array.isArray(spec['containers'])) out['containers'] = spec['containers'].map(defaultContainer) as JsonObject[];
  if (Array.isArray(spec['initContainers'])) out['initContainers'] = spec['initContainers'].map(defaultContainer) as JsonObject[];
  return { ...obj, spec: out };
}

function validateContainers(list: unknown, path: string, required: boolean): FieldError[] {
  if (!Array.isArray(list) || list.length === 0) return required ? [fieldError.required(path)] : [];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  list.forEach((c, i) => {
    const at = `${path}[${i}]`;
    const name = isObject(c) && typeof c['name'] === 'string' ? c['name'] : '';
    if (name === '') errs.push(fieldError.required(`${at}.name`));
    else {
      for (const msg of isDNS1123Label(name)) errs.push(fieldError.invalid(`${at}.name`, name, msg));
      if (seen.has(name)) errs.push(fieldError.duplicate(`${at}.name`, name));
      seen.add(name);
    }
    if (!isObject(c) || typeof c['image'] !== 'string' || c['image'] === '') errs.push(fieldError.required(`${at}.image`));
  });
  return errs;
}

function validatePod(obj: KubeObject): FieldError[] {
  const spec = isObject(obj['spec']) ? obj['spec'] : {};
  return [...validateContainers(spec['containers'], 'spec.containers', true), ...validateContainers(spec['initContainers'], 'spec.initContainers', false)];
}

const mutableSpecMessage =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

/** Blanks the fields a pod update may change, so that what remains must be equal. */
function immutablePart(spec: unknown): unknown {
  if (!isObject(spec)) return spec;
  const strip = (list: unknown): unknown => (Array.isArray(list) ? list.map((c) => (isObject(c) ? { ...c, image: '' } : c)) : list);
  const { activeDeadlineSeconds: _a, tolerations: _t, terminationGracePeriodSeconds: _g, ...rest } = spec;
  return { ...rest, containers: strip(spec['containers']), initContainers: strip(spec['initContainers']) };
}

function validatePodUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs = validatePod(obj);
  if (!deepEqual(immutablePart(obj['spec']), immutablePart(old['spec']))) errs.push(fieldError.forbidden('spec', mutableSpecMessage));
  return errs;
}

const podStatusStrategy = strategy({ prepareForUpdate: keepAllButStatus });

export const podResource: ResourceType = {
  id: 'core/pods',
  group: '',
  version: 'v1',
  resource: 'pods',
  singular: 'pod',
  kind: 'Pod',
  listKind: 'PodList',
  namespaced: true,
  shortNames: ['po'],
  categories: ['all'],
  verbs: allVerbs,
  schema: podSchema,
  nameRule: 'subdomain',
  strategy: strategy({
    prepareForCreate: (obj) => ({ ...withDefaults(obj), status: { phase: 'Pending', qosClass: 'BestEffort' } }),
    prepareForUpdate: (obj, old) => keepStatus(withDefaults(obj), old),
    validate: validatePod,
    validateUpdate: validatePodUpdate,
  }),
  subresources: [{ name: 'status', kind: 'Pod', verbs: ['get', 'patch', 'update'], strategy: podStatusStrategy }],
  fieldSelectors: {
    fields: ['metadata.name', 'metadata.namespace', 'spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'spec.hostNetwork', 'status.phase', 'status.podIP', 'status.nominatedNodeName'],
    custom: true,
    extract: (obj) => {
      const spec = (isObject(obj['spec']) ? obj['spec'] : {}) as JsonObject;
      const status = (isObject(obj['status']) ? obj['status'] : {}) as JsonObject;
      const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
      return {
        'metadata.name': obj.metadata.name ?? '',
        'metadata.namespace': obj.metadata.namespace ?? '',
        'spec.nodeName': str(spec['nodeName']),
        'spec.restartPolicy': str(spec['restartPolicy']),
        'spec.schedulerName': str(spec['schedulerName']),
        'spec.serviceAccountName': str(spec['serviceAccountName']),
        'spec.hostNetwork': str(spec['hostNetwork'] ?? false),
        'status.phase': str(status['phase']),
        'status.podIP': str(status['podIP']),
        'status.nominatedNodeName': str(status['nominatedNodeName']),
      };
    },
  },
  deleteReturnsObject: true,
  allowUnconditionalUpdate: true,
  hasGeneration: true,
  resetFields: ['status'],
  admitCreate: serviceAccountAdmission,
  gracefulDeletion: (obj, requested) => {
    const spec = isObject(obj['spec']) ? obj['spec'] : {};
    if (typeof spec['nodeName'] !== 'string' || spec['nodeName'] === '') return null;
    if (requested !== undefined) return requested;
    return typeof spec['terminationGracePeriodSeconds'] === 'number' ? spec['terminationGracePeriodSeconds'] : 30;
  },
  table: [
    nameColumn,
    {
      name: 'Ready',
      type: 'string',
      format: '',
      description: 'The aggregate readiness state of this pod for accepting traffic.',
      priority: 0,
      cell: (obj) => {
        const spec = isObject(obj['spec']) ? obj['spec'] : {};
        const status = isObject(obj['status']) ? obj['status'] : {};
        const total = Array.isArray(spec['containers']) ? spec['containers'].length : 0;
        const ready = Array.isArray(status['containerStatuses']) ? status['containerStatuses'].filter((c) => isObject(c) && c['ready'] === true).length : 0;
        return `${ready}/${total}`;
      },
    },
    {
      name: 'Status',
      type: 'string',
      format: '',
      description: 'The aggregate status of the containers in this pod.',
      priority: 0,
      cell: (obj) => (obj.metadata.deletionTimestamp !== undefined ? 'Terminating' : String((obj['status'] as { phase?: string } | undefined)?.phase ?? '')),
    },
    {
      name: 'Restarts',
      type: 'string',
      format: '',
      description: 'The number of times the containers in this pod have been restarted.',
      priority: 0,
      cell: () => '0',
    },
    ageColumn,
  ],
};
