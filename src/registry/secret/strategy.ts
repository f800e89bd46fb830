/** Secret writes: defaulted (stringData folded into data, type Opaque) on create and update. */
import { strategy } from '../common/defaultStrategy.ts';
import type { Strategy } from '../types.ts';
import { withSecretDefaults } from './defaults.ts';
import { validateSecret, validateSecretUpdate } from './validation.ts';

export const secretStrategy: Strategy = strategy({
  prepareForCreate: withSecretDefaults,
  prepareForUpdate: (obj) => withSecretDefaults(obj),
  validate: validateSecret,
  validateUpdate: validateSecretUpdate,
});
