/** ConfigMap writes: stored as sent (no status, no defaults), validated on create and update. */
import { strategy } from '../common/defaultStrategy.ts';
import type { Strategy } from '../types.ts';
import { validateConfigMap, validateConfigMapUpdate } from './validation.ts';

export const configMapStrategy: Strategy = strategy({
  validate: validateConfigMap,
  validateUpdate: validateConfigMapUpdate,
});
