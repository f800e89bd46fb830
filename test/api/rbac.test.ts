/**
 * RBAC kinds through the API as the default in-process admin: CRUD, defaulting, tables and each
 * validation rule of pkg/apis/rbac/validation with its exact message.
 */
import { describe, expect, it } from 'vitest';
import { sim, type Body } from '../helpers.ts';

const g = 'rbac.authorization.platform.io';
const base = `/apis/${g}/v1`;
const roles = `${base}/namespaces/default/roles`;
const bindings = `${base}/namespaces/default/rolebindings`;
const clusterRoles = `${base}/clusterroles`;
const clusterBindings = `${base}/clusterrolebindings`;
const readPods = { verbs: ['get'], apiGroups: [''], resources: ['pods'] };

async function message(path: string, body: Body, method = 'POST'): Promise<string> {
  const s = await sim();
  const res = await s.request({ method, path, body });
  expect(res.status).toBe(422);
  return (res.body as Body).message as string;
}

describe('RBAC CRUD', () => {
  it('creates, reads, updates, lists and deletes roles and bindings', async () => {
    const s = await sim();
    const role = await s.request({ method: 'POST', path: roles, body: { metadata: { name: 'pod-reader' }, rules: [readPods] } });
    expect(role.status).toBe(201);
    expect(role.body).toMatchObject({ apiVersion: `${g}/v1`, kind: 'Role', metadata: { name: 'pod-reader', namespace: 'default' }, rules: [readPods] });
    const rb = await s.request({
      method: 'POST',
      path: bindings,
      body: { metadata: { name: 'read' }, roleRef: { kind: 'Role', name: 'pod-reader' }, subjects: [{ kind: 'User', name: 'alice' }, { kind: 'ServiceAccount', name: 'builder' }] },
    });
    expect(rb.status).toBe(201);
    // Defaults of rbac/v1: roleRef and User/Group subjects get the RBAC group, ServiceAccount stays "".
    expect((rb.body as Body).roleRef).toEqual({ apiGroup: g, kind: 'Role', name: 'pod-reader' });
    expect((rb.body as Body).subjects).toEqual([{ kind: 'User', apiGroup: g, name: 'alice' }, { kind: 'ServiceAccount', name: 'builder' }]);
    const updated = await s.request({ method: 'PUT', path: `${roles}/pod-reader`, body: { ...(role.body as Body), rules: [{ ...readPods, verbs: ['get', 'list'] }] } });
    expect(updated.status).toBe(200);
    expect((updated.body as Body).rules[0].verbs).toEqual(['get', 'list']);
    const list = (await s.request({ method: 'GET', path: bindings })).body as Body;
    expect(list.kind).toBe('RoleBindingList');
    expect(list.items.map((i: Body) => i.metadata.name)).toEqual(['read']);
    const del = await s.request({ method: 'DELETE', path: `${roles}/pod-reader` });
    expect(del.status).toBe(200);
    expect((del.body as Body).kind).toBe('Status');
    expect((await s.request({ method: 'GET', path: `${roles}/pod-reader` })).status).toBe(404);
  });

  it('serves cluster-scoped ClusterRoles and ClusterRoleBindings with path-segment names', async () => {
    const s = await sim();
    const cr = await s.request({ method: 'POST', path: clusterRoles, body: { metadata: { name: 'system:pod-reader' }, rules: [readPods, { verbs: ['get'], nonResourceURLs: ['/healthz'] }] } });
    expect(cr.status).toBe(201);
    expect((cr.body as Body).metadata.namespace).toBeUndefined();
    const crb = await s.request({
      method: 'POST',
      path: clusterBindings,
      body: { metadata: { name: 'Readers:All' }, roleRef: { apiGroup: g, kind: 'ClusterRole', name: 'system:pod-reader' }, subjects: [{ kind: 'Group', name: 'team' }] },
    });
    expect(crb.status).toBe(201);
    expect((await s.request({ method: 'GET', path: `${clusterBindings}/Readers:All` })).status).toBe(200);
  });

  it('renders kubectl tables', async () => {
    const s = await sim();
    await s.request({ method: 'POST', path: roles, body: { metadata: { name: 'r' }, rules: [readPods] } });
    await s.request({
      method: 'POST',
      path: bindings,
      body: { metadata: { name: 'b' }, roleRef: { kind: 'Role', name: 'r' }, subjects: [{ kind: 'User', name: 'u1' }, { kind: 'User', name: 'u2' }, { kind: 'Group', name: 'g' }, { kind: 'ServiceAccount', name: 'sa', namespace: 'ns' }] },
    });
    const accept = { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };
    const rt = (await s.request({ method: 'GET', path: roles, headers: accept })).body as Body;
    expect(rt.columnDefinitions.map((c: Body) => c.name)).toEqual(['Name', 'Created At']);
    expect(rt.rows[0].cells).toEqual(['r', '2026-01-01T00:00:00Z']);
    const bt = (await s.request({ method: 'GET', path: bindings, headers: accept })).body as Body;
    expect(bt.columnDefinitions.map((c: Body) => [c.name, c.priority])).toEqual([['Name', 0], ['Role', 0], ['Age', 0], ['Users', 1], ['Groups', 1], ['ServiceAccounts', 1]]);
    expect(bt.rows[0].cells).toEqual(['b', 'Role/r', '0s', 'u1, u2', 'g', 'ns/sa']);
  });
});

