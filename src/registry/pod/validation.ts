/**
 * Pod validation: containers (at least one; names DNS-1123 labels, unique; an image each; their
 * ports: a containerPort each, numbers 1–65535, IANA names unique in the container), and
 * on update a spec that is immutable apart from the fields Kubernetes lets change.
 */
import type { KubeObject } from '../../api/meta.ts';
import { fieldError, type FieldError } from '../../core/fieldErrors.ts';
import { deepEqual, isObject, objectField } from '../../core/json.ts';
import { isDNS1123Label } from '../validation/names.ts';
import { portNameErrors, portNumberErrors } from '../validation/ports.ts';

/** A container's ports, as validateContainerPorts: names IANA service names unique in the container, numbers 1–65535, a protocol Kubernetes knows. */
function validateContainerPorts(ports: unknown, path: string): FieldError[] {
  if (!Array.isArray(ports)) return [];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((p, i) => {
    const at = `${path}[${i}]`;
    const port = isObject(p) ? p : {};
    const name = typeof port['name'] === 'string' ? port['name'] : '';
    if (name !== '') {
      const msgs = portNameErrors(name);
      for (const msg of msgs) errs.push(fieldError.invalid(`${at}.name`, name, msg));
      if (msgs.length === 0 && names.has(name)) errs.push(fieldError.duplicate(`${at}.name`, name));
      else if (msgs.length === 0) names.add(name);
    }
    const containerPort = typeof port['containerPort'] === 'number' ? port['containerPort'] : 0;
    if (containerPort === 0) errs.push(fieldError.required(`${at}.containerPort`));
    else for (const msg of portNumberErrors(containerPort)) errs.push(fieldError.invalid(`${at}.containerPort`, containerPort, msg));
    const hostPort = typeof port['hostPort'] === 'number' ? port['hostPort'] : 0;
    if (hostPort !== 0) for (const msg of portNumberErrors(hostPort)) errs.push(fieldError.invalid(`${at}.hostPort`, hostPort, msg));
    const protocol = typeof port['protocol'] === 'string' ? port['protocol'] : '';
    if (protocol === '') errs.push(fieldError.required(`${at}.protocol`));
    else if (!portProtocols.includes(protocol)) errs.push(fieldError.notSupported(`${at}.protocol`, protocol, portProtocols));
  });
  return errs;
}

const portProtocols = ['SCTP', 'TCP', 'UDP'];

/**
 * Each container's own checks (name, image, ports: validateContainerCommon), then its name's
 * uniqueness among the containers before it, as validateContainers orders them.
 */
function validateContainers(list: unknown, path: string, required: boolean): FieldError[] {
  if (!Array.isArray(list) || list.length === 0) return required ? [fieldError.required(path)] : [];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  list.forEach((c, i) => {
    const at = `${path}[${i}]`;
    const name = isObject(c) && typeof c['name'] === 'string' ? c['name'] : '';
    if (name === '') errs.push(fieldError.required(`${at}.name`));
    else for (const msg of isDNS1123Label(name)) errs.push(fieldError.invalid(`${at}.name`, name, msg));
    if (!isObject(c) || typeof c['image'] !== 'string' || c['image'] === '') errs.push(fieldError.required(`${at}.image`));
    if (isObject(c)) errs.push(...validateContainerPorts(c['ports'], `${at}.ports`));
    if (seen.has(name)) errs.push(fieldError.duplicate(`${at}.name`, name));
    seen.add(name);
  });
  return errs;
}

export function validatePod(obj: KubeObject): FieldError[] {
  const spec = objectField(obj, 'spec');
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

export function validatePodUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs = validatePod(obj);
  if (!deepEqual(immutablePart(obj['spec']), immutablePart(old['spec']))) errs.push(fieldError.forbidden('spec', mutableSpecMessage));
  return errs;
}
