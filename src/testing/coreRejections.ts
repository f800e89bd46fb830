/**
 * Near-valid bodies of the supporting core kinds (coreObjects.ts): a valid body with one mistake,
 * carrying the cause a faithful server's 422 Invalid must hold — the field, the reason and, where
 * the mistake decides it, the message (wording.ts).
 */
import type * as FastCheck from 'fast-check';
import type { Fc } from './arbitraries.ts';
import { controllerRevision, event, namespace, node, persistentVolumeClaim, pod, secret, service } from './coreObjects.ts';
import { spoiled, type Body, type Rejected } from './rejections.ts';
import { cause, rules } from './wording.ts';

type Arb = FastCheck.Arbitrary<Rejected>;

const upperCaseName = (rule: string) => ({
  mistake: 'a name with an upper-case letter',
  field: 'metadata.name',
  reason: 'FieldValueInvalid' as const,
  message: (b: Body) => cause.invalid(b['metadata'].name, rule),
  apply: (b: Body) => (b['metadata'].name = `X${b['metadata'].name}`),
});

export function rejectedNamespace(fc: Fc): Arb {
  return spoiled(fc, namespace(fc), [
    upperCaseName(rules.dns1123Label),
    { mistake: 'a name with a dot', field: 'metadata.name', reason: 'FieldValueInvalid', message: (b) => cause.invalid(b['metadata'].name, 'must not contain dots'), apply: (b) => (b['metadata'].name = `${b['metadata'].name}.x`) },
    { mistake: 'a label value with a "!"', field: 'metadata.labels', reason: 'FieldValueInvalid', message: cause.invalid('bad!', rules.labelValue), apply: (b) => (b['metadata'].labels = { ...b['metadata'].labels, ok: 'bad!' }) },
  ]);
}

export function rejectedSecret(fc: Fc): Arb {
  return spoiled(fc, secret(fc), [
    { mistake: 'a data key with a space', field: 'data[bad key]', reason: 'FieldValueInvalid', message: cause.invalid('bad key', rules.configKey), apply: (b) => (b['data'] = { ...b['data'], 'bad key': btoa('x') }) },
    // stringData is merged into data before validation: the cause names data.
    { mistake: 'a stringData key with a space', field: 'data[bad key]', reason: 'FieldValueInvalid', message: cause.invalid('bad key', rules.configKey), apply: (b) => (b['stringData'] = { ...b['stringData'], 'bad key': 'x' }) },
    upperCaseName(rules.dns1123Subdomain),
  ]);
}

export function rejectedPod(fc: Fc): Arb {
  return spoiled(fc, pod(fc), [
    { mistake: 'no containers', field: 'spec.containers', reason: 'FieldValueRequired', message: cause.required(), apply: (b) => (b['spec'].containers = []) },
    {
      mistake: 'two containers of the same name',
      field: 'spec.containers[1].name',
      reason: 'FieldValueDuplicate',
      message: (b) => cause.duplicate(b['spec'].containers[0].name),
      apply: (b) => b['spec'].containers.splice(1, 0, { ...b['spec'].containers[0] }),
    },
    { mistake: 'a container without an image', field: 'spec.containers[0].image', reason: 'FieldValueRequired', message: cause.required(), apply: (b) => delete b['spec'].containers[0].image },
    {
      mistake: 'a container name with an upper-case letter',
      field: 'spec.containers[0].name',
      reason: 'FieldValueInvalid',
      message: (b) => cause.invalid(b['spec'].containers[0].name, rules.dns1123Label),
      apply: (b) => (b['spec'].containers[0].name = `X${b['spec'].containers[0].name}`),
    },
    { mistake: 'an init container without an image', field: 'spec.initContainers[0].image', reason: 'FieldValueRequired', message: cause.required(), apply: (b) => (b['spec'].initContainers = [{ name: 'setup' }]) },
  ]);
}

const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

export function rejectedNode(fc: Fc): Arb {
  const taint = { key: 'example.com/spoiled', value: 'yes', effect: 'NoSchedule' };
  // Taint errors are reported under metadata.taints, as the real code does.
  return spoiled(fc, node(fc), [
    { mistake: 'a taint with an unknown effect', field: 'metadata.taints[0].effect', reason: 'FieldValueNotSupported', message: cause.notSupported('Sometimes', taintEffects), apply: (b) => (b['spec'].taints = [{ ...taint, effect: 'Sometimes' }]) },
    { mistake: 'a taint without an effect', field: 'metadata.taints[0].effect', reason: 'FieldValueRequired', message: cause.required(), apply: (b) => (b['spec'].taints = [{ key: taint.key }]) },
    { mistake: 'the same taint twice', field: 'metadata.taints[1]', reason: 'FieldValueDuplicate', apply: (b) => (b['spec'].taints = [taint, { ...taint }]) },
    { mistake: 'a pod CIDR that is not a CIDR', field: 'spec.podCIDRs[0]', reason: 'FieldValueInvalid', message: cause.invalid('10.0.0.0', rules.cidr), apply: (b) => (b['spec'].podCIDRs = ['10.0.0.0']) },
    {
      mistake: 'two IPv4 pod CIDRs',
      field: 'spec.podCIDRs',
      reason: 'FieldValueInvalid',
      message: cause.invalid(['10.1.0.0/24', '10.2.0.0/24'], 'may specify no more than one CIDR for each IP family'),
      apply: (b) => (b['spec'].podCIDRs = ['10.1.0.0/24', '10.2.0.0/24']),
    },
  ]);
}

