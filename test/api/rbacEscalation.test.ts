/**
 * The RBAC escalation check (pkg/registry/rbac/<kind>/policybased): a user may write a role or a
 * binding only when it holds every permission granted, or may `escalate` the role / `bind` the
 * referenced role. Each rule is a case that fails without it; every refusal is the real 403 and
 * leaves the world as it was. Users act through `as` (plus system:authenticated); the default
 * in-process admin (system:masters) prepares the world.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, sim, type Body } from '../helpers.ts';
import type { Simulation } from '../../src/index.ts';
import { serve, type RunningServer } from '../../src/server.ts';

const g = 'rbac.authorization.platform.io';
const rbac = `/apis/${g}/v1`;
const roles = (ns = 'team') => `${rbac}/namespaces/${ns}/roles`;
const bindings = (ns = 'team') => `${rbac}/namespaces/${ns}/rolebindings`;
const clusterRoles = `${rbac}/clusterroles`;
const clusterBindings = `${rbac}/clusterrolebindings`;
const bob = { user: 'bob' };

const rule = (verbs: string[], resources: string[], extra: Body = {}): Body => ({ verbs, apiGroups: [extra['group'] ?? ''], resources, ...(extra['names'] === undefined ? {} : { resourceNames: extra['names'] }) });
const rbacRule = (verbs: string[], resources: string[], names?: string[]): Body => ({ verbs, apiGroups: [g], resources, ...(names === undefined ? {} : { resourceNames: names }) });
const getSecrets = rule(['get'], ['secrets']);
const toBob = [{ kind: 'User', name: 'bob' }];

/** The 403 of the storage: `user "bob" … not currently held:` and one line per missing rule. */
function escalation(resource: string, name: string, missing: string[], suffix = ''): Body {
  const target = name === '' ? `${resource}.${g}` : `${resource}.${g} "${name}"`;
  const details = name === '' ? { group: g, kind: resource } : { name, group: g, kind: resource };
  return failure(403, 'Forbidden', `${target} is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n${missing.join('\n')}${suffix}`, details);
}

const everything = ['{APIGroups:["*"], Resources:["*"], Verbs:["*"]}', '{NonResourceURLs:["*"], Verbs:["*"]}'];

async function world(): Promise<Simulation> {
  const s = await sim();
  for (const name of ['team', 'other']) expect((await s.request({ method: 'POST', path: '/api/v1/namespaces', body: { metadata: { name } } })).status).toBe(201);
  return s;
}

/** As the admin: a Role (or ClusterRole with `cluster`) with these rules, bound to bob where asked. */
async function grant(s: Simulation, name: string, rules: Body[], where: { ns?: string; cluster?: boolean; clusterWide?: boolean } = {}): Promise<void> {
  const ns = where.ns ?? 'team';
  const cluster = where.cluster === true || where.clusterWide === true;
  const role = await s.request({ method: 'POST', path: cluster ? clusterRoles : roles(ns), body: { metadata: { name }, rules } });
  expect(role.status).toBe(201);
  const roleRef = { apiGroup: g, kind: cluster ? 'ClusterRole' : 'Role', name };
  const path = where.clusterWide === true ? clusterBindings : bindings(ns);
  expect((await s.request({ method: 'POST', path, body: { metadata: { name: `bob-${name}` }, roleRef, subjects: toBob } })).status).toBe(201);
}

