/** Event writes: stored as sent (no status, no generation, no defaults), legacy-validated on every write. */
import { strategy } from '../common/defaultStrategy.ts';
import type { Strategy } from '../types.ts';
import { validateEvent } from './validation.ts';

export const eventStrategy: Strategy = strategy({
  validate: validateEvent,
  validateUpdate: (obj, _old, ctx) => validateEvent(obj, ctx),
});
