/**
 * StatefulSet validation (pkg/apis/apps/validation: ValidateStatefulSet, ValidateStatefulSetUpdate,
 * ValidateStatefulSetStatus), in production order with the real messages. The pod template's
 * PodSpec is not validated here, as in Kubernetes: a bad template fails when pods are created.
 */
import type { KubeObject } from '../../api/meta.ts';
import { fieldError, type FieldError } from '../../core/fieldErrors.ts';
import { deepEqual, getOwn, isObject, type JsonObject, type JsonValue } from '../../core/json.ts';
import { labelSelectorFromObject, type LabelSelectorObject } from '../selectors/labelSelectorObject.ts';
import { labelSelectorIsEmpty, matchesLabels } from '../selectors/matchesLabels.ts';
import { validateAnnotations, validateLabels } from '../validation/objectMeta.ts';

const nonNegative = 'must be greater than or equal to 0';
const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});

function intOrPercent(v: JsonValue, at: string): FieldError[] {
  if (typeof v === 'number') {
    if (v < 0) return [fieldError.invalid(at, v, nonNegative)];
    return v === 0 ? [fieldError.invalid(at, v, 'cannot be 0')] : [];
  }
  if (typeof v !== 'string') return [];
  const errs: FieldError[] = [];
  if (!/^[0-9]+%$/.test(v)) errs.push(fieldError.invalid(at, v, "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"));
  const n = Number.parseInt(v, 10);
  const value = Number.isNaN(n) ? 0 : n;
  if (value === 0) errs.push(fieldError.invalid(at, v, 'cannot be 0'));
  else if (value > 100 && /%$/.test(v)) errs.push(fieldError.invalid(at, v, 'must not be greater than 100%'));
  return errs;
}

/**
 * The strategy as the real validation holds it: the internal Go type, whose JSON (how v1.34 shows
 * a complex bad value) has Go field names and no omitted fields; partition is defaulted to 0
 * whenever rollingUpdate is given, maxUnavailable stays null unless set.
 */
function internalRollingUpdate(ru: unknown): JsonObject | null {
  if (!isObject(ru)) return null;
  return { Partition: typeof ru['partition'] === 'number' ? ru['partition'] : 0, MaxUnavailable: ru['maxUnavailable'] ?? null };
}

function validateStrategy(spec: JsonObject): FieldError[] {
  const strategy = obj(spec['updateStrategy']);
  const type = strategy['type'];
  const errs: FieldError[] = [];
  if (type === undefined || type === '') return [fieldError.required('spec.updateStrategy')];
  if (type === 'OnDelete') {
    if (strategy['rollingUpdate'] !== undefined) errs.push(fieldError.invalid('spec.updateStrategy.rollingUpdate', internalRollingUpdate(strategy['rollingUpdate']), "only allowed for updateStrategy 'RollingUpdate'"));
  } else if (type === 'RollingUpdate') {
    const ru = strategy['rollingUpdate'];
    if (isObject(ru)) {
      const p = ru['partition'];
      if (typeof p === 'number' && p < 0) errs.push(fieldError.invalid('spec.updateStrategy.rollingUpdate.partition', p, nonNegative));
      const mu = ru['maxUnavailable'];
      if (mu !== undefined) errs.push(...intOrPercent(mu, 'spec.updateStrategy.rollingUpdate.maxUnavailable'));
    }
  } else errs.push(fieldError.invalid('spec.updateStrategy', { Type: type, RollingUpdate: internalRollingUpdate(strategy['rollingUpdate']) }, "must be 'RollingUpdate' or 'OnDelete'"));
  return errs;
}