const asBob = (s: Simulation, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  s.request({ method, path, as: bob, ...(body === undefined ? {} : { body }), ...(headers === undefined ? {} : { headers }) });

describe('binding a role one does not hold', () => {
  it('refuses a RoleBinding to cluster-admin with the real 403, leaves the world alone, and bob still cannot read secrets', async () => {
    const s = await world();
    await grant(s, 'binder', [rbacRule(['create'], ['rolebindings'])]);
    const before = s.hash();
    const body = { metadata: { name: 'pwn' }, roleRef: { apiGroup: g, kind: 'ClusterRole', name: 'cluster-admin' }, subjects: toBob };
    const res = await asBob(s, 'POST', bindings(), body);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(escalation('rolebindings', 'pwn', everything));
    // Dry run: the same check, the same answer.
    expect((await asBob(s, 'POST', `${bindings()}?dryRun=All`, body)).body).toEqual(escalation('rolebindings', 'pwn', everything));
    expect(s.hash()).toBe(before);
    expect((await asBob(s, 'GET', '/api/v1/namespaces/team/secrets')).status).toBe(403);
  });

  it('binds it with `bind` on that ClusterRole by name, in the binding namespace only', async () => {
    const s = await world();
    await grant(s, 'binder', [rbacRule(['create'], ['rolebindings'])]);
    const body = (name: string) => ({ metadata: { name }, roleRef: { apiGroup: g, kind: 'ClusterRole', name: 'cluster-admin' }, subjects: toBob });
    // `bind` on another role, or on this one in another namespace, is not enough.
    await grant(s, 'bind-view', [rbacRule(['bind'], ['clusterroles'], ['view'])]);
    await grant(s, 'bind-elsewhere', [rbacRule(['bind'], ['clusterroles'], ['cluster-admin'])], { ns: 'other' });
    expect((await asBob(s, 'POST', bindings(), body('pwn'))).status).toBe(403);
    await grant(s, 'bind-admin', [rbacRule(['bind'], ['clusterroles'], ['cluster-admin'])]);
    const dry = await asBob(s, 'POST', `${bindings()}?dryRun=All`, body('pwn'));
    expect(dry.status).toBe(201);
    const created = await asBob(s, 'POST', bindings(), body('pwn'));
    expect(created.status).toBe(201);
    expect((await asBob(s, 'GET', '/api/v1/namespaces/team/secrets')).status).toBe(200);
    expect((await asBob(s, 'GET', '/api/v1/namespaces/other/secrets')).status).toBe(403);
  });

  it('binds a role whose permissions it holds (the bootstrap admin role covers edit)', async () => {
    const s = await world();
    expect((await s.request({ method: 'POST', path: bindings(), body: { metadata: { name: 'bob-admin' }, roleRef: { apiGroup: g, kind: 'ClusterRole', name: 'admin' }, subjects: toBob } })).status).toBe(201);
    const edit = await asBob(s, 'POST', bindings(), { metadata: { name: 'alice-edit' }, roleRef: { kind: 'ClusterRole', name: 'edit' }, subjects: [{ kind: 'User', name: 'alice' }] });
    expect(edit.status).toBe(201);
    // Held in team, not in other: the same binding there is refused.
    expect((await asBob(s, 'POST', bindings('other'), { metadata: { name: 'x' }, roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: toBob })).status).toBe(403);
  });

  it('answers 404 for a missing role unless `bind` allows it, and resolves Roles in the binding namespace', async () => {
    const s = await world();
    await grant(s, 'binder', [rbacRule(['create'], ['rolebindings'])]);
    const ghost = await asBob(s, 'POST', bindings(), { metadata: { name: 'b' }, roleRef: { kind: 'Role', name: 'ghost' }, subjects: toBob });
    expect(ghost.body).toEqual(failure(404, 'NotFound', `roles.${g} "ghost" not found`, { name: 'ghost', group: g, kind: 'roles' }));
    await grant(s, 'bind-roles', [rbacRule(['bind'], ['roles'])]);
    expect((await asBob(s, 'POST', bindings(), { metadata: { name: 'b' }, roleRef: { kind: 'Role', name: 'ghost' }, subjects: toBob })).status).toBe(201);
  });

  it('refuses a ClusterRoleBinding unless the rules are held cluster-wide, or `bind` is granted cluster-wide', async () => {
    const s = await world();
    await grant(s, 'crb-writer', [rbacRule(['create'], ['clusterrolebindings'])], { clusterWide: true });
    // view's rules held in a namespace do not count for a ClusterRoleBinding.
    expect((await s.request({ method: 'POST', path: bindings(), body: { metadata: { name: 'bob-view' }, roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: toBob } })).status).toBe(201);
    const body = { metadata: { name: 'pwn' }, roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: toBob };
    const res = await asBob(s, 'POST', clusterBindings, body);
    expect(res.status).toBe(403);
    const message = (res.body as Body).message as string;
    expect(message.startsWith(`clusterrolebindings.${g} "pwn" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n`)).toBe(true);
    expect(message).toContain('\n{APIGroups:[""], Resources:["configmaps"], Verbs:["get" "list" "watch"]}\n');
    expect((await asBob(s, 'POST', clusterBindings, { ...body, roleRef: { kind: 'ClusterRole', name: 'ghost' } })).body).toEqual(
      failure(404, 'NotFound', `clusterroles.${g} "ghost" not found`, { name: 'ghost', group: g, kind: 'clusterroles' }),
    );
    await grant(s, 'bind-view', [rbacRule(['bind'], ['clusterroles'], ['view'])], { clusterWide: true });
    expect((await asBob(s, 'POST', clusterBindings, body)).status).toBe(201);
  });
});

describe('writing a role', () => {
  const reader = (rules: Body[], name = 'reader') => ({ metadata: { name }, rules });

  it('refuses a Role granting secrets get that bob lacks; allows it with `escalate`, or once bob holds it', async () => {
    const s = await world();
    await grant(s, 'role-writer', [rbacRule(['create'], ['roles'])]);
    const before = s.hash();
    const res = await asBob(s, 'POST', roles(), reader([getSecrets]));
    expect(res.body).toEqual(escalation('roles', 'reader', ['{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}']));
    expect(s.hash()).toBe(before);
    // Held in another namespace only: still refused here.
    await grant(s, 'secret-reader', [getSecrets], { ns: 'other' });
    expect((await asBob(s, 'POST', roles(), reader([getSecrets]))).status).toBe(403);
    await grant(s, 'secret-reader', [getSecrets]);
    expect((await asBob(s, 'POST', roles(), reader([getSecrets]))).status).toBe(201);
  });

  it('lets `escalate` on roles grant anything', async () => {
    const s = await world();
    await grant(s, 'role-writer', [rbacRule(['create'], ['roles']), rbacRule(['escalate'], ['roles'])]);
    expect((await asBob(s, 'POST', roles(), reader([rule(['*'], ['*'], { group: '*' })]))).status).toBe(201);
  });

  it('lists every missing rule compacted by resource, sorted, with resourceNames atom by atom', async () => {
    const s = await world();
    await grant(s, 'role-writer', [rbacRule(['create'], ['roles']), rule(['get'], ['secrets'], { names: ['a'] })]);
    const res = await asBob(s, 'POST', roles(), reader([rule(['get', 'list'], ['secrets', 'configmaps']), rule(['get', 'update'], ['secrets'], { names: ['a', 'b'] })]));
    expect(res.body).toEqual(
      escalation('roles', 'reader', [
        '{APIGroups:[""], Resources:["configmaps"], Verbs:["get" "list"]}',
        '{APIGroups:[""], Resources:["secrets"], ResourceNames:["a"], Verbs:["update"]}',
        '{APIGroups:[""], Resources:["secrets"], ResourceNames:["b"], Verbs:["get" "update"]}',
        '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}',
      ]),
    );
    // A name-restricted rule covers exactly its names.
    expect((await asBob(s, 'POST', roles(), reader([rule(['get'], ['secrets'], { names: ['a'] })]))).status).toBe(201);
  });

  it('covers with `*` verbs, groups and resources, `*/<sub>` subresources and URL prefixes', async () => {
    const s = await world();
    await grant(s, 'role-writer', [rbacRule(['create'], ['clusterroles']), rule(['*'], ['*']), rule(['get'], ['*/scale'], { group: '*' })], { clusterWide: true });
    await grant(s, 'urls', [{ verbs: ['get'], nonResourceURLs: ['/logs/*'] }], { clusterWide: true });
    const ok = await asBob(s, 'POST', clusterRoles, reader([rule(['delete', 'get'], ['secrets', 'pods/log']), rule(['get'], ['deployments/scale'], { group: 'apps' }), { verbs: ['get'], nonResourceURLs: ['/logs/kubelet'] }]));
    expect(ok.status).toBe(201);
    const res = await asBob(s, 'POST', clusterRoles, reader([rule(['get'], ['deployments'], { group: 'apps' }), { verbs: ['get', 'post'], nonResourceURLs: ['/logs', '/logs/x'] }], 'more'));
    expect(res.body).toEqual(
      escalation('clusterroles', 'more', [
        '{APIGroups:["apps"], Resources:["deployments"], Verbs:["get"]}',
        '{NonResourceURLs:["/logs"], Verbs:["get"]}',
        '{NonResourceURLs:["/logs"], Verbs:["post"]}',
        '{NonResourceURLs:["/logs/x"], Verbs:["post"]}',
      ]),
    );
  });

  it('names bindings whose role is missing as resolution errors', async () => {
    const s = await world();
    await grant(s, 'role-writer', [rbacRule(['create'], ['roles'])]);
    for (const name of ['ghost-1', 'ghost-2']) await s.request({ method: 'POST', path: bindings(), body: { metadata: { name }, roleRef: { kind: 'Role', name: 'ghost' }, subjects: toBob } });
    await s.request({ method: 'POST', path: bindings(), body: { metadata: { name: 'ghost-3' }, roleRef: { kind: 'ClusterRole', name: 'ghost' }, subjects: toBob } });
    const res = await asBob(s, 'POST', roles(), reader([getSecrets]));
    expect(res.body).toEqual(
      escalation('roles', 'reader', ['{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}'], `; resolution errors: [[roles.${g} "ghost" not found, clusterroles.${g} "ghost" not found]]`),
    );
  });

  it('needs full authority for an aggregationRule, on create and when an update drops one', async () => {
    const s = await world();
    await grant(s, 'role-writer', [rbacRule(['create', 'update'], ['clusterroles'])], { clusterWide: true });
    const aggregated = { metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] }, rules: [] };
    const res = await asBob(s, 'POST', clusterRoles, aggregated);
    expect(res.body).toEqual(failure(403, 'Forbidden', `clusterroles.${g} "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule`, { name: 'agg', group: g, kind: 'clusterroles' }));
    const stored = (await s.request({ method: 'POST', path: clusterRoles, body: aggregated })).body as Body;
    const { aggregationRule: _dropped, ...plain } = stored;
    expect((await asBob(s, 'PUT', `${clusterRoles}/agg`, plain)).status).toBe(403);
    // Bound to cluster-admin (not a member of system:masters): the writer holds `*` on everything.
    await s.request({ method: 'POST', path: clusterBindings, body: { metadata: { name: 'bob-root' }, roleRef: { kind: 'ClusterRole', name: 'cluster-admin' }, subjects: toBob } });
    expect((await asBob(s, 'PUT', `${clusterRoles}/agg`, plain)).status).toBe(200);
  });

  it('lets system:masters grant anything, without even holding it through a binding', async () => {
    const s = await world();
    expect((await s.request({ method: 'DELETE', path: `${clusterBindings}/cluster-admin` })).status).toBe(200);
    const res = await s.request({ method: 'POST', path: bindings(), as: { user: 'root', groups: ['system:masters'] }, body: { metadata: { name: 'x' }, roleRef: { kind: 'ClusterRole', name: 'cluster-admin' }, subjects: toBob } });
    expect(res.status).toBe(201);
  });

  it('names no object under generateName (the name is generated after the check)', async () => {
    const s = await world();
    await grant(s, 'role-writer', [rbacRule(['create'], ['roles'])]);
    const res = await asBob(s, 'POST', roles(), { metadata: { generateName: 'r-' }, rules: [getSecrets] });
    expect(res.body).toEqual(escalation('roles', '', ['{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}']));
  });
});

