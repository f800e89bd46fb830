/**
 * legacyValidateEvent (pkg/apis/core/validation/events.go): the only validation core/v1 Events
 * get, on create and update alike (the strict rules belong to events.k8s.io/v1). Old-style
 * events (no eventTime) only need their namespace to agree with the involved object's; new-style
 * events also need the reporting fields. Length errors show `""` as the bad value, as Go does.
 */
import type { KubeObject } from '../../api/meta.ts';
import { fieldError, type FieldError } from '../../core/fieldErrors.ts';
import { objectField } from '../../core/json.ts';
import { limits } from '../../core/limits.ts';
import { isQualifiedName, utf8Length } from '../validation/names.ts';
import type { StrategyContext } from '../types.ts';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function tooLong(path: string, value: string, max: number): FieldError[] {
  return utf8Length(value) > max ? [fieldError.invalid(path, '', `can have at most ${max} characters`)] : [];
}

function namespaceMismatch(involvedNs: string): FieldError {
  return fieldError.invalid('involvedObject.namespace', involvedNs, 'does not match event.namespace');
}

/** New-style events (eventTime set) must name who reported them and what they did. */
function reportingErrors(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const controller = str(obj['reportingComponent']);
  if (controller === '') errs.push(fieldError.required('reportingController'));
  for (const msg of isQualifiedName(controller)) errs.push(fieldError.invalid('reportingController', controller, msg));
  const instance = str(obj['reportingInstance']);
  if (instance === '') errs.push(fieldError.required('reportingInstance'));
  errs.push(...tooLong('reportingInstance', instance, limits.eventReportingInstanceBytesMax));
  const action = str(obj['action']);
  if (action === '') errs.push(fieldError.required('action'));
  errs.push(...tooLong('action', action, limits.eventActionBytesMax));
  const reason = str(obj['reason']);
  if (reason === '') errs.push(fieldError.required('reason'));
  errs.push(...tooLong('reason', reason, limits.eventReasonBytesMax));
  errs.push(...tooLong('message', str(obj['message']), limits.eventNoteBytesMax));
  return errs;
}

export function validateEvent(obj: KubeObject, ctx: StrategyContext): FieldError[] {
  const ns = obj.metadata.namespace ?? '';
  const involved = objectField(obj, 'involvedObject');
  const involvedNs = str(involved['namespace']);
  if (str(obj['eventTime']) === '') {
    // An object without a namespace (a Node) may only have events in `default`.
    if (involvedNs === '' ? ns !== '' && ns !== 'default' : ns !== involvedNs) return [namespaceMismatch(involvedNs)];
    return [];
  }
  const errs: FieldError[] = [];
  // The Go code names kube-system; here it is the system namespace of the names table.
  if (involvedNs === '' && ns !== 'default' && ns !== ctx.names.systemNamespace) errs.push(namespaceMismatch(involvedNs));
  return [...errs, ...reportingErrors(obj)];
}
