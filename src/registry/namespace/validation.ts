/**
 * Namespace validation: nothing beyond the generic rules. The name is a DNS-1123 label (the
 * store's name rule), and spec and status are the strategy's to set, never the client's.
 */
import type { FieldError } from '../../core/fieldErrors.ts';

export function validateNamespace(): FieldError[] {
  return [];
}