export function validateStatefulSetSpec(o: KubeObject): FieldError[] {
  const spec = obj(o['spec']);
  const errs: FieldError[] = [];
  const pmp = spec['podManagementPolicy'];
  if (pmp === undefined || pmp === '') errs.push(fieldError.required('spec.podManagementPolicy'));
  else if (pmp !== 'OrderedReady' && pmp !== 'Parallel') errs.push(fieldError.invalid('spec.podManagementPolicy', pmp, "must be 'OrderedReady' or 'Parallel'"));
  errs.push(...validateStrategy(spec));
  const retention = obj(spec['persistentVolumeClaimRetentionPolicy']);
  for (const k of ['whenDeleted', 'whenScaled']) {
    const v = retention[k];
    if (v !== 'Retain' && v !== 'Delete') errs.push(fieldError.notSupported(`spec.persistentVolumeClaimRetentionPolicy.${k}`, v, ['Retain', 'Delete']));
  }
  for (const k of ['replicas', 'minReadySeconds']) {
    const v = spec[k];
    if (typeof v === 'number' && v < 0) errs.push(fieldError.invalid(`spec.${k}`, v, nonNegative));
  }
  if (isObject(spec['ordinals'])) {
    const start = spec['ordinals']['start'];
    if (typeof start === 'number' && start < 0) errs.push(fieldError.invalid('spec.ordinals.start', start, nonNegative));
  }
  const template = obj(spec['template']);
  const templateMeta = obj(template['metadata']);
  const templateLabels = isObject(templateMeta['labels']) ? (templateMeta['labels'] as Record<string, string>) : undefined;
  if (spec['selector'] === undefined) errs.push(fieldError.required('spec.selector'));
  else {
    const sel = labelSelectorFromObject(spec['selector'] as LabelSelectorObject, 'spec.selector');
    if (!sel.ok) errs.push(...sel.errors);
    else if (labelSelectorIsEmpty(sel.selector)) errs.push(fieldError.invalid('spec.selector', spec['selector'], 'empty selector is invalid for statefulset'));
  }
  // The template must match the selector (this also fires without a selector: nothing matches).
  const sel = spec['selector'] === undefined ? null : labelSelectorFromObject(spec['selector'] as LabelSelectorObject, 'spec.selector');
  if (sel === null || (sel.ok && !labelSelectorIsEmpty(sel.selector) && !matchesLabels(sel.selector, templateLabels))) {
    errs.push(fieldError.invalid('spec.template.metadata.labels', templateLabels ?? {}, '`selector` does not match template `labels`'));
  }
  errs.push(...validateLabels(templateLabels, 'spec.template.labels'));
  errs.push(...validateAnnotations(isObject(templateMeta['annotations']) ? (templateMeta['annotations'] as Record<string, string>) : undefined, 'spec.template.annotations'));
  const podSpec = obj(template['spec']);
  const restart = podSpec['restartPolicy'];
  if (restart !== 'Always') errs.push(fieldError.notSupported('spec.template.spec.restartPolicy', restart, ['Always']));
  if (podSpec['activeDeadlineSeconds'] !== undefined) errs.push(fieldError.forbidden('spec.template.spec.activeDeadlineSeconds', 'activeDeadlineSeconds in StatefulSet is not Supported'));
  return errs;
}

const mutableFields = ['replicas', 'template', 'updateStrategy', 'minReadySeconds', 'ordinals', 'persistentVolumeClaimRetentionPolicy', 'revisionHistoryLimit'];
const forbiddenUpdate =
  "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

export function validateStatefulSetUpdate(o: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateStatefulSetSpec(o);
  const strip = (spec: JsonObject): JsonObject => Object.fromEntries(Object.entries(spec).filter(([k]) => !mutableFields.includes(k)));
  if (!deepEqual(strip(obj(o['spec'])), strip(obj(old['spec'])))) errs.unshift(fieldError.forbidden('spec', forbiddenUpdate));
  return errs;
}

export function validateStatefulSetStatus(o: KubeObject, old: KubeObject): FieldError[] {
  const st = obj(o['status']);
  const errs: FieldError[] = [];
  const num = (k: string): number | undefined => {
    const v = getOwn(st, k);
    return typeof v === 'number' ? v : undefined;
  };
  for (const k of ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas', 'observedGeneration', 'collisionCount']) {
    const v = num(k);
    if (v !== undefined && v < 0) errs.push(fieldError.invalid(`status.${k}`, v, nonNegative));
  }
  const replicas = num('replicas') ?? 0;
  for (const k of ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas']) {
    const v = num(k);
    if (v !== undefined && v > replicas) errs.push(fieldError.invalid(`status.${k}`, v, 'cannot be greater than status.replicas'));
  }
  const available = num('availableReplicas');
  if (available !== undefined && available > (num('readyReplicas') ?? 0)) errs.push(fieldError.invalid('status.availableReplicas', available, 'cannot be greater than status.readyReplicas'));
  const oldCount = obj(old['status'])['collisionCount'];
  const newCount = num('collisionCount');
  if (typeof oldCount === 'number' && (newCount === undefined || newCount < oldCount)) errs.push(fieldError.invalid('status.collisionCount', newCount ?? null, 'cannot be decremented'));
  return errs;
}
