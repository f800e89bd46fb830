/**
 * Schemas of the authentication group's request kinds (authentication/v1): TokenRequest (the
 * `serviceaccounts/token` subresource), TokenReview and SelfSubjectReview. None is stored; the
 * schemas drive decoding, fieldValidation and OpenAPI like any other kind.
 */
import { objectMetaSchema } from '../../api/meta.ts';
import { s } from '../../api/schema.ts';

export const userInfoSchema = s.struct('UserInfo', {
  username: s.string(),
  uid: s.string(),
  groups: s.atomicList(s.string()),
  extra: s.map(s.atomicList(s.string()), { goType: 'map[string]v1.ExtraValue' }),
});

export const tokenRequestSchema = s.struct('TokenRequest', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  spec: s.struct('TokenRequestSpec', {
    audiences: s.keepEmpty(s.atomicList(s.string())),
    expirationSeconds: s.int64(),
    boundObjectRef: s.struct('BoundObjectReference', { kind: s.string(), apiVersion: s.string(), name: s.string(), uid: s.string() }),
  }),
  status: s.struct('TokenRequestStatus', { token: s.string(), expirationTimestamp: s.time() }),
});

export const tokenReviewSchema = s.struct('TokenReview', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  spec: s.struct('TokenReviewSpec', { token: s.string(), audiences: s.atomicList(s.string()) }),
  status: s.struct('TokenReviewStatus', {
    authenticated: s.boolean(),
    user: userInfoSchema,
    audiences: s.atomicList(s.string()),
    error: s.string(),
  }),
});

export const selfSubjectAccessReviewSchema = s.struct('SelfSubjectAccessReview', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  spec: s.struct('SelfSubjectAccessReviewSpec', {
    resourceAttributes: s.struct('ResourceAttributes', {
      namespace: s.string(),
      verb: s.string(),
      group: s.string(),
      version: s.string(),
      resource: s.string(),
      subresource: s.string(),
      name: s.string(),
      fieldSelector: s.any(),
      labelSelector: s.any(),
    }),
    nonResourceAttributes: s.struct('NonResourceAttributes', { path: s.string(), verb: s.string() }),
  }),
  status: s.struct('SubjectAccessReviewStatus', { allowed: s.boolean(), denied: s.boolean(), reason: s.string(), evaluationError: s.string() }),
});

const policyRule = s.struct('ResourceRule', { verbs: s.keepEmpty(s.atomicList(s.string())), apiGroups: s.atomicList(s.string()), resources: s.atomicList(s.string()), resourceNames: s.atomicList(s.string()) });

export const selfSubjectRulesReviewSchema = s.struct('SelfSubjectRulesReview', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  spec: s.struct('SelfSubjectRulesReviewSpec', { namespace: s.string() }),
  status: s.struct('SubjectRulesReviewStatus', {
    resourceRules: s.keepEmpty(s.atomicList(policyRule)),
    nonResourceRules: s.keepEmpty(s.atomicList(s.struct('NonResourceRule', { verbs: s.keepEmpty(s.atomicList(s.string())), nonResourceURLs: s.atomicList(s.string()) }))),
    incomplete: s.boolean(),
    evaluationError: s.string(),
  }),
});

export const selfSubjectReviewSchema = s.struct('SelfSubjectReview', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  status: s.struct('SelfSubjectReviewStatus', { userInfo: userInfoSchema }),
});
