/**
 * PersistentVolumeClaim writes: created `Pending` whatever status was sent; main-resource
 * updates keep the stored status, `/status` writes keep the spec; defaults on every write.
 */
import { keepStatus, strategy } from '../common/defaultStrategy.ts';
import type { Strategy } from '../types.ts';
import { withPvcDefaults } from './defaults.ts';
import { validatePvcSpec, validatePvcUpdate } from './validation.ts';

export const pvcStrategy: Strategy = strategy({
  prepareForCreate: (o) => withPvcDefaults({ ...o, status: { phase: 'Pending' } }),
  prepareForUpdate: (o, old) => keepStatus(withPvcDefaults(o), old),
  validate: validatePvcSpec,
  validateUpdate: validatePvcUpdate,
});

export const pvcStatusStrategy: Strategy = strategy({ prepareForUpdate: (o) => withPvcDefaults(o) });
