/**
 * ObjectMeta validation on create and update, with apimachinery's messages and paths
 * (pkg/api/validation/objectmeta.go, pkg/apis/meta/v1/validation/validation.go,
 * apiserver pkg/registry/rest/{create,update}.go).
 *
 * Rules:
 * - Create = ValidateObjectMetaAccessor with the kind's name rule: generateName (suffix in mind),
 *   name, namespace (required / forbidden), generation ≥ 0, labels, annotations, ownerReferences,
 *   finalizers. Name generation has already happened, so an empty name means neither was given.
 * - Update = the same checks on the new object (the apiserver runs them in validateCommonFields)
 *   plus ValidateObjectMetaAccessorUpdate: no new finalizers while deleting, generation not
 *   decremented, name/namespace/uid/creationTimestamp/deletionTimestamp/
 *   deletionGracePeriodSeconds immutable. The empty-resourceVersion check of that function is
 *   left to store/ops/update.ts, which knows whether the kind allows unconditional updates.
 * - Kubernetes runs the metadata checks several times on update (validateCommonFields, then the
 *   kind's ValidateUpdate), so a cause can repeat there; here each check runs once. The message
 *   drops repeated errors either way (field.ErrorList.ToAggregate).
 * - Order: Kubernetes' check order, never re-sorted (name / generateName, namespace, generation,
 *   labels, annotations, ownerReferences, finalizers; on update then the update-only checks);
 *   only maps, which Go walks in random order, are walked in sorted key order.
 * - Not checked: managedFields (the store writes them) and resourceVersion (see above).
 */
import type { ObjectMeta, OwnerReference } from '../../api/meta.ts';
import { fieldError, type FieldError } from '../../core/fieldErrors.ts';
import { goStringSlice, jsonQuote } from '../../core/goFormat.ts';
import { limits } from '../../core/limits.ts';
import { isDNS1123Label, isQualifiedName, isValidLabelValue, nameValidator, utf8Length, type NameRule } from './names.ts';
import { getOwn } from '../../core/json.ts';

export interface ObjectMetaRules {
  readonly namespaced: boolean;
  readonly nameRule: NameRule;
}

function invalidEach(field: string, value: unknown, msgs: readonly string[]): FieldError[] {
  return msgs.map((m) => fieldError.invalid(field, value, m));
}

function sortedKeys(m: Readonly<Record<string, string>>): string[] {
  return Object.keys(m).sort();
}

function validateNames(meta: ObjectMeta, rule: NameRule): FieldError[] {
  const errs: FieldError[] = [];
  const validate = nameValidator[rule];
  const generateName = meta.generateName ?? '';
  if (generateName !== '') errs.push(...invalidEach('metadata.generateName', generateName, validate(generateName, true)));
  const name = meta.name ?? '';
  if (name === '') errs.push(fieldError.required('metadata.name', 'name or generateName is required'));
  else errs.push(...invalidEach('metadata.name', name, validate(name, false)));
  return errs;
}

function validateNamespace(meta: ObjectMeta, namespaced: boolean): FieldError[] {
  const ns = meta.namespace ?? '';
  if (!namespaced) return ns === '' ? [] : [fieldError.forbidden('metadata.namespace', 'not allowed on this type')];
  if (ns === '') return [fieldError.required('metadata.namespace')];
  return invalidEach('metadata.namespace', ns, isDNS1123Label(ns));
}

function validateGeneration(generation: number | undefined): FieldError[] {
  const g = generation ?? 0;
  return g < 0 ? [fieldError.invalid('metadata.generation', g, 'must be greater than or equal to 0')] : [];
}

/** ValidateLabels: key errors carry the key, value errors the value, all at `path`. */
export function validateLabels(labels: Readonly<Record<string, string>> | undefined, path: string): FieldError[] {
  if (labels === undefined || validMaps.has(labels)) return [];
  const errs: FieldError[] = [];
  for (const k of sortedKeys(labels)) {
    const v = getOwn(labels, k) ?? '';
    errs.push(...invalidEach(path, k, isQualifiedName(k)));
    errs.push(...invalidEach(path, v, isValidLabelValue(v)));
  }
  if (errs.length === 0) validMaps.add(labels);
  return errs;
}

/**
 * Label maps found valid, by identity. Validity is a function of the map alone (the path only
 * names where errors are reported), and a stored map never changes: an update that keeps an
 * object's labels (most writes) finds them here instead of matching every key and value against
 * the name rules again. A map read from a saved world is not here until checked once.
 */
const validMaps = new WeakSet<object>();

/** ValidateAnnotations: keys are qualified names once lower-cased; total size ≤ 256 KiB. */
export function validateAnnotations(annotations: Readonly<Record<string, string>> | undefined, path: string): FieldError[] {
  if (annotations === undefined) return [];
  const errs: FieldError[] = [];
  let size = 0;
  for (const k of sortedKeys(annotations)) {
    errs.push(...invalidEach(path, k, isQualifiedName(k.toLowerCase())));
    size += utf8Length(k) + utf8Length(getOwn(annotations, k) ?? '');
  }
  if (size > limits.annotationsBytesMax) errs.push(fieldError.tooLong(path, limits.annotationsBytesMax));
  return errs;
}

/** An owner reference as Go marshals it (field order, omitempty pointers) for bad values. */
function ownerRefJson(ref: OwnerReference): Record<string, unknown> {
  return {
    apiVersion: ref.apiVersion ?? '',
    kind: ref.kind ?? '',
    name: ref.name ?? '',
    uid: ref.uid ?? '',
    ...(ref.controller === undefined ? {} : { controller: ref.controller }),
    ...(ref.blockOwnerDeletion === undefined ? {} : { blockOwnerDeletion: ref.blockOwnerDeletion }),
  };
}

