/**
 * The RBAC authorizer as a pure function: worlds are built through a simulation (as the default
 * admin), then `authorize` is asked directly. Covers rule matching (verbs, groups, resources,
 * subresources, names, non-resource URLs, wildcards), subjects, missing-role reasons, the 403
 * bodies and the bootstrap policy.
 */
import { describe, expect, it } from 'vitest';
import { sim, type Body } from '../../helpers.ts';
import type { Simulation } from '../../../src/index.ts';
import { namesFor } from '../../../src/api/names.ts';
import { authorize, forbidden, type Attributes } from '../../../src/auth/rbac/authorize.ts';
import { appliesTo } from '../../../src/auth/rbac/appliesTo.ts';
import { bootstrapPolicy } from '../../../src/auth/rbac/bootstrapPolicy.ts';

const names = namesFor('platform.io');
const g = names.rbacGroup;
const base = `/apis/${g}/v1`;

type User = Attributes['user'];
// Outside the bootstrap tests users carry no groups, so that only the test's own bindings apply
// whether or not the simulation creates the bootstrap policy.
const alice: User = { username: 'alice', groups: [] };
const authedAlice: User = { username: 'alice', groups: ['system:authenticated'] };
const anonymous: User = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
const sa = (ns: string, name: string): User => ({ username: `system:serviceaccount:${ns}:${name}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'] });

function res(user: User, verb: string, resource: string, extra: Partial<Attributes> = {}): Attributes {
  return { user, verb, resourceRequest: true, apiGroup: '', resource, subresource: '', namespace: '', name: '', path: '', ...extra };
}
function url(user: User, verb: string, path: string): Attributes {
  return { user, verb, resourceRequest: false, apiGroup: '', resource: '', subresource: '', namespace: '', name: '', path };
}

/** A simulation with the namespaces these tests bind in. */
async function world(options: Parameters<typeof sim>[0] = {}): Promise<Simulation> {
  const s = await sim(options);
  for (const name of ['team', 'tools']) await post(s, '/api/v1/namespaces', { metadata: { name } });
  return s;
}

async function post(s: Simulation, path: string, body: Body): Promise<void> {
  const r = await s.request({ method: 'POST', path, body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
}
const role = (s: Simulation, ns: string, name: string, rules: Body[]) => post(s, `${base}/namespaces/${ns}/roles`, { metadata: { name }, rules });
const clusterRole = (s: Simulation, name: string, rules: Body[]) => post(s, `${base}/clusterroles`, { metadata: { name }, rules });
const roleBinding = (s: Simulation, ns: string, name: string, roleRef: Body, subjects: Body[]) =>
  post(s, `${base}/namespaces/${ns}/rolebindings`, { metadata: { name }, roleRef, subjects });
const clusterBinding = (s: Simulation, name: string, roleName: string, subjects: Body[]) =>
  post(s, `${base}/clusterrolebindings`, { metadata: { name }, roleRef: { kind: 'ClusterRole', name: roleName }, subjects });

/** A world where alice holds exactly the given namespaced rules in `team`. */
async function aliceWith(rules: Body[]): Promise<Simulation> {
  const s = await world();
  await role(s, 'team', 'r', rules);
  await roleBinding(s, 'team', 'b', { kind: 'Role', name: 'r' }, [{ kind: 'User', name: 'alice' }]);
  return s;
}

describe('rule matching', () => {
  it('matches verbs exactly and only in the binding namespace', async () => {
    const s = await aliceWith([{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]);
    expect(authorize(s.world, names, res(alice, 'get', 'pods', { namespace: 'team' }))).toEqual({ allowed: true });
    expect(authorize(s.world, names, res(alice, 'list', 'pods', { namespace: 'team' }))).toEqual({ allowed: false, reason: '' });
    expect(authorize(s.world, names, res(alice, 'GET', 'pods', { namespace: 'team' })).allowed).toBe(false);
    expect(authorize(s.world, names, res(alice, 'get', 'pods', { namespace: 'other' })).allowed).toBe(false);
    expect(authorize(s.world, names, res(alice, 'get', 'pods')).allowed).toBe(false);
    expect(authorize(s.world, names, res({ username: 'bob', groups: [] }, 'get', 'pods', { namespace: 'team' })).allowed).toBe(false);
  });

  it('matches API groups, with * for any', async () => {
    const s = await aliceWith([
      { verbs: ['list'], apiGroups: ['apps'], resources: ['statefulsets'] },
      { verbs: ['watch'], apiGroups: ['*'], resources: ['widgets'] },
    ]);
    const ns = { namespace: 'team' };
    expect(authorize(s.world, names, res(alice, 'list', 'statefulsets', { ...ns, apiGroup: 'apps' })).allowed).toBe(true);
    expect(authorize(s.world, names, res(alice, 'list', 'statefulsets', ns)).allowed).toBe(false);
    expect(authorize(s.world, names, res(alice, 'watch', 'widgets', { ...ns, apiGroup: 'example.com' })).allowed).toBe(true);
    expect(authorize(s.world, names, res(alice, 'watch', 'widgets', ns)).allowed).toBe(true);
  });

  it('keeps subresources apart unless named or wildcarded', async () => {
    const token = { namespace: 'team', name: 'builder', subresource: 'token' };
    const plain = await aliceWith([{ verbs: ['create'], apiGroups: [''], resources: ['serviceaccounts', 'serviceaccounts/*'] }]);
    expect(authorize(plain.world, names, res(alice, 'create', 'serviceaccounts', { namespace: 'team' })).allowed).toBe(true);
    expect(authorize(plain.world, names, res(alice, 'create', 'serviceaccounts', token)).allowed).toBe(false);
    const exact = await aliceWith([{ verbs: ['create'], apiGroups: [''], resources: ['serviceaccounts/token'] }]);
    expect(authorize(exact.world, names, res(alice, 'create', 'serviceaccounts', token)).allowed).toBe(true);
    expect(authorize(exact.world, names, res(alice, 'create', 'serviceaccounts', { namespace: 'team' })).allowed).toBe(false);
    const anyParent = await aliceWith([{ verbs: ['create'], apiGroups: [''], resources: ['*/token'] }]);
    expect(authorize(anyParent.world, names, res(alice, 'create', 'serviceaccounts', token)).allowed).toBe(true);
    expect(authorize(anyParent.world, names, res(alice, 'create', 'pods', { ...token, subresource: 'tokens' })).allowed).toBe(false);
    expect(authorize(anyParent.world, names, res(alice, 'create', 'serviceaccounts', { namespace: 'team' })).allowed).toBe(false);
    const all = await aliceWith([{ verbs: ['*'], apiGroups: [''], resources: ['*'] }]);
    expect(authorize(all.world, names, res(alice, 'create', 'serviceaccounts', token)).allowed).toBe(true);
  });

  it('restricts by resourceNames, which never allow an unnamed create', async () => {
    const s = await aliceWith([{ verbs: ['get', 'create', 'impersonate'], apiGroups: [''], resources: ['serviceaccounts'], resourceNames: ['builder'] }]);
    const ns = { namespace: 'team' };
    expect(authorize(s.world, names, res(alice, 'get', 'serviceaccounts', { ...ns, name: 'builder' })).allowed).toBe(true);
    expect(authorize(s.world, names, res(alice, 'impersonate', 'serviceaccounts', { ...ns, name: 'builder' })).allowed).toBe(true);
    expect(authorize(s.world, names, res(alice, 'get', 'serviceaccounts', { ...ns, name: 'other' })).allowed).toBe(false);
    expect(authorize(s.world, names, res(alice, 'create', 'serviceaccounts', ns)).allowed).toBe(false);
  });

  it('matches non-resource URLs exactly, by trailing-* prefix, or by *', async () => {
    const s = await world();
    await clusterRole(s, 'paths', [{ verbs: ['get'], nonResourceURLs: ['/openid/*', '/healthz/*', '/version', '/logs**'] }]);
    await clusterRole(s, 'everything', [{ verbs: ['post'], nonResourceURLs: ['*'] }]);
    await clusterBinding(s, 'paths', 'paths', [{ kind: 'User', name: 'alice' }]);
    await clusterBinding(s, 'everything', 'everything', [{ kind: 'User', name: 'alice' }]);
    const allows = (verb: string, path: string) => authorize(s.world, names, url(alice, verb, path)).allowed;
    expect(allows('get', '/openid/v1/jwks')).toBe(true);
    expect(allows('get', '/healthz/ping')).toBe(true);
    expect(allows('get', '/healthz')).toBe(false);
    expect(allows('get', '/version')).toBe(true);
    expect(allows('get', '/version/')).toBe(false);
    expect(allows('get', '/logs/x')).toBe(true);
    expect(allows('head', '/version')).toBe(false);
    expect(allows('post', '/anything/at/all')).toBe(true);
  });

  it('grants ClusterRoles bound by RoleBindings only within the binding namespace', async () => {
    const s = await world();
    await clusterRole(s, 'cm-reader', [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }]);
    await roleBinding(s, 'team', 'b', { kind: 'ClusterRole', name: 'cm-reader' }, [{ kind: 'Group', name: 'devs' }]);
    const dev: User = { username: 'bob', groups: ['devs'] };
    expect(authorize(s.world, names, res(dev, 'get', 'configmaps', { namespace: 'team' })).allowed).toBe(true);
    expect(authorize(s.world, names, res(dev, 'get', 'configmaps', { namespace: 'other' })).allowed).toBe(false);
    await clusterBinding(s, 'everywhere', 'cm-reader', [{ kind: 'Group', name: 'devs' }]);
    expect(authorize(s.world, names, res(dev, 'get', 'configmaps', { namespace: 'other' })).allowed).toBe(true);
    expect(authorize(s.world, names, res(dev, 'get', 'configmaps')).allowed).toBe(true);
  });

  it('lets system:masters do anything without bindings', async () => {
    const s = await world();
    const root: User = { username: 'root', groups: ['system:masters'] };
    expect(authorize(s.world, names, res(root, 'delete', 'namespaces', { name: 'default' }))).toEqual({ allowed: true });
    expect(authorize(s.world, names, url(root, 'get', '/openid/v1/jwks'))).toEqual({ allowed: true });
  });
});

describe('subjects', () => {
  it('defaults a ServiceAccount subject namespace to the RoleBinding namespace', async () => {
    const s = await world();
    await role(s, 'team', 'r', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]);
    await roleBinding(s, 'team', 'b', { kind: 'Role', name: 'r' }, [{ kind: 'ServiceAccount', name: 'builder' }, { kind: 'ServiceAccount', name: 'ci', namespace: 'tools' }]);
    const get = (user: User) => authorize(s.world, names, res(user, 'get', 'pods', { namespace: 'team' })).allowed;
    expect(get(sa('team', 'builder'))).toBe(true);
    expect(get(sa('other', 'builder'))).toBe(false);
    expect(get(sa('tools', 'ci'))).toBe(true);
    expect(get(sa('team', 'ci'))).toBe(false);
    expect(get({ username: 'builder', groups: [] })).toBe(false);
  });

  it('matches ServiceAccounts from ClusterRoleBindings only with a namespace', async () => {
    const s = await world();
    await clusterRole(s, 'c', [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }]);
    await clusterBinding(s, 'b', 'c', [{ kind: 'ServiceAccount', name: 'builder', namespace: 'team' }]);
    expect(authorize(s.world, names, res(sa('team', 'builder'), 'list', 'pods')).allowed).toBe(true);
    expect(authorize(s.world, names, res(sa('tools', 'builder'), 'list', 'pods')).allowed).toBe(false);
    // Validation refuses such a subject in a ClusterRoleBinding; the matcher ignores it anyway.
    expect(appliesTo([{ kind: 'ServiceAccount', name: 'builder' }], sa('team', 'builder'), '')).toBe(false);
    expect(appliesTo([{ kind: 'ServiceAccount', name: 'builder' }], sa('team', 'builder'), 'team')).toBe(true);
  });
});

describe('missing roles', () => {
  it('reports each missing role in the reason, deduplicated, and still allows through other bindings', async () => {
    const s = await world();
    await roleBinding(s, 'team', 'gone-role', { kind: 'Role', name: 'gone' }, [{ kind: 'User', name: 'alice' }]);
    const get = res(alice, 'get', 'pods', { namespace: 'team' });
    expect(authorize(s.world, names, get)).toEqual({ allowed: false, reason: `RBAC: role.${g} "gone" not found` });
    await clusterBinding(s, 'gone-1', 'nope', [{ kind: 'User', name: 'alice' }]);
    await clusterBinding(s, 'gone-2', 'nope', [{ kind: 'Group', name: 'devs' }]);
    expect(authorize(s.world, names, { ...get, user: { username: 'alice', groups: ['devs'] } })).toEqual({ allowed: false, reason: `RBAC: [clusterrole.${g} "nope" not found, role.${g} "gone" not found]` });
    // Bindings that do not apply to the user contribute nothing.
    expect(authorize(s.world, names, res({ username: 'bob', groups: [] }, 'get', 'pods', { namespace: 'team' }))).toEqual({ allowed: false, reason: '' });
    await role(s, 'team', 'gone', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]);
    expect(authorize(s.world, names, get)).toEqual({ allowed: true });
  });
});

describe('403 bodies', () => {
  const bob: User = { username: 'bob', groups: [] };

  it('names the resource, subresource, group and namespace', () => {
    const e = forbidden(res(bob, 'create', 'serviceaccounts', { namespace: 'ns', name: 'sa', subresource: 'token' }), '');
    expect(e.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'serviceaccounts "sa" is forbidden: User "bob" cannot create resource "serviceaccounts/token" in API group "" in the namespace "ns"',
      reason: 'Forbidden',
      details: { name: 'sa', kind: 'serviceaccounts' },
      code: 403,
    });
  });

  it('says "at the cluster scope" and carries the group for cluster-scoped requests', () => {
    const e = forbidden(res(bob, 'impersonate', 'userextras', { apiGroup: 'authentication.platform.io', subresource: 'scopes', name: 'view' }), '');
    expect(e.status.message).toBe(
      'userextras.authentication.platform.io "view" is forbidden: User "bob" cannot impersonate resource "userextras/scopes" in API group "authentication.platform.io" at the cluster scope',
    );
    expect(e.status.details).toEqual({ name: 'view', group: 'authentication.platform.io', kind: 'userextras' });
    const list = forbidden(res(bob, 'list', 'namespaces'), '');
    expect(list.status.message).toBe('namespaces is forbidden: User "bob" cannot list resource "namespaces" in API group "" at the cluster scope');
    expect(list.status.details).toEqual({ kind: 'namespaces' });
  });

  it('describes non-resource requests by path', () => {
    const e = forbidden(url(anonymous, 'get', '/openid/v1/jwks'), '');
    expect(e.status.message).toBe('forbidden: User "system:anonymous" cannot get path "/openid/v1/jwks"');
    expect(e.status.details).toEqual({});
    expect(e.status.code).toBe(403);
  });

  it('appends the reason unescaped after an HTML-escaped sentence', () => {
    const odd: User = { username: 'a<b>&"c"', groups: [] };
    const e = forbidden(res(odd, 'get', 'pods', { namespace: 'ns' }), `RBAC: role.${g} "<x>" not found`);
    expect(e.status.message).toBe(
      `pods is forbidden: User "a&lt;b&gt;&amp;\\"c\\"" cannot get resource "pods" in API group "" in the namespace "ns": RBAC: role.${g} "<x>" not found`,
    );
  });
});

describe('bootstrap policy', () => {
  async function bootstrapped(domain: 'platform.io' | 'k8s.io' = 'platform.io'): Promise<Simulation> {
    const s = await world({ groupDomain: domain });
    const n = namesFor(domain);
    const policy = bootstrapPolicy(n);
    // Tolerate 409 so that these tests keep passing once the simulation creates them itself.
    for (const o of policy.clusterRoles) expect([201, 409]).toContain((await s.request({ method: 'POST', path: `/apis/${n.rbacGroup}/v1/clusterroles`, body: o })).status);
    for (const o of policy.clusterRoleBindings) expect([201, 409]).toContain((await s.request({ method: 'POST', path: `/apis/${n.rbacGroup}/v1/clusterrolebindings`, body: o })).status);
    return s;
  }

  it('lets every authenticated user create a SelfSubjectReview, and nobody else', async () => {
    const s = await bootstrapped();
    const review = (user: User) => authorize(s.world, names, res(user, 'create', 'selfsubjectreviews', { apiGroup: names.authenticationGroup }));
    expect(review(authedAlice)).toEqual({ allowed: true });
    expect(review(sa('team', 'builder'))).toEqual({ allowed: true });
    expect(review(anonymous)).toEqual({ allowed: false, reason: '' });
    expect(authorize(s.world, names, res(authedAlice, 'create', 'selfsubjectaccessreviews', { apiGroup: 'authorization.platform.io' })).allowed).toBe(true);
    expect(authorize(s.world, names, res(authedAlice, 'create', 'tokenreviews', { apiGroup: names.authenticationGroup })).allowed).toBe(false);
  });

  it('serves the issuer discovery documents to service accounts only', async () => {
    const s = await bootstrapped();
    for (const path of ['/openid/v1/jwks', '/.well-known/openid-configuration']) {
      expect(authorize(s.world, names, url(sa('team', 'builder'), 'get', path)).allowed).toBe(true);
      expect(authorize(s.world, names, url(authedAlice, 'get', path)).allowed).toBe(false);
      expect(authorize(s.world, names, url(anonymous, 'get', path)).allowed).toBe(false);
    }
    expect(authorize(s.world, names, url(anonymous, 'get', '/healthz')).allowed).toBe(true);
    expect(authorize(s.world, names, url(anonymous, 'get', '/apis')).allowed).toBe(false);
    expect(authorize(s.world, names, url(authedAlice, 'get', '/apis/apps/v1')).allowed).toBe(true);
  });

  it('makes edit usable through a RoleBinding, view read-only, auth-delegator opt-in', async () => {
    const s = await bootstrapped();
    await roleBinding(s, 'team', 'editors', { kind: 'ClusterRole', name: 'edit' }, [{ kind: 'User', name: 'alice' }]);
    await roleBinding(s, 'team', 'viewers', { kind: 'ClusterRole', name: 'view' }, [{ kind: 'User', name: 'carol' }]);
    const carol: User = { username: 'carol', groups: ['system:authenticated'] };
    const ns = { namespace: 'team' };
    expect(authorize(s.world, names, res(alice, 'create', 'serviceaccounts', { ...ns, name: 'x', subresource: 'token' })).allowed).toBe(true);
    expect(authorize(s.world, names, res(alice, 'impersonate', 'serviceaccounts', { ...ns, name: 'x' })).allowed).toBe(true);
    expect(authorize(s.world, names, res(alice, 'delete', 'secrets', { ...ns, name: 'x' })).allowed).toBe(true);
    expect(authorize(s.world, names, res(alice, 'update', 'statefulsets', { ...ns, apiGroup: 'apps', name: 'x' })).allowed).toBe(true);
    expect(authorize(s.world, names, res(alice, 'create', 'roles', { ...ns, apiGroup: g })).allowed).toBe(false);
    expect(authorize(s.world, names, res(carol, 'list', 'pods', ns)).allowed).toBe(true);
    expect(authorize(s.world, names, res(carol, 'get', 'secrets', { ...ns, name: 'x' })).allowed).toBe(false);
    expect(authorize(s.world, names, res(carol, 'create', 'configmaps', ns)).allowed).toBe(false);
    await clusterBinding(s, 'delegate', 'system:auth-delegator', [{ kind: 'User', name: 'carol' }]);
    expect(authorize(s.world, names, res(carol, 'create', 'tokenreviews', { apiGroup: names.authenticationGroup })).allowed).toBe(true);
  });

  it('follows the names table', () => {
    const k8s = bootstrapPolicy(namesFor('k8s.io'));
    const admin = k8s.clusterRoleBindings[0]!;
    expect(admin).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'cluster-admin', labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' }, annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' } },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:masters' }],
    });
    const basic = k8s.clusterRoles.find((r) => r.metadata.name === 'system:basic-user')!;
    expect(basic['rules']).toEqual([
      { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] },
      { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
    ]);
    expect(bootstrapPolicy(names).clusterRoles[0]!.metadata.labels).toEqual({ 'platform.io/bootstrapping': 'rbac-defaults' });
  });

  it('is accepted by the API in k8s.io mode too', async () => {
    const s = await bootstrapped('k8s.io');
    const k8s = namesFor('k8s.io');
    expect(authorize(s.world, k8s, res(authedAlice, 'create', 'selfsubjectreviews', { apiGroup: 'authentication.k8s.io' })).allowed).toBe(true);
  });
});
