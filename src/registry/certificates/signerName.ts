/**
 * Signer-name syntax shared by CSRs and ClusterTrustBundles (Kubernetes' ValidateSignerName):
 * `<domain>/<path>`, at most 571 bytes. The first bad domain label and the first bad path piece
 * are reported (later ones would repeat the same message); lengths are byte lengths.
 */
import { fieldError, type FieldError } from '../../core/fieldErrors.ts';
import { isDNS1123Label, isDNS1123Subdomain, utf8Length } from '../validation/names.ts';

const domainMax = 253;
/** A domain, a `/`, and a path that fits `<namespace>.<name>` (63 + 1 + 253). */
const signerNameMax = domainMax + 1 + 63 + 1 + 253;

function firstBadPiece(pieces: readonly string[], check: (s: string) => string[], path: string, value: string): FieldError[] {
  for (const piece of pieces) {
    const msgs = check(piece);
    if (msgs.length > 0) return msgs.map((m) => fieldError.invalid(path, value, `validating label ${JSON.stringify(piece)}: ${m}`));
  }
  return [];
}

/** Errors of a non-empty or required signer name at `path`. */
export function validateSignerName(path: string, signerName: string): FieldError[] {
  if (signerName === '') return [fieldError.required(path)];
  const segments = signerName.split('/');
  if (segments.length !== 2) return [fieldError.invalid(path, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  const [domain, signerPath] = segments as [string, string];
  const errs: FieldError[] = [];
  if (utf8Length(domain) > domainMax) errs.push(fieldError.tooLong(path, domainMax));
  const labels = domain.split('.');
  errs.push(...firstBadPiece(labels, isDNS1123Label, path, domain));
  if (labels.length < 2) errs.push(fieldError.invalid(path, domain, 'should be a domain with at least two segments separated by dots'));
  errs.push(...firstBadPiece(signerPath.split('.'), isDNS1123Subdomain, path, signerPath));
  if (utf8Length(signerName) > signerNameMax) errs.push(fieldError.tooLong(path, signerNameMax));
  return errs;
}
