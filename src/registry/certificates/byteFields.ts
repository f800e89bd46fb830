/**
 * Go `[]byte` fields arrive as base64 text in JSON. The decoder does not check `format: byte`
 * yet, so strategies decode here: a bad value is reported as the error Go's JSON decoder gives
 * (`illegal base64 data at input byte N`), at the field, as an Invalid cause.
 */
import { fieldError, type FieldError } from '../../core/fieldErrors.ts';
import { decodeGoBase64Text } from './goBase64.ts';

/** The field's bytes as a binary string (one char per byte), or the error at `path`. */
export function byteFieldText(path: string, base64: string): { ok: true; text: string } | { ok: false; error: FieldError } {
  const decoded = decodeGoBase64Text(base64);
  if (!decoded.ok) return { ok: false, error: fieldError.invalid(path, base64, decoded.message) };
  return decoded;
}
