/**
 * PersistentVolumeClaim validation (ValidatePersistentVolumeClaimSpec and
 * ValidatePersistentVolumeClaimUpdate in pkg/apis/core/validation/validation.go).
 *
 * Divergences, both deliberate:
 * - The real spec-immutability message ends with a go-cmp diff of the two specs; that diff is
 *   an implementation detail of Go's cmp package and is left out.
 * - A malformed storage quantity is rejected by the real decoder (400); here validation reports
 *   it as an Invalid cause at `spec.resources[storage]` with the decoder's wording.
 */
import type { KubeObject } from '../../api/meta.ts';
import { fieldError, type FieldError } from '../../core/fieldErrors.ts';
import { deepEqual, isObject, setOwn, type JsonValue, type JsonObject } from '../../core/json.ts';
import { isDNS1123Subdomain } from '../validation/names.ts';
import { parseQuantity, quantityFormatMessage } from './quantity.ts';

const supportedAccessModes = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const supportedVolumeModes = ['Block', 'Filesystem'];

export const immutableSpecMessage = 'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims';

const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});
const specOf = (o: KubeObject): JsonObject => obj(o['spec']);
const requestsOf = (spec: JsonObject): JsonObject => obj(obj(spec['resources'])['requests']);

function validateAccessModes(spec: JsonObject): FieldError[] {
  const modes = Array.isArray(spec['accessModes']) ? spec['accessModes'] : [];
  if (modes.length === 0) return [fieldError.required('spec.accessModes', 'at least 1 access mode is required')];
  const errs: FieldError[] = [];
  let oncePod = false;
  let other = false;
  for (const mode of modes) {
    if (!supportedAccessModes.includes(String(mode))) errs.push(fieldError.notSupported('spec.accessModes', mode, supportedAccessModes));
    else if (mode === 'ReadWriteOncePod') oncePod = true;
    else other = true;
  }
  if (oncePod && other) errs.push(fieldError.forbidden('spec.accessModes', 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}

function validateStorageRequest(spec: JsonObject): FieldError[] {
  const requests = requestsOf(spec);
  const path = 'spec.resources[storage]';
  if (!Object.prototype.hasOwnProperty.call(requests, 'storage')) return [fieldError.required(path)];
  const raw = requests['storage'];
  const size = parseQuantity(raw);
  if (size === null) return [fieldError.invalid(path, raw, quantityFormatMessage)];
  return size > 0 ? [] : [fieldError.invalid(path, String(raw), 'must be greater than zero')];
}

export function validatePvcSpec(o: KubeObject): FieldError[] {
  const spec = specOf(o);
  const errs = [...validateAccessModes(spec), ...validateStorageRequest(spec)];
  const className = spec['storageClassName'];
  if (typeof className === 'string' && className !== '') {
    for (const msg of isDNS1123Subdomain(className)) errs.push(fieldError.invalid('spec.storageClassName', className, msg));
  }
  const mode = spec['volumeMode'];
  if (mode !== undefined && mode !== null && !supportedVolumeModes.includes(String(mode))) errs.push(fieldError.notSupported('spec.volumeMode', mode, supportedVolumeModes));
  return errs;
}

/** The spec with what an update may change blanked out, old and new alike. */
function comparableSpecs(newer: KubeObject, older: KubeObject): { a: JsonObject; b: JsonObject } {
  const a: JsonObject = { ...specOf(newer) };
  const b: JsonObject = { ...specOf(older) };
  // The volume binder may set volumeName once.
  if ((b['volumeName'] ?? '') === '') setOrDelete(b, 'volumeName', a['volumeName']);
  // A claim without a class may get one later (upgrade from nil).
  if (b['storageClassName'] === undefined && a['storageClassName'] !== undefined) setOrDelete(a, 'storageClassName', undefined);
  const bound = obj(newer['status'])['phase'] === 'Bound';
  if (bound) {
    const requests = { ...requestsOf(a) };
    setOrDelete(requests, 'storage', requestsOf(b)['storage']);
    a['resources'] = { ...obj(a['resources']), requests };
    if (a['volumeAttributesClassName'] !== undefined) setOrDelete(a, 'volumeAttributesClassName', b['volumeAttributesClassName']);
  }
  return { a, b };
}

function setOrDelete(target: JsonObject, key: string, value: unknown): void {
  if (value === undefined) delete target[key];
  else setOwn(target, key, value as JsonValue);
}

export function validatePvcUpdate(newer: KubeObject, older: KubeObject): FieldError[] {
  const errs = validatePvcSpec(newer);
  const { a, b } = comparableSpecs(newer, older);
  if (!deepEqual(a, b)) errs.push(fieldError.forbidden('spec', immutableSpecMessage));
  const newSize = parseQuantity(requestsOf(specOf(newer))['storage']);
  const oldSize = parseQuantity(requestsOf(specOf(older))['storage']);
  const statusSize = parseQuantity(obj(obj(older['status'])['capacity'])['storage']) ?? 0;
  // RecoverVolumeExpansionFailure (on by default): shrinking is fine down to, not below, status.capacity.
  if (newSize !== null && oldSize !== null && newSize < oldSize && newSize <= statusSize) {
    errs.push(fieldError.forbidden('spec.resources.requests.storage', 'field can not be less than status.capacity'));
  }
  const newMode = specOf(newer)['volumeMode'];
  if (newMode !== specOf(older)['volumeMode']) errs.push(fieldError.immutable('volumeMode', newMode ?? null));
  return errs;
}
