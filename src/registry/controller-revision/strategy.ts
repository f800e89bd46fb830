/** ControllerRevision writes: stored as sent (no status, no defaults), validated. */
import { strategy } from '../common/defaultStrategy.ts';
import type { Strategy } from '../types.ts';
import { validateControllerRevision, validateControllerRevisionUpdate } from './validation.ts';

export const controllerRevisionStrategy: Strategy = strategy({
  validate: validateControllerRevision,
  validateUpdate: validateControllerRevisionUpdate,
});
