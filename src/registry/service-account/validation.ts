/**
 * ServiceAccount validation: nothing beyond the generic rules (ValidateServiceAccount checks
 * only ObjectMeta, which the store does for every kind). `secrets[]` entries are reduced to
 * their names by the strategy before this runs.
 */
import type { FieldError } from '../../core/fieldErrors.ts';

export function validateServiceAccount(): FieldError[] {
  return [];
}
