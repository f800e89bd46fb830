/**
 * Service writes: defaults and allocation (defaults.ts) on create and update, main-resource
 * updates keep the stored status. `/status` writes: ValidateServiceStatusUpdate checks only load
 * balancer ingress details, none kept here, so the default strategy.
 */
import { keepStatus, strategy } from '../common/defaultStrategy.ts';
import type { Strategy } from '../types.ts';
import { prepareServiceCreate, prepareServiceUpdate } from './defaults.ts';
import { validateServiceCreate, validateServiceUpdate } from './validation.ts';

export const serviceStrategy: Strategy = strategy({
  prepareForCreate: prepareServiceCreate,
  prepareForUpdate: (svc, old) => keepStatus(prepareServiceUpdate(svc, old), old),
  validate: validateServiceCreate,
  validateUpdate: validateServiceUpdate,
});

export const serviceStatusStrategy: Strategy = strategy({});
