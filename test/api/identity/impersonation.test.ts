/**
 * Impersonation and SelfSubjectReview: the request runs as the impersonated user once RBAC allows
 * `impersonate` on each item; extra keys are lower-cased and percent-decoded.
 */
import { describe, expect, it } from 'vitest';
import { sim, type Body } from '../../helpers.ts';

const whoami = '/apis/authentication.platform.io/v1/selfsubjectreviews';
const rbac = '/apis/rbac.authorization.platform.io/v1';

async function allowImpersonation(s: Awaited<ReturnType<typeof sim>>, rules: Body[]) {
  await s.request({ method: 'POST', path: `${rbac}/clusterroles`, body: { metadata: { name: 'impersonator' }, rules } });
  await s.request({ method: 'POST', path: `${rbac}/clusterrolebindings`, body: { metadata: { name: 'bob-impersonates' }, roleRef: { apiGroup: 'rbac.authorization.platform.io', kind: 'ClusterRole', name: 'impersonator' }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.platform.io', name: 'bob' }] } });
}

describe('SelfSubjectReview', () => {
  it('returns the caller for any authenticated user', async () => {
    const s = await sim();
    const res = await s.request({ method: 'POST', path: whoami, body: {}, as: { user: 'bob', groups: ['dev'] } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      kind: 'SelfSubjectReview',
      apiVersion: 'authentication.platform.io/v1',
      metadata: { creationTimestamp: '2026-01-01T00:00:00Z' },
      status: { userInfo: { username: 'bob', groups: ['dev', 'system:authenticated'] } },
    });
  });
});

describe('impersonation', () => {
  it('acts as the impersonated user, exactly (the conformance case)', async () => {
    const s = await sim();
    const res = await s.request({
      method: 'POST',
      path: whoami,
      body: {},
      headers: { 'impersonate-user': 'jane-doe', 'impersonate-uid': 'uniq-id', 'impersonate-group': ['system:authenticated', 'developers'], 'Impersonate-Extra-Known-Languages': ['python', 'javascript'] },
    });
    expect(res.status).toBe(201);
    expect((res.body as Body).status.userInfo).toEqual({ username: 'jane-doe', uid: 'uniq-id', groups: ['system:authenticated', 'developers'], extra: { 'known-languages': ['python', 'javascript'] } });
  });

  it('gives service accounts their groups, and percent-decodes extra keys', async () => {
    const s = await sim();
    const sa = await s.request({ method: 'POST', path: whoami, body: {}, headers: { 'impersonate-user': 'system:serviceaccount:foo:default' } });
    expect((sa.body as Body).status.userInfo).toEqual({ username: 'system:serviceaccount:foo:default', groups: ['system:serviceaccounts', 'system:serviceaccounts:foo', 'system:authenticated'] });
    const anon = await s.request({ method: 'POST', path: whoami, body: {}, headers: { 'impersonate-user': 'system:anonymous' } });
    // Anonymous (in system:unauthenticated, not system:authenticated) may not even ask who it is.
    expect((anon.body as Body).message).toBe('selfsubjectreviews.authentication.platform.io is forbidden: User "system:anonymous" cannot create resource "selfsubjectreviews" in API group "authentication.platform.io" at the cluster scope');
    const escaped = await s.request({ method: 'POST', path: whoami, body: {}, headers: { 'impersonate-user': 'x', 'Impersonate-Extra-example.com%2fescaped%e1%9b%84scopes': 'v' } });
    expect((escaped.body as Body).status.userInfo.extra).toEqual({ 'example.com/escapedᛄscopes': ['v'] });
  });

  it('needs impersonate permission on each item, checked user, groups, extras, uid', async () => {
    const s = await sim();
    const asBob = (headers: Record<string, string | string[]>) => s.request({ method: 'POST', path: whoami, body: {}, as: { user: 'bob' }, headers });
    const denied = await asBob({ 'impersonate-user': 'alice' });
    expect(denied.status).toBe(403);
    expect((denied.body as Body).message).toBe('users "alice" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope');
    await allowImpersonation(s, [
      { verbs: ['impersonate'], apiGroups: [''], resources: ['users'], resourceNames: ['alice'] },
      { verbs: ['impersonate'], apiGroups: ['authentication.platform.io'], resources: ['userextras/scopes'] },
    ]);
    expect((await asBob({ 'impersonate-user': 'alice' })).status).toBe(201);
    const group = await asBob({ 'impersonate-user': 'alice', 'impersonate-group': 'admins' });
    expect((group.body as Body).message).toBe('groups "admins" is forbidden: User "bob" cannot impersonate resource "groups" in API group "" at the cluster scope');
    expect((await asBob({ 'impersonate-user': 'alice', 'impersonate-extra-scopes': 'view' })).status).toBe(201);
    const extra = await asBob({ 'impersonate-user': 'alice', 'impersonate-extra-other': 'view' });
    expect((extra.body as Body).message).toBe('userextras.authentication.platform.io "view" is forbidden: User "bob" cannot impersonate resource "userextras/other" in API group "authentication.platform.io" at the cluster scope');
    const uid = await asBob({ 'impersonate-user': 'alice', 'impersonate-uid': '1234' });
    expect((uid.body as Body).message).toBe('uids.authentication.platform.io "1234" is forbidden: User "bob" cannot impersonate resource "uids" in API group "authentication.platform.io" at the cluster scope');
    const sa = await asBob({ 'impersonate-user': 'system:serviceaccount:team-a:builder' });
    expect((sa.body as Body).message).toBe('serviceaccounts "builder" is forbidden: User "bob" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "team-a"');
  });

  it('refuses groups, extras or uid without a user (400)', async () => {
    const s = await sim();
    const res = await s.request({ method: 'POST', path: whoami, body: {}, headers: { 'impersonate-group': 'admins' } });
    expect(res.status).toBe(400);
    expect((res.body as Body).reason).toBe('BadRequest');
  });

  it('authorizes the request as the impersonated user', async () => {
    const s = await sim();
    await allowImpersonation(s, [{ verbs: ['impersonate'], apiGroups: [''], resources: ['users'] }]);
    const res = await s.request({ method: 'GET', path: '/api/v1/namespaces/default/serviceaccounts', as: { user: 'bob' }, headers: { 'impersonate-user': 'alice' } });
    expect(res.status).toBe(403);
    expect((res.body as Body).message).toBe('serviceaccounts is forbidden: User "alice" cannot list resource "serviceaccounts" in API group "" in the namespace "default"');
  });
});

describe('SelfSubjectAccessReview', () => {
  const ssar = '/apis/authorization.platform.io/v1/selfsubjectaccessreviews';

  it('answers whether the caller may do something', async () => {
    const s = await sim();
    const ask = (spec: Body, as?: { user: string }) => s.request({ method: 'POST', path: ssar, body: { spec }, ...(as === undefined ? {} : { as }) });
    const admin = await ask({ resourceAttributes: { verb: 'create', resource: 'serviceaccounts', subresource: 'token', namespace: 'default' } });
    expect(admin.status).toBe(201);
    expect((admin.body as Body).status).toEqual({ allowed: true });
    expect(((await ask({ resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'default' } }, { user: 'bob' })).body as Body).status).toEqual({ allowed: false });
    expect(((await ask({ nonResourceAttributes: { verb: 'get', path: '/version' } }, { user: 'bob' })).body as Body).status).toEqual({ allowed: true });
    const neither = await ask({}, { user: 'bob' });
    expect(neither.status).toBe(422);
    expect((neither.body as Body).message).toBe('SelfSubjectAccessReview.authorization.platform.io "" is invalid: spec.resourceAttributes: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified');
  });
});

describe('SelfSubjectRulesReview', () => {
  it('lists the rules that apply to the caller in a namespace', async () => {
    const s = await sim();
    await s.request({ method: 'POST', path: '/apis/rbac.authorization.platform.io/v1/namespaces/default/roles', body: { metadata: { name: 'sa-reader' }, rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['serviceaccounts'], resourceNames: ['builder'] }] } });
    await s.request({ method: 'POST', path: '/apis/rbac.authorization.platform.io/v1/namespaces/default/rolebindings', body: { metadata: { name: 'bob-reads' }, roleRef: { apiGroup: 'rbac.authorization.platform.io', kind: 'Role', name: 'sa-reader' }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.platform.io', name: 'bob' }] } });
    const res = await s.request({ method: 'POST', path: '/apis/authorization.platform.io/v1/selfsubjectrulesreviews', body: { spec: { namespace: 'default' } }, as: { user: 'bob' } });
    expect(res.status).toBe(201);
    const status = (res.body as Body).status;
    expect(status.incomplete).toBe(false);
    expect(status.resourceRules).toContainEqual({ verbs: ['get', 'list'], apiGroups: [''], resources: ['serviceaccounts'], resourceNames: ['builder'] });
    expect(status.resourceRules).toContainEqual({ verbs: ['create'], apiGroups: ['authentication.platform.io'], resources: ['selfsubjectreviews'] });
    expect(status.nonResourceRules).toContainEqual({ verbs: ['get'], nonResourceURLs: expect.arrayContaining(['/version']) });
  });
});