describe('updates, patches and apply', () => {
  async function prepared(): Promise<{ s: Simulation; role: Body; binding: Body }> {
    const s = await world();
    await grant(s, 'writer', [rbacRule(['get', 'update', 'patch'], ['roles', 'rolebindings'])]);
    const role = (await s.request({ method: 'POST', path: roles(), body: { metadata: { name: 'pods' }, rules: [rule(['get'], ['pods'])] } })).body as Body;
    const binding = (await s.request({ method: 'POST', path: bindings(), body: { metadata: { name: 'root' }, roleRef: { kind: 'ClusterRole', name: 'cluster-admin' }, subjects: [{ kind: 'User', name: 'carol' }] } })).body as Body;
    return { s, role, binding };
  }

  it('refuses a PUT adding an ungranted rule, before the stale resourceVersion (409) and validation (422) would answer', async () => {
    const { s, role } = await prepared();
    const before = s.hash();
    const missing = ['{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}'];
    expect((await asBob(s, 'PUT', `${roles()}/pods`, { ...role, rules: [getSecrets] })).body).toEqual(escalation('roles', 'pods', missing));
    expect((await asBob(s, 'PUT', `${roles()}/pods`, { ...role, metadata: { ...role.metadata, resourceVersion: '1' }, rules: [getSecrets] })).body).toEqual(escalation('roles', 'pods', missing));
    expect((await asBob(s, 'PUT', `${roles()}/pods`, { ...role, rules: [getSecrets, { verbs: [], apiGroups: [''], resources: ['pods'] }] })).status).toBe(403);
    expect((await asBob(s, 'PUT', `${roles()}/pods?dryRun=All`, { ...role, rules: [getSecrets] })).status).toBe(403);
    expect(s.hash()).toBe(before);
    // The check comes after the earlier answers: a name other than the URL's (400), a uid
    // precondition (409), a missing object (404), a namespace that is not there (404).
    expect((await asBob(s, 'PUT', `${roles()}/pods`, { ...role, metadata: { ...role.metadata, name: 'x' }, rules: [getSecrets] })).status).toBe(400);
    const stale = await asBob(s, 'PUT', `${roles()}/pods`, { ...role, metadata: { ...role.metadata, uid: 'not-this-one' }, rules: [getSecrets] });
    expect([stale.status, (stale.body as Body).reason]).toEqual([409, 'Conflict']);
    expect((await asBob(s, 'PUT', `${roles()}/ghost`, { ...role, metadata: { name: 'ghost' }, rules: [getSecrets] })).status).toBe(404);
    await grant(s, 'creator', [rbacRule(['create'], ['roles'])], { cluster: true, clusterWide: true });
    const gone = await asBob(s, 'POST', roles('gone'), { metadata: { name: 'r' }, rules: [getSecrets] });
    expect(gone.body).toEqual(failure(404, 'NotFound', 'namespaces "gone" not found', { name: 'gone', kind: 'namespaces' }));
  });

  it('refuses adding oneself to a binding of a role one does not hold, but lets owner references and finalizers change', async () => {
    const { s, binding } = await prepared();
    const res = await asBob(s, 'PUT', `${bindings()}/root`, { ...binding, subjects: [...binding.subjects, { kind: 'User', apiGroup: g, name: 'bob' }] });
    expect(res.body).toEqual(escalation('rolebindings', 'root', everything));
    const owner = (await s.request({ method: 'POST', path: '/api/v1/namespaces/team/configmaps', body: { metadata: { name: 'owner' } } })).body as Body;
    // Groups left out are defaulted before the comparison, as decoding does.
    const bare = { ...binding, roleRef: { kind: 'ClusterRole', name: 'cluster-admin' }, subjects: [{ kind: 'User', name: 'carol' }] };
    const gcOnly = { ...bare, metadata: { ...binding.metadata, finalizers: ['example.com/keep'], ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid }] } };
    const kept = await asBob(s, 'PUT', `${bindings()}/root`, gcOnly);
    expect(kept.status).toBe(200);
    expect((kept.body as Body).metadata.finalizers).toEqual(['example.com/keep']);
    // A no-op update of an object granting more than bob holds needs nothing either.
    expect((await asBob(s, 'PUT', `${bindings()}/root`, kept.body)).status).toBe(200);
  });

  it('checks the object a merge patch, JSON patch or apply produces; a refused patch changes nothing', async () => {
    const { s } = await prepared();
    const before = s.hash();
    const missing = ['{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}'];
    const merge = await asBob(s, 'PATCH', `${roles()}/pods`, { rules: [getSecrets] }, { 'content-type': 'application/merge-patch+json' });
    expect(merge.body).toEqual(escalation('roles', 'pods', missing));
    const json = await asBob(s, 'PATCH', `${roles()}/pods`, [{ op: 'add', path: '/rules/-', value: getSecrets }], { 'content-type': 'application/json-patch+json' });
    expect(json.status).toBe(403);
    const apply = await asBob(s, 'PATCH', `${roles()}/pods?fieldManager=bob&force=true`, { apiVersion: `${g}/v1`, kind: 'Role', metadata: { name: 'pods' }, rules: [getSecrets] }, { 'content-type': 'application/apply-patch+yaml' });
    expect(apply.status).toBe(403);
    const label = await asBob(s, 'PATCH', `${bindings()}/root`, { metadata: { labels: { team: 'a' } } }, { 'content-type': 'application/merge-patch+json' });
    expect(label.body).toEqual(escalation('rolebindings', 'root', everything));
    // As the storage's wrapped UpdatedObject: on the patched object, before its stale
    // resourceVersion (409) or its validation (422) would answer; dry runs too.
    const merge409 = await asBob(s, 'PATCH', `${roles()}/pods`, { metadata: { resourceVersion: '1' }, rules: [getSecrets] }, { 'content-type': 'application/merge-patch+json' });
    expect(merge409.body).toEqual(escalation('roles', 'pods', missing));
    const invalid = { verbs: [], apiGroups: [''], resources: ['pods'] };
    const merge422 = await asBob(s, 'PATCH', `${roles()}/pods`, { rules: [getSecrets, invalid] }, { 'content-type': 'application/merge-patch+json' });
    expect(merge422.status).toBe(403);
    const apply422 = await asBob(s, 'PATCH', `${roles()}/pods?fieldManager=bob&force=true`, { apiVersion: `${g}/v1`, kind: 'Role', metadata: { name: 'pods' }, rules: [getSecrets, invalid] }, { 'content-type': 'application/apply-patch+yaml' });
    expect(apply422.status).toBe(403);
    const applyNew = await asBob(s, 'PATCH', `${roles()}/fresh?fieldManager=bob`, { apiVersion: `${g}/v1`, kind: 'Role', metadata: { name: 'fresh' }, rules: [getSecrets] }, { 'content-type': 'application/apply-patch+yaml' });
    expect(applyNew.body).toEqual(escalation('roles', 'fresh', missing));
    expect((await asBob(s, 'PATCH', `${roles()}/pods?dryRun=All`, { rules: [getSecrets] }, { 'content-type': 'application/merge-patch+json' })).status).toBe(403);
    // The patch's own answers come first: a patch that does not apply (422), a missing object (404).
    const unappliable = await asBob(s, 'PATCH', `${roles()}/pods`, [{ op: 'test', path: '/rules/0/verbs/0', value: 'delete' }, { op: 'add', path: '/rules/-', value: getSecrets }], { 'content-type': 'application/json-patch+json' });
    expect(unappliable.status).toBe(422);
    expect((await asBob(s, 'PATCH', `${roles()}/ghost`, { rules: [getSecrets] }, { 'content-type': 'application/merge-patch+json' })).status).toBe(404);
    expect(s.hash()).toBe(before);
    const allowed = await asBob(s, 'PATCH', `${roles()}/pods`, { metadata: { finalizers: ['example.com/keep'] } }, { 'content-type': 'application/merge-patch+json' });
    expect(allowed.status).toBe(200);
  });
});

