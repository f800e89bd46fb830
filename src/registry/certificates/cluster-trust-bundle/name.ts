/**
 * The ClusterTrustBundle name rule (ValidateClusterTrustBundleName): a bundle tied to a signer
 * is named `<signer with '/' → ':'>:<DNS subdomain>`; an unlinked bundle has no ':' at all and is
 * a DNS subdomain. The store checks names with the generic path-segment rule (the rule depends
 * on the spec, which the store's name rules cannot see), so the kind adds this one.
 */
import type { ObjectMeta } from '../../../api/meta.ts';
import { fieldError, type FieldError } from '../../../core/fieldErrors.ts';
import { nameValidator } from '../../validation/names.ts';

export function bundleNameErrors(name: string, signerName: string, prefix: boolean): string[] {
  if (signerName === '') {
    if (name.includes(':')) return ['ClusterTrustBundle without signer name must not have ":" in its name'];
    return nameValidator.subdomain(name, prefix);
  }
  const required = `${signerName.replaceAll('/', ':')}:`;
  if (!name.startsWith(required)) return [`ClusterTrustBundle for signerName ${signerName} must be named with prefix ${required}`];
  return nameValidator.subdomain(name.slice(required.length), prefix);
}

/** Errors at metadata.generateName and metadata.name (an empty name is the store's to report). */
export function validateBundleName(meta: ObjectMeta, signerName: string): FieldError[] {
  const errs: FieldError[] = [];
  const generateName = meta.generateName ?? '';
  if (generateName !== '') errs.push(...bundleNameErrors(generateName, signerName, true).map((m) => fieldError.invalid('metadata.generateName', generateName, m)));
  const name = meta.name ?? '';
  if (name !== '') errs.push(...bundleNameErrors(name, signerName, false).map((m) => fieldError.invalid('metadata.name', name, m)));
  return errs;
}
