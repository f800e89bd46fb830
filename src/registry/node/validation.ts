/**
 * Node validation (ValidateNode and ValidateNodeUpdate in pkg/apis/core/validation). Quirks kept
 * on purpose: taint errors are reported under `metadata.taints`, as the real code does, and the
 * duplicate-taint bad value is the internal Go struct as JSON (capitalised field names).
 */
import type { KubeObject } from '../../api/meta.ts';
import { fieldError, type FieldError } from '../../core/fieldErrors.ts';
import { deepEqual, isObject, type JsonObject } from '../../core/json.ts';
import { isQualifiedName, isValidLabelValue } from '../validation/names.ts';
import { parseQuantity, quantityFormatMessage } from '../persistent-volume-claim/quantity.ts';
import { cidrErrors } from '../service/ipv4.ts';

const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

function validateTaints(taints: unknown[]): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  taints.forEach((t, i) => {
    const at = `metadata.taints[${i}]`;
    const taint = obj(t);
    const key = str(taint['key']);
    const value = str(taint['value']);
    const effect = str(taint['effect']);
    for (const msg of isQualifiedName(key)) errs.push(fieldError.invalid(`${at}.key`, key, msg));
    const valueErrs = isValidLabelValue(value);
    if (valueErrs.length > 0) errs.push(fieldError.invalid(`${at}.value`, value, valueErrs.join(';')));
    if (effect === '') errs.push(fieldError.required(`${at}.effect`));
    else if (!taintEffects.includes(effect)) errs.push(fieldError.notSupported(`${at}.effect`, effect, taintEffects));
    const id = JSON.stringify([effect, key]);
    if (seen.has(id)) {
      const shown = { Key: key, Value: value, Effect: effect, TimeAdded: taint['timeAdded'] ?? null };
      errs.push({ ...fieldError.duplicate(at, shown), detail: 'taints must be unique by key and effect pair' });
      return;
    }
    seen.add(id);
  });
  return errs;
}

function validateResources(status: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  for (const field of ['capacity', 'allocatable']) {
    const resources = obj(status[field]);
    for (const name of Object.keys(resources).sort()) {
      const q = resources[name];
      if (parseQuantity(q) === null) errs.push(fieldError.invalid(`status.${field}.${name}`, q, quantityFormatMessage));
      else if ((parseQuantity(q) ?? 0) < 0) errs.push(fieldError.invalid(`status.${field}.${name}`, String(q), 'must be greater than or equal to 0'));
    }
  }
  return errs;
}

function validatePodCIDRs(cidrs: unknown[]): FieldError[] {
  const errs: FieldError[] = [];
  cidrs.forEach((c, i) => {
    for (const msg of cidrErrors(str(c))) errs.push(fieldError.invalid(`spec.podCIDRs[${i}]`, c, msg));
  });
  if (cidrs.length <= 1) return errs;
  const families = cidrs.map((c) => (str(c).includes(':') ? 6 : 4));
  if (cidrs.length > 2 || families[0] === families[1]) errs.push(fieldError.invalid('spec.podCIDRs', cidrs, 'may specify no more than one CIDR for each IP family'));
  const seen = new Set<unknown>();
  cidrs.forEach((c, i) => {
    if (seen.has(c)) errs.push(fieldError.duplicate(`spec.podCIDRs[${i}]`, c));
    seen.add(c);
  });
  return errs;
}

export function validateNode(node: KubeObject): FieldError[] {
  const spec = obj(node['spec']);
  return [...validateTaints(list(spec['taints'])), ...validateResources(obj(node['status'])), ...validatePodCIDRs(list(spec['podCIDRs']))];
}

const podCIDRChange = 'node updates may not change podCIDR except from "" to valid';

/** ValidateNodeUpdate: also what the status subresource runs. */
export function validateNodeUpdateOnly(node: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateResources(obj(node['status']));
  const addresses = list(obj(node['status'])['addresses']);
  addresses.forEach((a, i) => {
    if (addresses.slice(0, i).some((b) => deepEqual(a, b))) errs.push(fieldError.duplicate(`status.addresses[${i}]`, a));
  });
  const oldCIDRs = list(obj(old['spec'])['podCIDRs']);
  const newCIDRs = list(obj(node['spec'])['podCIDRs']);
  if (oldCIDRs.length > 0) {
    if (oldCIDRs.length !== newCIDRs.length) errs.push(fieldError.forbidden('spec.podCIDRs', podCIDRChange));
    else oldCIDRs.forEach((c, i) => c !== newCIDRs[i] && errs.push(fieldError.forbidden('spec.podCIDRs', podCIDRChange)));
  }
  const oldProvider = str(obj(old['spec'])['providerID']);
  if (oldProvider !== '' && oldProvider !== str(obj(node['spec'])['providerID'])) {
    errs.push(fieldError.forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'));
  }
  const taints = list(obj(node['spec'])['taints']);
  if (taints.length > 0) errs.push(...validateTaints(taints));
  if (str(obj(node['spec'])['externalID']) !== str(obj(old['spec'])['externalID'])) errs.push(fieldError.forbidden('spec.externalID', 'may not be updated'));
  return errs;
}
