/**
 * List and watch options: selectors (400 on parse errors and unsupported fields), limit,
 * continue, resourceVersion and resourceVersionMatch with the ListOptions validation of
 * apimachinery (422 `ListOptions.meta.k8s.io "" is invalid: …`).
 */
import type { KubeObject } from '../api/meta.ts';
import { fieldError, type FieldError } from '../core/fieldErrors.ts';
import { errors, type ApiError } from '../core/status.ts';
import type { ResourceType } from '../registry/types.ts';
import { decodeContinue, type ContinueToken } from '../store/continueToken.ts';
import { matchesLabels } from '../registry/selectors/matchesLabels.ts';
import { parseLabelSelector } from '../registry/selectors/parseLabelSelector.ts';
import { matchesFields, parseFieldSelector, fieldSelectorRequirements, unsupportedFieldMessage } from '../registry/selectors/fieldSelector.ts';
import { integerParam, optionsInvalid, parseBool, type Params } from './query.ts';

export interface ListQuery {
  readonly filter?: (obj: KubeObject) => boolean;
  readonly filtered: boolean;
  readonly limit?: number;
  readonly continueToken?: ContinueToken;
  readonly resourceVersion?: number;
  readonly resourceVersionMatch?: 'Exact' | 'NotOlderThan';
  readonly watch: boolean;
  readonly allowWatchBookmarks: boolean;
  readonly sendInitialEvents?: boolean;
  readonly timeoutSeconds?: number;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; error: ApiError };

function selectorFilter(rt: ResourceType, params: Params): Parsed<{ filter?: (o: KubeObject) => boolean; filtered: boolean }> {
  const filters: ((o: KubeObject) => boolean)[] = [];
  const ls = params.get('labelSelector');
  if (ls !== null && ls.trim() !== '') {
    const parsed = parseLabelSelector(ls);
    if (!parsed.ok) return { ok: false, error: errors.badRequest(parsed.message) };
    filters.push((o) => matchesLabels(parsed.selector, o.metadata.labels));
  }
  const fs = params.get('fieldSelector');
  if (fs !== null && fs.trim() !== '') {
    const parsed = parseFieldSelector(fs);
    if (!parsed.ok) return { ok: false, error: errors.badRequest(parsed.message) };
    for (const req of fieldSelectorRequirements(parsed.selector)) {
      if (!rt.fieldSelectors.fields.includes(req.field)) {
        return { ok: false, error: errors.badRequest(unsupportedFieldMessage(req.field, rt.fieldSelectors.custom ? 'custom' : rt.fieldSelectors.fields)) };
      }
    }
    filters.push((o) => matchesFields(parsed.selector, rt.fieldSelectors.extract(o)));
  }
  if (filters.length === 0) return { ok: true, value: { filtered: false } };
  return { ok: true, value: { filter: (o) => filters.every((f) => f(o)), filtered: true } };
}

function validateListOptions(watch: boolean, rv: string | null, match: string | null, cont: string | null, sendInitialEvents: boolean | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const hasMatch = match !== null && match !== '';
  if (!watch) {
    if (hasMatch && (rv === null || rv === '')) errs.push(fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if (hasMatch && cont !== null && cont !== '') errs.push(fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    if (hasMatch && match !== 'Exact' && match !== 'NotOlderThan') errs.push(fieldError.notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
    if (match === 'Exact' && rv === '0') errs.push(fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
    if (sendInitialEvents !== undefined) errs.push(fieldError.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
    return errs;
  }
  if (sendInitialEvents !== undefined && match !== 'NotOlderThan') errs.push(fieldError.forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
  else if (sendInitialEvents === undefined && hasMatch) errs.push(fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
  else if (hasMatch && match !== 'NotOlderThan') errs.push(fieldError.notSupported('resourceVersionMatch', match, ['NotOlderThan']));
  if (hasMatch && cont !== null && cont !== '') errs.push(fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
  return errs;
}

export function parseListQuery(rt: ResourceType, params: Params): Parsed<ListQuery> {
  const sel = selectorFilter(rt, params);
  if (!sel.ok) return sel;
  const watch = parseBool(params.get('watch')) === true;
  const limit = integerParam(params, 'limit');
  if (!limit.ok) return limit;
  const timeout = integerParam(params, 'timeoutSeconds');
  if (!timeout.ok) return timeout;
  const rvText = params.get('resourceVersion');
  let resourceVersion: number | undefined;
  if (rvText !== null && rvText !== '') {
    if (!/^\d+$/.test(rvText)) return { ok: false, error: errors.badRequest(`invalid resource version: strconv.ParseUint: parsing ${JSON.stringify(rvText)}: invalid syntax`) };
    resourceVersion = Number(rvText);
  }
  const contText = params.get('continue');
  const sie = params.get('sendInitialEvents');
  const sendInitialEvents = sie === null ? undefined : parseBool(sie) === true;
  const match = params.get('resourceVersionMatch');
  const errs = validateListOptions(watch, rvText, match, contText, sendInitialEvents);
  if (errs.length > 0) return { ok: false, error: optionsInvalid('ListOptions', errs) };
  let continueToken: ContinueToken | undefined;
  if (contText !== null && contText !== '') {
    if (resourceVersion !== undefined && resourceVersion !== 0) return { ok: false, error: errors.badRequest('specifying resource version is not allowed when using continue') };
    const decoded = decodeContinue(contText);
    if (!decoded.ok) return { ok: false, error: errors.badRequest(`invalid continue token: ${decoded.reason}`) };
    continueToken = decoded.token;
  }
  const value: ListQuery = {
    ...sel.value,
    watch,
    allowWatchBookmarks: parseBool(params.get('allowWatchBookmarks')) === true,
    ...(limit.value === undefined ? {} : { limit: limit.value }),
    ...(continueToken === undefined ? {} : { continueToken }),
    ...(resourceVersion === undefined ? {} : { resourceVersion }),
    ...(match === 'Exact' || match === 'NotOlderThan' ? { resourceVersionMatch: match } : {}),
    ...(sendInitialEvents === undefined ? {} : { sendInitialEvents }),
    ...(timeout.value === undefined ? {} : { timeoutSeconds: timeout.value }),
  };
  return { ok: true, value };
}
