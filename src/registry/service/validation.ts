/**
 * Service validation: ValidateService, validateServicePort, ValidateServiceClusterIPsRelatedFields
 * and the clusterIPs part of ValidateServiceUpdate (pkg/apis/core/validation/validation.go), in
 * the order Go appends them. A changed cluster IP is `may not change once set` on
 * `spec.clusterIPs[0]`, the real wording (not the generic `field is immutable`). Bad values
 * that Go marshals from internal structs (a duplicate port) are rendered the same way: JSON with
 * the Go field names.
 */
import type { KubeObject } from '../../api/meta.ts';
import { fieldError, type FieldError } from '../../core/fieldErrors.ts';
import { isObject, type JsonObject, type JsonValue } from '../../core/json.ts';
import { validateLabels } from '../validation/objectMeta.ts';
import { isDNS1123Label, isDNS1123Subdomain } from '../validation/names.ts';
import { inServiceCIDR, notInRangeMessage } from './allocation.ts';
import { isHeadless } from './defaults.ts';
import { isDNS1035Label } from './names.ts';
import { portNameErrors } from '../validation/ports.ts';
import { ipErrors, parseIPv4 } from './ipv4.ts';

const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});
const list = (v: unknown): JsonValue[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

const protocols = ['SCTP', 'TCP', 'UDP'];
const serviceTypes = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const affinities = ['ClientIP', 'None'];
const families = ['IPv4', 'IPv6'];
const familyPolicies = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const trafficPolicies = ['Cluster', 'Local'];

/** NameIsDNS1035Label for the name, and for generateName with the trailing dash masked. */
function validateName(svc: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const gen = svc.metadata.generateName ?? '';
  if (gen !== '') {
    const masked = gen.length > 1 && gen.endsWith('-') ? `${gen.slice(0, -2)}a` : gen;
    for (const msg of isDNS1035Label(masked)) errs.push(fieldError.invalid('metadata.generateName', gen, msg));
  }
  const name = svc.metadata.name ?? '';
  if (name !== '') for (const msg of isDNS1035Label(name)) errs.push(fieldError.invalid('metadata.name', name, msg));
  return errs;
}

function validatePortNumOrName(value: JsonValue | undefined, path: string): FieldError[] {
  if (typeof value === 'number') return value >= 1 && value <= 65535 ? [] : [fieldError.invalid(path, value, 'must be between 1 and 65535, inclusive')];
  return portNameErrors(str(value)).map((msg) => fieldError.invalid(path, str(value), msg));
}

function validatePort(port: JsonObject, at: string, requireName: boolean, names: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(port['name']);
  if (requireName && name === '') errs.push(fieldError.required(`${at}.name`));
  else if (name !== '') {
    for (const msg of isDNS1123Label(name)) errs.push(fieldError.invalid(`${at}.name`, name, msg));
    if (names.has(name)) errs.push(fieldError.duplicate(`${at}.name`, name));
    else names.add(name);
  }
  const num = typeof port['port'] === 'number' ? port['port'] : 0;
  if (num < 1 || num > 65535) errs.push(fieldError.invalid(`${at}.port`, num, 'must be between 1 and 65535, inclusive'));
  const protocol = str(port['protocol']);
  if (protocol === '') errs.push(fieldError.required(`${at}.protocol`));
  else if (!protocols.includes(protocol)) errs.push(fieldError.notSupported(`${at}.protocol`, protocol, protocols));
  return [...errs, ...validatePortNumOrName(port['targetPort'], `${at}.targetPort`)];
}

function validateTypeSpecific(spec: JsonObject): FieldError[] {
  const headless = isHeadless(spec);
  const errs: FieldError[] = [];
  const type = spec['type'];
  if ((type === 'LoadBalancer' || type === 'NodePort') && headless) {
    errs.push(fieldError.invalid('spec.clusterIPs[0]', list(spec['clusterIPs'])[0] ?? 'None', `may not be set to 'None' for ${type} services`));
  }
  if (type !== 'ExternalName') return errs;
  if (list(spec['clusterIPs']).length > 0) errs.push(fieldError.forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
  if (list(spec['ipFamilies']).length > 0) errs.push(fieldError.forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
  if (spec['ipFamilyPolicy'] !== undefined) errs.push(fieldError.forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
  const cname = str(spec['externalName']).replace(/\.$/, '');
  if (cname === '') errs.push(fieldError.required('spec.externalName'));
  else for (const msg of isDNS1123Subdomain(cname)) errs.push(fieldError.invalid('spec.externalName', cname, msg));
  return errs;
}

/** ValidateServiceClusterIPsRelatedFields, for a single-stack IPv4 cluster. */
function validateClusterIPs(spec: JsonObject): FieldError[] {
  if (spec['type'] === 'ExternalName') return [];
  const errs: FieldError[] = [];
  const ip = str(spec['clusterIP']);
  const ips = list(spec['clusterIPs']).map(str);
  if (ip !== '') {
    if (ips.length === 0) errs.push(fieldError.required('spec.clusterIPs'));
    else if (ips[0] !== ip) errs.push(fieldError.invalid('spec.clusterIPs', ips, 'first value must match `clusterIP`'));
  } else if (ips.length > 0) errs.push(fieldError.invalid('spec.clusterIPs', ips, 'must be empty when `clusterIP` is not specified'));
  const seen = new Set<string>();
  list(spec['ipFamilies']).forEach((f, i) => {
    if (!families.includes(str(f))) errs.push(fieldError.notSupported(`spec.ipFamilies[${i}]`, f, families));
    if (seen.has(str(f))) errs.push(fieldError.duplicate(`spec.ipFamilies[${i}]`, f));
    seen.add(str(f));
  });
  const policy = spec['ipFamilyPolicy'];
  if (policy !== undefined && policy !== null && !familyPolicies.includes(str(policy))) errs.push(fieldError.notSupported('spec.ipFamilyPolicy', policy, familyPolicies));
  let invalidIPs = false;
  ips.forEach((value, i) => {
    if (i === 0 && value === 'None') {
      if (ips.length > 1) {
        invalidIPs = true;
        errs.push(fieldError.invalid('spec.clusterIPs', ips, "'None' must be the first and only value"));
      }
      return;
    }
    for (const msg of ipErrors(value)) {
      invalidIPs = true;
      errs.push(fieldError.invalid(`spec.clusterIPs[${i}]`, value, msg));
    }
  });
  if (ips.length > 2) errs.push(fieldError.invalid('spec.clusterIPs', ips, 'may only hold up to 2 values'));
  if (!invalidIPs && ips.length > 1 && ips[0]!.includes(':') === ips[1]!.includes(':')) {
    errs.push(fieldError.invalid('spec.clusterIPs', ips, 'may specify no more than one IP for each IP family'));
  }
  return errs;
}

/** Duplicate (protocol, port) pairs; the bad value is the internal ServicePort key as Go marshals it. */
function duplicatePorts(ports: JsonObject[]): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  ports.forEach((p, i) => {
    const key = `${str(p['protocol'])}/${String(p['port'] ?? 0)}`;
    if (seen.has(key)) {
      const shown = { Name: '', Protocol: str(p['protocol']), AppProtocol: null, Port: p['port'] ?? 0, TargetPort: 0, NodePort: 0 };
      errs.push(fieldError.duplicate(`spec.ports[${i}]`, shown));
    }
    seen.add(key);
  });
  return errs;
}

export function validateService(svc: KubeObject): FieldError[] {
  const spec = obj(svc['spec']);
  const ports = list(spec['ports']).map(obj);
  const errs = validateName(svc);
  if (ports.length === 0 && !isHeadless(spec) && spec['type'] !== 'ExternalName') errs.push(fieldError.required('spec.ports'));
  errs.push(...validateTypeSpecific(spec));
  const names = new Set<string>();
  ports.forEach((p, i) => errs.push(...validatePort(p, `spec.ports[${i}]`, ports.length > 1, names)));
  if (isObject(spec['selector'])) errs.push(...validateLabels(spec['selector'] as Record<string, string>, 'spec.selector'));
  const affinity = str(spec['sessionAffinity']);
  if (affinity === '') errs.push(fieldError.required('spec.sessionAffinity'));
  else if (!affinities.includes(affinity)) errs.push(fieldError.notSupported('spec.sessionAffinity', affinity, affinities));
  errs.push(...validateClusterIPs(spec));
  list(spec['externalIPs']).forEach((ip, i) => ipErrors(str(ip)).forEach((msg) => errs.push(fieldError.invalid(`spec.externalIPs[${i}]`, ip, msg))));
  const type = str(spec['type']);
  if (type === '') errs.push(fieldError.required('spec.type'));
  else if (!serviceTypes.includes(type)) errs.push(fieldError.notSupported('spec.type', type, serviceTypes));
  if (type === 'ClusterIP') {
    ports.forEach((p, i) => p['nodePort'] && errs.push(fieldError.forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'")));
  }
  errs.push(...duplicatePorts(ports));
  const internal = spec['internalTrafficPolicy'];
  if (internal === undefined || internal === null) {
    if (['NodePort', 'LoadBalancer', 'ClusterIP'].includes(type)) errs.push(fieldError.required('spec.internalTrafficPolicy'));
  } else if (!trafficPolicies.includes(str(internal))) errs.push(fieldError.notSupported('spec.internalTrafficPolicy', internal, trafficPolicies));
  return errs;
}

/** Create only: the allocator refuses an address outside the service range before validation runs. */
export function validateServiceCreate(svc: KubeObject): FieldError[] {
  const spec = obj(svc['spec']);
  const ips = list(spec['clusterIPs']).map(str);
  const requested = ips[0] ?? '';
  if (spec['type'] !== 'ExternalName' && parseIPv4(requested).ok && ipErrors(requested).length === 0 && !inServiceCIDR(requested)) {
    return [fieldError.invalid('spec.clusterIPs', ips, notInRangeMessage(requested))];
  }
  return validateService(svc);
}

/** validateUpgradeDowngradeClusterIPs for a single-stack cluster, then ValidateService. */
export function validateServiceUpdate(svc: KubeObject, old: KubeObject): FieldError[] {
  const spec = obj(svc['spec']);
  const before = obj(old['spec']);
  const errs: FieldError[] = [];
  const skip = spec['type'] === 'ExternalName' || before['type'] === 'ExternalName' || (isHeadless(spec) && isHeadless(before));
  if (!skip) {
    const ips = list(spec['clusterIPs']).map(str);
    const oldIPs = list(before['clusterIPs']).map(str);
    if (ips.length === oldIPs.length) {
      oldIPs.forEach((ip, i) => ip !== ips[i] && errs.push(fieldError.invalid(`spec.clusterIPs[${i}]`, ips, 'may not change once set')));
    } else if (oldIPs.length > ips.length) {
      if (ips.length === 0) errs.push(fieldError.invalid('spec.clusterIPs[0]', ips, 'primary clusterIP can not be unset'));
      else if (ips[0] !== oldIPs[0]) errs.push(fieldError.invalid('spec.clusterIPs[0]', ips, 'may not change once set'));
    } else if (oldIPs.length > 0 && ips[0] !== oldIPs[0]) errs.push(fieldError.invalid('spec.clusterIPs[0]', ips, 'may not change once set'));
  }
  return [...errs, ...validateService(svc)];
}
