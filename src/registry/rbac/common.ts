/** What the four RBAC kinds share: plain stored objects in `rbac.authorization.<domain>/v1`. */
import { allVerbs, metadataFieldSelectors } from '../common/defaultStrategy.ts';

export const rbacCommon = {
  version: 'v1',
  shortNames: [],
  categories: [],
  verbs: allVerbs,
  nameRule: 'path',
  subresources: [],
  fieldSelectors: metadataFieldSelectors,
  deleteReturnsObject: false,
  allowUnconditionalUpdate: true,
  hasGeneration: false,
  resetFields: [],
} as const;
