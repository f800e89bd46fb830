/**
 * CSR validation on create and on each update path (validation.go): spec (request, usages,
 * signerName, expirationSeconds), conditions, certificate content, and the update-only rules.
 * Ratcheting: a check the stored object already fails is skipped, as upstream.
 *
 * Divergences from Kubernetes required by the spec (docs/divergences.md):
 * - a spec change is rejected (`field is immutable`, one cause per changed field) instead of
 *   dropped, on the main resource, `/approval` and `/status` alike;
 * - `status.certificate` may be set only while an Approved condition exists and no Denied.
 */
import type { KubeObject } from '../../../api/meta.ts';
import { fieldError, type FieldError } from '../../../core/fieldErrors.ts';
import { deepEqual, type JsonObject } from '../../../core/json.ts';
import type { StrategyContext } from '../../types.ts';
import { byteFieldText } from '../byteFields.ts';
import { validateSignerName } from '../signerName.ts';
import { wellKnownSigners } from '../signers.ts';
import { certificateProblem } from './certificate.ts';
import { conditionTolerance, strictConditions, validateConditionChanges, validateConditions, type ConditionTolerance } from './conditions.ts';
import { certificateOf, conditionsOf, specOf, stringField } from './accessors.ts';
import { breaksRule, csrMarkRules, doorsOf, type MarkRule } from './lifecycle.ts';
import { validateRequest } from './request.ts';
import { isKnownUsage, knownUsages } from './usages.ts';

/** The write paths of a CSR: the main resource and its two subresources. */
export type CsrPath = 'main' | 'status' | 'approval';

interface Tolerance {
  readonly legacySigner: boolean;
  readonly unknownUsages: boolean;
  readonly duplicateUsages: boolean;
  readonly conditions: ConditionTolerance;
  readonly arbitraryCertificate: boolean;
}

const strict: Tolerance = { legacySigner: false, unknownUsages: false, duplicateUsages: false, conditions: strictConditions, arbitraryCertificate: false };

function usagesOf(spec: JsonObject): string[] {
  const u = spec['usages'];
  return Array.isArray(u) ? u.map((x) => (typeof x === 'string' ? x : '')) : [];
}

const hasDuplicates = (xs: readonly string[]): boolean => new Set(xs).size !== xs.length;

function legacySignerName(ctx: StrategyContext): string {
  return wellKnownSigners(ctx.names).legacyUnknown;
}

function validateUsages(usages: readonly string[], tol: Tolerance): FieldError[] {
  const errs: FieldError[] = [];
  if (usages.length === 0) errs.push(fieldError.required('spec.usages'));
  if (!tol.unknownUsages) usages.forEach((u, i) => isKnownUsage(u) || errs.push(fieldError.notSupported(`spec.usages[${i}]`, u, knownUsages)));
  if (!tol.duplicateUsages) usages.forEach((u, i) => usages.indexOf(u) < i && errs.push(fieldError.duplicate(`spec.usages[${i}]`, u)));
  return errs;
}

function validateSpec(spec: JsonObject, ctx: StrategyContext, tol: Tolerance): FieldError[] {
  const errs = [...validateRequest(stringField(spec, 'request'), ctx.crypto), ...validateUsages(usagesOf(spec), tol)];
  const signerName = stringField(spec, 'signerName');
  if (!tol.legacySigner && signerName === legacySignerName(ctx)) {
    errs.push(fieldError.invalid('spec.signerName', signerName, 'the legacy signerName is not allowed via this API version'));
  } else errs.push(...validateSignerName('spec.signerName', signerName));
  const expiration = spec['expirationSeconds'];
  if (typeof expiration === 'number' && expiration < 600) {
    errs.push(fieldError.invalid('spec.expirationSeconds', expiration, 'may not specify a duration less than 600 seconds (10 minutes)'));
  }
  return errs;
}

/** The certificate's problem, or null; base64 trouble is reported like a decode error. */
function certificateErrors(base64: string, ctx: StrategyContext): FieldError[] {
  const decoded = byteFieldText('status.certificate', base64);
  if (!decoded.ok) return [decoded.error];
  const problem = certificateProblem(decoded.text, ctx.crypto);
  return problem === null ? [] : [fieldError.invalid('status.certificate', '<certificate data>', problem)];
}

function validateObject(obj: KubeObject, ctx: StrategyContext, tol: Tolerance): FieldError[] {
  const errs = [...validateSpec(specOf(obj), ctx, tol), ...validateConditions(conditionsOf(obj), tol.conditions)];
  if (!tol.arbitraryCertificate) errs.push(...certificateErrors(certificateOf(obj), ctx));
  return errs;
}

export function validateCsrCreate(obj: KubeObject, ctx: StrategyContext): FieldError[] {
  return validateObject(obj, ctx, strict);
}

function toleranceFor(obj: KubeObject, old: KubeObject, ctx: StrategyContext): Tolerance {
  const oldSpec = specOf(old);
  const oldUsages = usagesOf(oldSpec);
  const oldCertificate = certificateOf(old);
  return {
    legacySigner: stringField(oldSpec, 'signerName') === legacySignerName(ctx),
    unknownUsages: oldUsages.some((u) => !isKnownUsage(u)),
    duplicateUsages: hasDuplicates(oldUsages),
    conditions: conditionTolerance(conditionsOf(old)),
    arbitraryCertificate: certificateOf(obj) === oldCertificate || certificateErrors(oldCertificate, ctx).length > 0,
  };
}

/** Go struct order of the spec, so that immutability causes come out in a stable order. */
const specFields = ['request', 'signerName', 'expirationSeconds', 'usages', 'username', 'uid', 'groups', 'extra'];

function specChanges(obj: KubeObject, old: KubeObject): FieldError[] {
  const next = specOf(obj);
  const prev = specOf(old);
  return specFields.filter((f) => !deepEqual(next[f], prev[f])).map((f) => fieldError.immutable(`spec.${f}`, next[f] ?? null));
}

const withArticle = (type: string): string => `${/^[AEIOU]/.test(type) ? 'an' : 'a'} ${type} condition`;

/** "with an Approved condition and no Denied or Failed condition", from the certificate's mark rule. */
function ruleText(rule: MarkRule): string {
  return [...rule.requires.map(withArticle), ...(rule.excludes.length === 0 ? [] : [`no ${rule.excludes.join(' or ')} condition`])].join(' and ');
}

/** The certificate is a mark of the lifecycle: made through its doors only, once, beside what its rule asks. */
function certificateChange(obj: KubeObject, old: KubeObject, path: CsrPath): FieldError[] {
  const next = certificateOf(obj);
  const prev = certificateOf(old);
  if (next === prev) return [];
  if (path === 'main' || !doorsOf('certificate').has(path)) return [fieldError.forbidden('status.certificate', 'updates may not set certificate content')];
  if (prev !== '') return [fieldError.forbidden('status.certificate', 'updates may not modify existing certificate content')];
  const rule = csrMarkRules.certificate;
  if (breaksRule(rule, conditionsOf(obj).map((c) => c.type))) {
    return [fieldError.forbidden('status.certificate', `a certificate may only be set on a request with ${ruleText(rule)}`)];
  }
  return [];
}

/** Validation of an update through `path`, after that path's prepare step. */
export function validateCsrUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext, path: CsrPath): FieldError[] {
  return [
    ...specChanges(obj, old),
    ...validateObject(obj, ctx, toleranceFor(obj, old, ctx)),
    ...validateConditionChanges(conditionsOf(obj), conditionsOf(old), path),
    ...certificateChange(obj, old, path),
  ];
}