/** schema.ParseGroupVersion: `v`, `g/v`; more slashes is an error; `""` and `/` give no version. */
function parseGroupVersion(apiVersion: string): { group: string; version: string } | undefined {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return undefined;
}

function validateOwnerReference(ref: OwnerReference, at: string): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = ref.apiVersion ?? '';
  const gv = parseGroupVersion(apiVersion);
  if (apiVersion === '') errs.push(fieldError.required(`${at}.apiVersion`, 'must not be empty'));
  else if (gv === undefined || gv.version === '') errs.push(fieldError.invalid(`${at}.apiVersion`, apiVersion, 'must be <group>/<version> or <version>'));
  // v1.34 says Invalid with the empty value (the v1.37 development tree makes these Required).
  for (const f of ['kind', 'name', 'uid'] as const) {
    if ((ref[f] ?? '') === '') errs.push(fieldError.invalid(`${at}.${f}`, '', 'must not be empty'));
  }
  // BannedOwners: only core v1 Event. A malformed apiVersion parses as the empty group/version.
  const { group, version } = gv ?? { group: '', version: '' };
  if (group === '' && version === 'v1' && ref.kind === 'Event') {
    errs.push(fieldError.invalid(at, ownerRefJson(ref), '/v1, Kind=Event is disallowed from being an owner'));
  }
  return errs;
}

/** ValidateOwnerReferences: each reference, then at most one controller (compared with the first). */
export function validateOwnerReferences(refs: readonly OwnerReference[] | undefined, path: string): FieldError[] {
  if (refs === undefined) return [];
  const errs: FieldError[] = [];
  let firstController = '';
  refs.forEach((ref, i) => {
    errs.push(...validateOwnerReference(ref, `${path}[${i}]`));
    if (ref.controller !== true) return;
    const current = `${ref.kind ?? ''}/${ref.name ?? ''}`;
    if (firstController === '') firstController = current;
    else {
      const detail = `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`;
      errs.push(fieldError.invalid(path, refs.map(ownerRefJson), detail));
    }
  });
  return errs;
}

/** ValidateFinalizers: qualified names; `orphan` and `foregroundDeletion` are exclusive. */
export function validateFinalizers(finalizers: readonly string[] | undefined, path: string): FieldError[] {
  if (finalizers === undefined) return [];
  const errs: FieldError[] = [];
  for (const f of finalizers) errs.push(...invalidEach(path, f, isQualifiedName(f)));
  if (finalizers.includes('orphan') && finalizers.includes('foregroundDeletion')) {
    errs.push(fieldError.invalid(path, finalizers, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}

function validateNoNewFinalizers(newer: readonly string[] | undefined, older: readonly string[] | undefined): FieldError[] {
  const old = new Set(older ?? []);
  const extra = [...new Set(newer ?? [])].filter((f) => !old.has(f)).sort();
  if (extra.length === 0) return [];
  return [fieldError.forbidden('metadata.finalizers', `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSlice(extra, jsonQuote)}`)];
}

/**
 * ValidateImmutableField, its error added to `errs`: the bad value is the new value; Go renders an
 * absent time/pointer as null.
 */
function immutable(errs: FieldError[], field: keyof ObjectMeta, newer: ObjectMeta, older: ObjectMeta, zero: string | null): void {
  const a = newer[field] ?? zero;
  const b = older[field] ?? zero;
  if (a !== b) errs.push(fieldError.immutable(`metadata.${field}`, a));
}

function validateUpdateOnly(newer: ObjectMeta, older: ObjectMeta): FieldError[] {
  const errs: FieldError[] = [];
  if ((older.deletionTimestamp ?? '') !== '') errs.push(...validateNoNewFinalizers(newer.finalizers, older.finalizers));
  const g = newer.generation ?? 0;
  if (g < (older.generation ?? 0)) errs.push(fieldError.invalid('metadata.generation', g, 'must not be decremented'));
  immutable(errs, 'name', newer, older, '');
  immutable(errs, 'namespace', newer, older, '');
  immutable(errs, 'uid', newer, older, '');
  immutable(errs, 'creationTimestamp', newer, older, null);
  immutable(errs, 'deletionTimestamp', newer, older, null);
  immutable(errs, 'deletionGracePeriodSeconds', newer, older, null);
  return errs;
}

/** ValidateObjectMetaAccessor, the part shared by create and update. */
function validateCommon(meta: ObjectMeta, rules: ObjectMetaRules): FieldError[] {
  return [
    ...validateNames(meta, rules.nameRule),
    ...validateNamespace(meta, rules.namespaced),
    ...validateGeneration(meta.generation),
    ...validateLabels(meta.labels, 'metadata.labels'),
    ...validateAnnotations(meta.annotations, 'metadata.annotations'),
    ...validateOwnerReferences(meta.ownerReferences, 'metadata.ownerReferences'),
    ...validateFinalizers(meta.finalizers, 'metadata.finalizers'),
  ];
}

/** Metadata errors of an object about to be created (its name already generated). */
export function validateObjectMetaCreate(meta: ObjectMeta, rules: ObjectMetaRules): FieldError[] {
  return validateCommon(meta, rules);
}

/** Metadata errors of an update; `newMeta` already carries the system fields kept from `oldMeta`. */
export function validateObjectMetaUpdate(newMeta: ObjectMeta, oldMeta: ObjectMeta, rules: ObjectMetaRules): FieldError[] {
  return [...validateCommon(newMeta, rules), ...validateUpdateOnly(newMeta, oldMeta)];
}
