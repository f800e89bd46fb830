/**
 * Event (core/v1 `events`), a supporting kind that controllers write to record what they did.
 * No status, no generation, no defaults; validation is the legacy core/v1 one (validation.ts).
 * Names only need to be path segments, as the real strategy validates no name syntax.
 * Field selectors follow the real ones (fields.ts).
 */
import { allVerbs } from '../common/defaultStrategy.ts';
import type { ResourceType } from '../types.ts';
import { eventFieldSelectors } from './fields.ts';
import { eventSchema } from './schema.ts';
import { eventStrategy } from './strategy.ts';
import { eventColumns } from './table.ts';

export const eventResource: ResourceType = {
  id: 'core/events',
  group: '',
  version: 'v1',
  resource: 'events',
  singular: 'event',
  kind: 'Event',
  listKind: 'EventList',
  namespaced: true,
  shortNames: ['ev'],
  categories: [],
  verbs: allVerbs,
  schema: eventSchema,
  nameRule: 'path',
  strategy: eventStrategy,
  subresources: [],
  fieldSelectors: eventFieldSelectors,
  deleteReturnsObject: false,
  allowUnconditionalUpdate: true,
  hasGeneration: false,
  resetFields: [],
  table: eventColumns,
};
