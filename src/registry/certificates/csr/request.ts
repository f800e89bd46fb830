/**
 * `spec.request` (validation.go validateCSR): the first PEM block must be a CERTIFICATE REQUEST
 * whose DER parses as PKCS#10 and whose self-signature verifies. The PEM scan is pure; parsing
 * and the signature check are a crypto fact asked for only when a request block exists.
 */
import type { CryptoFacts } from '../../../api/crypto.ts';
import { fieldError, type FieldError } from '../../../core/fieldErrors.ts';
import { byteFieldText } from '../byteFields.ts';
import { decodePem } from '../pem.ts';

const path = 'spec.request';

/**
 * The error of a request given as base64 text. Kubernetes prints the raw bytes as a Go byte
 * slice; the value here is the base64 text the client sent (same field, reason and detail).
 */
export function validateRequest(base64: string, crypto: CryptoFacts): FieldError[] {
  const decoded = byteFieldText(path, base64);
  if (!decoded.ok) return [decoded.error];
  const found = decodePem(decoded.text);
  if (found === null || found.block.type !== 'CERTIFICATE REQUEST') return [fieldError.invalid(path, base64, 'PEM block type must be CERTIFICATE REQUEST')];
  const fact = crypto.certificateRequest(decoded.text);
  return fact.ok ? [] : [fieldError.invalid(path, base64, fact.message)];
}
