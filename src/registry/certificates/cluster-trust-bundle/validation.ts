/**
 * ClusterTrustBundle validation (ValidateClusterTrustBundle and its update): the signer-tied
 * name rule, signerName syntax (when set) and immutability, and the trust bundle (not parsed
 * again when an update leaves it byte-identical).
 */
import type { KubeObject } from '../../../api/meta.ts';
import { fieldError, type FieldError } from '../../../core/fieldErrors.ts';
import type { StrategyContext } from '../../types.ts';
import { validateSignerName } from '../signerName.ts';
import { specString } from './accessors.ts';
import { validateBundleName } from './name.ts';
import { validateTrustBundle } from './trustBundle.ts';

function validateBundleParts(obj: KubeObject, ctx: StrategyContext, parseBundle: boolean): FieldError[] {
  const signerName = specString(obj, 'signerName');
  return [
    ...validateBundleName(obj.metadata, signerName),
    ...(signerName === '' ? [] : validateSignerName('spec.signerName', signerName)),
    ...(parseBundle ? validateTrustBundle(specString(obj, 'trustBundle'), ctx.crypto) : []),
  ];
}

export function validateBundle(obj: KubeObject, ctx: StrategyContext): FieldError[] {
  return validateBundleParts(obj, ctx, true);
}

export function validateBundleUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[] {
  const errs = validateBundleParts(obj, ctx, specString(obj, 'trustBundle') !== specString(old, 'trustBundle'));
  const signerName = specString(obj, 'signerName');
  if (signerName !== specString(old, 'signerName')) errs.push(fieldError.immutable('spec.signerName', signerName));
  return errs;
}