describe('RBAC validation', () => {
  it('requires verbs, and apiGroups and resources for resource rules', async () => {
    expect(await message(roles, { metadata: { name: 'r' }, rules: [{}] })).toBe(
      'Role.rbac.authorization.platform.io "r" is invalid: [rules[0].verbs: Required value: verbs must contain at least one value, ' +
        'rules[0].apiGroups: Required value: resource rules must supply at least one api group, ' +
        'rules[0].resources: Required value: resource rules must supply at least one resource]',
    );
  });

  it('forbids non-resource URLs in a Role and mixed rules anywhere', async () => {
    expect(await message(roles, { metadata: { name: 'r' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] })).toBe(
      'Role.rbac.authorization.platform.io "r" is invalid: rules[0].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs',
    );
    expect(await message(clusterRoles, { metadata: { name: 'c' }, rules: [{ verbs: ['get'], resources: ['pods'], nonResourceURLs: ['/x'] }] })).toBe(
      'ClusterRole.rbac.authorization.platform.io "c" is invalid: rules[0].nonResourceURLs: Invalid value: ["/x"]: rules cannot apply to both regular resources and non-resource URLs',
    );
  });

  it('requires a selector in an aggregationRule', async () => {
    expect(await message(clusterRoles, { metadata: { name: 'c' }, aggregationRule: {} })).toBe(
      'ClusterRole.rbac.authorization.platform.io "c" is invalid: aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil',
    );
  });

  it('validates names as path segments', async () => {
    expect(await message(roles, { metadata: { name: 'a%b' }, rules: [] })).toBe(
      `Role.rbac.authorization.platform.io "a%b" is invalid: metadata.name: Invalid value: "a%b": may not contain '%'`,
    );
    expect(await message(bindings, { metadata: { name: '..' }, roleRef: { kind: 'Role', name: 'x' } })).toBe(
      `RoleBinding.rbac.authorization.platform.io ".." is invalid: metadata.name: Invalid value: "..": may not be '..'`,
    );
  });

  it('checks roleRef kind, group and name', async () => {
    expect(await message(bindings, { metadata: { name: 'b' }, roleRef: { apiGroup: 'other', kind: 'Thing' } })).toBe(
      'RoleBinding.rbac.authorization.platform.io "b" is invalid: [roleRef.apiGroup: Unsupported value: "other": supported values: "rbac.authorization.platform.io", ' +
        'roleRef.kind: Unsupported value: "Thing": supported values: "Role", "ClusterRole", roleRef.name: Required value]',
    );
    expect(await message(clusterBindings, { metadata: { name: 'b' }, roleRef: { kind: 'Role', name: 'a/b' } })).toBe(
      'ClusterRoleBinding.rbac.authorization.platform.io "b" is invalid: [roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole", ' +
        `roleRef.name: Invalid value: "a/b": may not contain '/']`,
    );
  });

  it('checks subjects', async () => {
    const body = (subjects: Body[]) => ({ metadata: { name: 'b' }, roleRef: { kind: 'ClusterRole', name: 'view' }, subjects });
    expect(await message(bindings, body([{ kind: 'Robot', name: 'r' }]))).toBe(
      'RoleBinding.rbac.authorization.platform.io "b" is invalid: subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
    );
    expect(await message(bindings, body([{ kind: 'User', apiGroup: 'x', name: '' }]))).toBe(
      'RoleBinding.rbac.authorization.platform.io "b" is invalid: [subjects[0].name: Required value, subjects[0].apiGroup: Unsupported value: "x": supported values: "rbac.authorization.platform.io"]',
    );
    expect(await message(bindings, body([{ kind: 'ServiceAccount', apiGroup: g, name: 'Bad_Name' }]))).toBe(
      'RoleBinding.rbac.authorization.platform.io "b" is invalid: [subjects[0].name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, ' +
        `'-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), ` +
        'subjects[0].apiGroup: Unsupported value: "rbac.authorization.platform.io": supported values: ""]',
    );
    // A ClusterRoleBinding has no namespace to default a service account's from.
    expect(await message(clusterBindings, body([{ kind: 'ServiceAccount', name: 'sa' }]))).toBe(
      'ClusterRoleBinding.rbac.authorization.platform.io "b" is invalid: subjects[0].namespace: Required value',
    );
  });

  it('refuses to change roleRef but allows changing subjects', async () => {
    const s = await sim();
    const created = (await s.request({ method: 'POST', path: bindings, body: { metadata: { name: 'b' }, roleRef: { kind: 'ClusterRole', name: 'view' } } })).body as Body;
    const subjects = await s.request({ method: 'PUT', path: `${bindings}/b`, body: { ...created, subjects: [{ kind: 'Group', name: 'devs' }] } });
    expect(subjects.status).toBe(200);
    const res = await s.request({ method: 'PUT', path: `${bindings}/b`, body: { ...(subjects.body as Body), roleRef: { apiGroup: g, kind: 'ClusterRole', name: 'edit' } } });
    expect(res.status).toBe(422);
    expect((res.body as Body).message).toBe(
      `RoleBinding.rbac.authorization.platform.io "b" is invalid: roleRef: Invalid value: {"APIGroup":"${g}","Kind":"ClusterRole","Name":"edit"}: cannot change roleRef`,
    );
    const patch = await s.request({ method: 'PATCH', path: `${bindings}/b`, headers: { 'content-type': 'application/merge-patch+json' }, body: { roleRef: { name: 'admin' } } });
    expect(patch.status).toBe(422);
  });

  it('uses the k8s.io group in compatibility mode', async () => {
    const s = await sim({ groupDomain: 'k8s.io' });
    const res = await s.request({ method: 'POST', path: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', body: { metadata: { name: 'b' }, roleRef: { apiGroup: g, kind: 'ClusterRole', name: 'view' } } });
    expect((res.body as Body).message).toBe(
      'ClusterRoleBinding.rbac.authorization.k8s.io "b" is invalid: roleRef.apiGroup: Unsupported value: "rbac.authorization.platform.io": supported values: "rbac.authorization.k8s.io"',
    );
  });
});
