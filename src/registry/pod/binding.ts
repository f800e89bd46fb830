/**
 * Binding (core/v1), the body of `POST pods/{name}/binding`: how a scheduler assigns a pod to a
 * node. Never stored; it sets the pod's `spec.nodeName`, merges the Binding's annotations into
 * the pod's and marks the pod `PodScheduled`. Checks in Kubernetes' order (BindingREST.Create):
 * the name, the target, then the pod's state (being deleted, already assigned: 409).
 */
import { s } from '../../api/schema.ts';
import { objectMetaSchema, type KubeObject } from '../../api/meta.ts';
import { objectReferenceSchema } from '../service-account/schema.ts';
import { formatInstant, type Instant } from '../../core/duration.ts';
import { fieldError, type FieldError } from '../../core/fieldErrors.ts';
import { isObject, objectField, type JsonObject } from '../../core/json.ts';

export const bindingSchema = s.struct('Binding', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  target: objectReferenceSchema,
});

function targetOf(binding: KubeObject): JsonObject {
  return objectField(binding, 'target');
}

/** ValidatePodBinding: the target is a Node (or unnamed kind) with a name. */
export function validateBinding(binding: KubeObject): FieldError[] {
  const target = targetOf(binding);
  const kind = typeof target['kind'] === 'string' ? target['kind'] : '';
  const name = typeof target['name'] === 'string' ? target['name'] : '';
  const out: FieldError[] = [];
  if (kind !== '' && kind !== 'Node') out.push(fieldError.notSupported('target.kind', kind, ['Node', '<empty>']));
  if (name === '') out.push(fieldError.required('target.name'));
  return out;
}

/** Why the pod cannot be bound (the text of the 409), or null. */
export function bindingRefusal(pod: KubeObject): string | null {
  const name = pod.metadata.name ?? '';
  if (pod.metadata.deletionTimestamp !== undefined) return `pod ${name} is being deleted, cannot be assigned to a host`;
  const node = isObject(pod['spec']) ? pod['spec']['nodeName'] : undefined;
  if (typeof node === 'string' && node !== '') return `pod ${name} is already assigned to node "${node}"`;
  return null;
}

/** The pod bound to the Binding's node at `now`. */
export function boundPod(pod: KubeObject, binding: KubeObject, now: Instant): KubeObject {
  const spec: JsonObject = objectField(pod, 'spec');
  const status: JsonObject = objectField(pod, 'status');
  const conditions = Array.isArray(status['conditions']) ? status['conditions'].filter(isObject) : [];
  const scheduled = { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: formatInstant(now) };
  const existing = conditions.findIndex((c) => c['type'] === 'PodScheduled');
  const nextConditions =
    existing < 0 ? [...conditions, scheduled] : conditions.map((c, i) => (i === existing ? (c['status'] === 'True' ? c : { ...c, ...scheduled }) : c));
  const annotations = binding.metadata.annotations;
  return {
    ...pod,
    metadata: { ...pod.metadata, ...(annotations === undefined ? {} : { annotations: { ...(pod.metadata.annotations ?? {}), ...annotations } }) },
    spec: { ...spec, nodeName: String(targetOf(binding)['name']) },
    status: { ...status, conditions: nextConditions },
  };
}