export function rejectedService(fc: Fc): Arb {
  return spoiled(fc, service(fc), [
    { mistake: 'port 0', field: 'spec.ports[0].port', reason: 'FieldValueInvalid', message: cause.invalid(0, 'must be between 1 and 65535, inclusive'), apply: (b) => (b['spec'].ports[0].port = 0) },
    { mistake: 'an unknown protocol', field: 'spec.ports[0].protocol', reason: 'FieldValueNotSupported', message: cause.notSupported('HTTP', ['SCTP', 'TCP', 'UDP']), apply: (b) => (b['spec'].ports[0].protocol = 'HTTP') },
    { mistake: 'an unknown type', field: 'spec.type', reason: 'FieldValueNotSupported', message: cause.notSupported('Internal', ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort']), apply: (b) => (b['spec'].type = 'Internal') },
    { mistake: 'a name that starts with a digit', field: 'metadata.name', reason: 'FieldValueInvalid', message: (b) => cause.invalid(b['metadata'].name, rules.dns1035Label), apply: (b) => (b['metadata'].name = `1${b['metadata'].name}`) },
    {
      mistake: 'two ports, the first without a name',
      field: 'spec.ports[0].name',
      reason: 'FieldValueRequired',
      message: cause.required(),
      apply: (b) => (b['spec'].ports = [{ port: 80, protocol: 'TCP' }, { name: 'metrics', port: 9090, protocol: 'TCP' }]),
    },
    { mistake: 'an unknown session affinity', field: 'spec.sessionAffinity', reason: 'FieldValueNotSupported', message: cause.notSupported('Sticky', ['ClientIP', 'None']), apply: (b) => (b['spec'].sessionAffinity = 'Sticky') },
    { mistake: 'an ExternalName service without the name', field: 'spec.externalName', reason: 'FieldValueRequired', message: cause.required(), apply: (b) => (b['spec'].type = 'ExternalName') },
  ]);
}

const accessModes = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];

export function rejectedPersistentVolumeClaim(fc: Fc): Arb {
  return spoiled(fc, persistentVolumeClaim(fc), [
    { mistake: 'no access mode', field: 'spec.accessModes', reason: 'FieldValueRequired', message: cause.required('at least 1 access mode is required'), apply: (b) => (b['spec'].accessModes = []) },
    { mistake: 'an unknown access mode', field: 'spec.accessModes', reason: 'FieldValueNotSupported', message: cause.notSupported('ReadSometimes', accessModes), apply: (b) => (b['spec'].accessModes = ['ReadSometimes']) },
    {
      mistake: 'ReadWriteOncePod with another access mode',
      field: 'spec.accessModes',
      reason: 'FieldValueForbidden',
      message: cause.forbidden('may not use ReadWriteOncePod with other access modes'),
      apply: (b) => (b['spec'].accessModes = ['ReadWriteOncePod', 'ReadWriteOnce']),
    },
    { mistake: 'a zero storage request', field: 'spec.resources[storage]', reason: 'FieldValueInvalid', message: cause.invalid('0', 'must be greater than zero'), apply: (b) => (b['spec'].resources.requests.storage = '0') },
    { mistake: 'no storage request', field: 'spec.resources[storage]', reason: 'FieldValueRequired', message: cause.required(), apply: (b) => (b['spec'].resources.requests = {}) },
    { mistake: 'an unknown volume mode', field: 'spec.volumeMode', reason: 'FieldValueNotSupported', message: cause.notSupported('Raw', ['Block', 'Filesystem']), apply: (b) => (b['spec'].volumeMode = 'Raw') },
  ]);
}

/** Makes an event new-style (eventTime and the reporting fields), then drops one of those fields. */
const newStyleWithout = (field: 'reportingComponent' | 'reportingInstance' | 'action') => (b: Body) => {
  Object.assign(b, { eventTime: '2025-01-01T00:00:00.000000Z', reportingComponent: 'example.com/operator', reportingInstance: 'operator-0', action: 'Reconcile' });
  delete b[field];
};

export function rejectedEvent(fc: Fc): Arb {
  return spoiled(fc, event(fc), [
    {
      // Only old-style events (no eventTime) must agree with their object's namespace.
      mistake: 'an old-style event about an object in another namespace',
      field: 'involvedObject.namespace',
      reason: 'FieldValueInvalid',
      message: cause.invalid('other', 'does not match event.namespace'),
      apply: (b) => {
        for (const f of ['eventTime', 'reportingComponent', 'reportingInstance', 'action']) delete b[f];
        b['involvedObject'].namespace = 'other';
      },
    },
    // The JSON field is reportingComponent; the cause names the Go field, reportingController.
    { mistake: 'a new-style event without its reporting controller', field: 'reportingController', reason: 'FieldValueRequired', message: cause.required(), apply: newStyleWithout('reportingComponent') },
    { mistake: 'a new-style event without its reporting instance', field: 'reportingInstance', reason: 'FieldValueRequired', message: cause.required(), apply: newStyleWithout('reportingInstance') },
    { mistake: 'a new-style event without an action', field: 'action', reason: 'FieldValueRequired', message: cause.required(), apply: newStyleWithout('action') },
  ]);
}

export function rejectedControllerRevision(fc: Fc): Arb {
  return spoiled(fc, controllerRevision(fc), [
    { mistake: 'no data', field: 'data', reason: 'FieldValueRequired', message: cause.required('data is mandatory'), apply: (b) => delete b['data'] },
    { mistake: 'a negative revision', field: 'revision', reason: 'FieldValueInvalid', message: cause.invalid(-1, 'must be greater than or equal to 0'), apply: (b) => (b['revision'] = -1) },
    upperCaseName(rules.dns1123Subdomain),
  ]);
}
