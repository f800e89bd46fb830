/**
 * TokenReview, SelfSubjectReview, SelfSubjectAccessReview and SelfSubjectRulesReview (`kubectl
 * auth can-i`, `--list`): create-only,
 * cluster-scoped, never stored (`virtual`); the endpoints answer them from the request itself.
 * Their groups follow the names table.
 */
import type { Names } from '../../api/names.ts';
import { defaultStrategy, metadataFieldSelectors } from '../common/defaultStrategy.ts';
import type { ResourceType } from '../types.ts';
import type { StructSchema } from '../../api/schema.ts';
import { selfSubjectAccessReviewSchema, selfSubjectReviewSchema, selfSubjectRulesReviewSchema, tokenReviewSchema } from './schema.ts';

function reviewResource(group: string, resource: string, kind: string, schema: StructSchema): ResourceType {
  return {
    id: `${group.split('.')[0]}/${resource}`,
    group,
    version: 'v1',
    resource,
    singular: resource.slice(0, -1),
    kind,
    listKind: `${kind}List`,
    namespaced: false,
    shortNames: [],
    categories: [],
    verbs: ['create'],
    schema,
    nameRule: 'path',
    strategy: defaultStrategy,
    subresources: [],
    fieldSelectors: metadataFieldSelectors,
    deleteReturnsObject: false,
    allowUnconditionalUpdate: false,
    hasGeneration: false,
    resetFields: [],
    virtual: true,
  };
}

export function authenticationResources(names: Names): ResourceType[] {
  return [
    reviewResource(names.authenticationGroup, 'tokenreviews', 'TokenReview', tokenReviewSchema),
    reviewResource(names.authenticationGroup, 'selfsubjectreviews', 'SelfSubjectReview', selfSubjectReviewSchema),
    reviewResource(names.authorizationGroup, 'selfsubjectaccessreviews', 'SelfSubjectAccessReview', selfSubjectAccessReviewSchema),
    reviewResource(names.authorizationGroup, 'selfsubjectrulesreviews', 'SelfSubjectRulesReview', selfSubjectRulesReviewSchema),
  ];
}
