/**
 * ControllerRevision (apps/v1): an immutable snapshot of state (a StatefulSet's pod template)
 * with a revision number (pkg/apis/apps/validation ValidateControllerRevision).
 */
import { allVerbs, metadataFieldSelectors } from '../common/defaultStrategy.ts';
import type { ResourceType } from '../types.ts';
import { controllerRevisionSchema } from './schema.ts';
import { controllerRevisionStrategy } from './strategy.ts';
import { controllerRevisionColumns } from './table.ts';

export const controllerRevisionResource: ResourceType = {
  id: 'apps/controllerrevisions',
  group: 'apps',
  version: 'v1',
  resource: 'controllerrevisions',
  singular: 'controllerrevision',
  kind: 'ControllerRevision',
  listKind: 'ControllerRevisionList',
  namespaced: true,
  shortNames: [],
  categories: [],
  verbs: allVerbs,
  schema: controllerRevisionSchema,
  nameRule: 'subdomain',
  strategy: controllerRevisionStrategy,
  subresources: [],
  fieldSelectors: metadataFieldSelectors,
  deleteReturnsObject: false,
  allowUnconditionalUpdate: true,
  hasGeneration: false,
  resetFields: [],
  table: controllerRevisionColumns,
};