describe('names mode', () => {
  it('uses the k8s.io groups in k8s.io mode', async () => {
    const s = await sim({ groupDomain: 'k8s.io' });
    const k = 'rbac.authorization.k8s.io';
    await s.request({ method: 'POST', path: `/apis/${k}/v1/namespaces/default/roles`, body: { metadata: { name: 'w' }, rules: [{ verbs: ['create'], apiGroups: [k], resources: ['roles'] }] } });
    await s.request({ method: 'POST', path: `/apis/${k}/v1/namespaces/default/rolebindings`, body: { metadata: { name: 'w' }, roleRef: { kind: 'Role', name: 'w' }, subjects: toBob } });
    const res = await s.request({ method: 'POST', path: `/apis/${k}/v1/namespaces/default/roles`, as: bob, body: { metadata: { name: 'r' }, rules: [getSecrets] } });
    expect((res.body as Body).message).toBe(`roles.${k} "r" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}`);
    expect((res.body as Body).details).toEqual({ name: 'r', group: k, kind: 'roles' });
  });
});

describe('over HTTP', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serve({ port: 0, clock: 'manual', seed: 3, tls: false, users: [{ token: 'bob-token', user: 'bob', groups: ['dev'] }] });
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers the same 403 Status to a real HTTP client', async () => {
    const admin = { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' };
    const post = (path: string, body: unknown, headers: Record<string, string>) => fetch(`${server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    expect((await post(roles('default'), { metadata: { name: 'binder' }, rules: [rbacRule(['create'], ['rolebindings'])] }, admin)).status).toBe(201);
    expect((await post(bindings('default'), { metadata: { name: 'binder' }, roleRef: { kind: 'Role', name: 'binder' }, subjects: toBob }, admin)).status).toBe(201);
    const res = await post(bindings('default'), { metadata: { name: 'pwn' }, roleRef: { kind: 'ClusterRole', name: 'cluster-admin' }, subjects: toBob }, { authorization: 'Bearer bob-token', 'content-type': 'application/json' });
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toBe('application/json');
    const text = await res.text();
    expect(JSON.parse(text)).toEqual(
      failure(403, 'Forbidden', `rolebindings.${g} "pwn" is forbidden: user "bob" (groups=["dev" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n${everything.join('\n')}`, { name: 'pwn', group: g, kind: 'rolebindings' }),
    );
    expect(text).toContain('not currently held:\\n{APIGroups:[\\"*\\"]');
  });
});
