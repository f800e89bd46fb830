/**
 * Generic API machinery on ServiceAccounts (and Pods/Secrets where a rule needs them):
 * generateName, dryRun, paging from a snapshot, compaction, selectors, resourceVersion reads,
 * finalizers, garbage collection, namespace deletion, YAML and Table output.
 */
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { createSA, saPath, sim, type Body } from '../helpers.ts';

describe('names and uids', () => {
  it('generates a name from generateName with the real alphabet and keeps generateName', async () => {
    const s = await sim();
    const res = await s.request({ method: 'POST', path: saPath(), body: { metadata: { generateName: 'bot-' } } });
    expect(res.status).toBe(201);
    const meta = (res.body as Body).metadata;
    expect(meta.name).toMatch(/^bot-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(meta.generateName).toBe('bot-');
  });

  it('truncates generateName to 58 characters before the suffix', async () => {
    const s = await sim();
    const res = await s.request({ method: 'POST', path: saPath(), body: { metadata: { generateName: 'a'.repeat(70) } } });
    expect((res.body as Body).metadata.name).toHaveLength(63);
  });

  it('draws uids and names from the seed: same seed, same values', async () => {
    const a = await sim({ seed: 7 });
    const b = await sim({ seed: 7 });
    const c = await sim({ seed: 8 });
    const ra = (await a.request({ method: 'POST', path: saPath(), body: { metadata: { generateName: 'x-' } } })).body as Body;
    const rb = (await b.request({ method: 'POST', path: saPath(), body: { metadata: { generateName: 'x-' } } })).body as Body;
    const rc = (await c.request({ method: 'POST', path: saPath(), body: { metadata: { generateName: 'x-' } } })).body as Body;
    expect(ra.metadata.uid).toBe(rb.metadata.uid);
    expect(ra.metadata.name).toBe(rb.metadata.name);
    expect(ra.metadata.uid).not.toBe(rc.metadata.uid);
  });
});

describe('dryRun=All', () => {
  it('runs everything, writes nothing, and answers without a resourceVersion', async () => {
    const s = await sim();
    const before = s.hash();
    const res = await s.request({ method: 'POST', path: `${saPath()}?dryRun=All`, body: { metadata: { name: 'dry' } } });
    expect(res.status).toBe(201);
    const meta = (res.body as Body).metadata;
    expect(meta.uid).toBeDefined();
    expect(meta.creationTimestamp).toBeDefined();
    expect(meta.resourceVersion).toBeUndefined();
    expect(s.hash()).toBe(before);
    expect((await s.request({ method: 'GET', path: saPath('default', 'dry') })).status).toBe(404);
    const real = (await createSA(s, 'dry')).body as Body;
    expect(real.metadata.uid).not.toBe(meta.uid);
  });

  it('still reports a name collision and leaves updates and deletes undone', async () => {
    const s = await sim();
    const sa = (await createSA(s, 'a')).body as Body;
    expect((await s.request({ method: 'POST', path: `${saPath()}?dryRun=All`, body: { metadata: { name: 'a' } } })).status).toBe(409);
    const before = s.hash();
    const upd = await s.request({ method: 'PUT', path: `${saPath('default', 'a')}?dryRun=All`, body: { ...sa, automountServiceAccountToken: false } });
    expect(upd.status).toBe(200);
    expect((upd.body as Body).metadata.resourceVersion).toBe(sa.metadata.resourceVersion);
    const del = await s.request({ method: 'DELETE', path: `${saPath('default', 'a')}?dryRun=All` });
    expect(del.status).toBe(200);
    expect(s.hash()).toBe(before);
  });
});

describe('list paging', () => {
  async function withAccounts(n: number) {
    const s = await sim();
    for (let i = 0; i < n; i++) await createSA(s, `sa-${String(i).padStart(2, '0')}`);
    return s;
  }

  it('pages with limit and continue, counting what remains', async () => {
    const s = await withAccounts(5);
    const p1 = (await s.request({ method: 'GET', path: `${saPath()}?limit=2` })).body as Body;
    expect(p1.items.map((i: Body) => i.metadata.name)).toEqual(['default', 'sa-00']);
    expect(p1.metadata.remainingItemCount).toBe(4);
    const token = JSON.parse(Buffer.from(p1.metadata.continue, 'base64url').toString());
    expect(token).toEqual({ v: 'meta.k8s.io/v1', rv: Number(p1.metadata.resourceVersion), start: 'sa-00\u0000' });
    const p2 = (await s.request({ method: 'GET', path: `${saPath()}?limit=2&continue=${p1.metadata.continue}` })).body as Body;
    expect(p2.items.map((i: Body) => i.metadata.name)).toEqual(['sa-01', 'sa-02']);
    expect(p2.metadata.resourceVersion).toBe(p1.metadata.resourceVersion);
    const p3 = (await s.request({ method: 'GET', path: `${saPath()}?limit=2&continue=${p2.metadata.continue}` })).body as Body;
    expect(p3.items.map((i: Body) => i.metadata.name)).toEqual(['sa-03', 'sa-04']);
    expect(p3.metadata.continue).toBeUndefined();
    expect(p3.metadata.remainingItemCount).toBeUndefined();
  });

  it('reads continued pages from the first page’s snapshot', async () => {
    const s = await withAccounts(4);
    const p1 = (await s.request({ method: 'GET', path: `${saPath()}?limit=2` })).body as Body;
    await s.request({ method: 'DELETE', path: saPath('default', 'sa-02') });
    await createSA(s, 'sa-99');
    const p2 = (await s.request({ method: 'GET', path: `${saPath()}?limit=10&continue=${p1.metadata.continue}` })).body as Body;
    expect(p2.items.map((i: Body) => i.metadata.name)).toEqual(['sa-01', 'sa-02', 'sa-03']);
  });

  it('answers 410 Expired with a fresh token once the snapshot is compacted', async () => {
    const s = await withAccounts(4);
    const p1 = (await s.request({ method: 'GET', path: `${saPath()}?limit=2` })).body as Body;
    await createSA(s, 'later');
    await s.advance('10m');
    const res = await s.request({ method: 'GET', path: `${saPath()}?limit=2&continue=${p1.metadata.continue}` });
    expect(res.status).toBe(410);
    const st = res.body as Body;
    expect(st.reason).toBe('Expired');
    expect(st.message).toMatch(/^The provided continue parameter is too old to display a consistent list result\./);
    const fresh = JSON.parse(Buffer.from(st.metadata.continue, 'base64url').toString());
    expect(fresh.rv).toBe(-1);
    const rest = (await s.request({ method: 'GET', path: `${saPath()}?continue=${st.metadata.continue}` })).body as Body;
    expect(rest.items.map((i: Body) => i.metadata.name)).toEqual(['sa-01', 'sa-02', 'sa-03']);
  });

  it('rejects a bad continue token and a continue with a resourceVersion', async () => {
    const s = await withAccounts(1);
    const bad = await s.request({ method: 'GET', path: `${saPath()}?continue=%%%` });
    expect(bad.status).toBe(400);
    expect((bad.body as Body).message).toMatch(/^invalid continue token: /);
    const p1 = (await s.request({ method: 'GET', path: `${saPath()}?limit=1` })).body as Body;
    const both = await s.request({ method: 'GET', path: `${saPath()}?continue=${p1.metadata.continue}&resourceVersion=5` });
    expect(both.status).toBe(400);
    expect((both.body as Body).message).toBe('specifying resource version is not allowed when using continue');
  });
});

describe('resourceVersion on reads', () => {
  it('answers 504 for a resourceVersion from the future', async () => {
    const s = await sim();
    const cur = s.world.revision;
    const res = await s.request({ method: 'GET', path: `${saPath()}?resourceVersion=${cur + 10}` });
    expect(res.status).toBe(504);
    expect(res.body).toMatchObject({
      reason: 'Timeout',
      message: `Timeout: Too large resource version: ${cur + 10}, current: ${cur}`,
      details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
    });
    expect(res.headers['retry-after']).toBe('1');
  });

  it('answers a GET of one object the same way, reads it at any older resourceVersion, and refuses one that is not a number', async () => {
    const s = await sim();
    const cur = s.world.revision;
    const one = await s.request({ method: 'GET', path: `${saPath()}/default?resourceVersion=${cur + 1}` });
    expect(one.status).toBe(504);
    expect(one.body).toMatchObject({ message: `Timeout: Too large resource version: ${cur + 1}, current: ${cur}` });
    for (const rv of ['0', '1', String(cur), '']) expect((await s.request({ method: 'GET', path: `${saPath()}/default?resourceVersion=${rv}` })).status).toBe(200);
    const bad = await s.request({ method: 'GET', path: `${saPath()}/default?resourceVersion=x` });
    expect(bad).toMatchObject({ status: 400, body: { message: 'invalid resource version: strconv.ParseUint: parsing "x": invalid syntax' } });
  });

  it('reads an exact older revision and refuses a compacted one', async () => {
    const s = await sim();
    await createSA(s, 'a');
    const at = s.world.revision;
    await createSA(s, 'b');
    const exact = (await s.request({ method: 'GET', path: `${saPath()}?resourceVersion=${at}&resourceVersionMatch=Exact` })).body as Body;
    expect(exact.items.map((i: Body) => i.metadata.name)).toEqual(['a', 'default']);
    await s.advance('11m');
    const old = await s.request({ method: 'GET', path: `${saPath()}?resourceVersion=${at}&resourceVersionMatch=Exact` });
    expect(old.status).toBe(410);
    expect((old.body as Body).message).toBe('The resourceVersion for the provided list is too old.');
  });

  it('validates resourceVersionMatch with the ListOptions messages', async () => {
    const s = await sim();
    const res = await s.request({ method: 'GET', path: `${saPath()}?resourceVersionMatch=Exact` });
    expect(res.status).toBe(422);
    expect((res.body as Body).message).toBe('ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided');
  });
});

describe('selectors', () => {
  it('filters by label and field selectors and refuses unsupported fields', async () => {
    const s = await sim();
    await createSA(s, 'a', { metadata: { labels: { tier: 'web', env: 'prod' } } });
    await createSA(s, 'b', { metadata: { labels: { tier: 'db' } } });
    const names = async (q: string) => ((await s.request({ method: 'GET', path: `${saPath()}?${q}` })).body as Body).items.map((i: Body) => i.metadata.name);
    expect(await names('labelSelector=tier%3Dweb')).toEqual(['a']);
    expect(await names('labelSelector=tier%20in%20(web,db)')).toEqual(['a', 'b']);
    expect(await names('labelSelector=env%21%3Dprod')).toEqual(['b', 'default']);
    expect(await names('labelSelector=!env')).toEqual(['b', 'default']);
    expect(await names('fieldSelector=metadata.name%3Db')).toEqual(['b']);
    const all = (await s.request({ method: 'GET', path: '/api/v1/serviceaccounts?fieldSelector=metadata.namespace%3Ddefault' })).body as Body;
    expect(all.items).toHaveLength(3);
    const bad = await s.request({ method: 'GET', path: `${saPath()}?fieldSelector=spec.x%3D1` });
    expect(bad.status).toBe(400);
    expect((bad.body as Body).message).toBe('"spec.x" is not a known field selector: only "metadata.name", "metadata.namespace"');
    const badPod = await s.request({ method: 'GET', path: '/api/v1/pods?fieldSelector=spec.x%3D1' });
    expect((badPod.body as Body).message).toBe('field label not supported: spec.x');
    const unparsable = await s.request({ method: 'GET', path: `${saPath()}?labelSelector=a%20in%20(` });
    expect(unparsable.status).toBe(400);
  });

  it('omits remainingItemCount when a selector is used', async () => {
    const s = await sim();
    for (const n of ['a', 'b', 'c']) await createSA(s, n, { metadata: { labels: { x: 'y' } } });
    const p = (await s.request({ method: 'GET', path: `${saPath()}?limit=1&labelSelector=x%3Dy` })).body as Body;
    expect(p.metadata.continue).toBeDefined();
    expect(p.metadata.remainingItemCount).toBeUndefined();
  });
});

describe('deletion', () => {
  it('keeps an object with finalizers as terminating until they are removed', async () => {
    const s = await sim();
    const sa = (await createSA(s, 'f', { metadata: { finalizers: ['example.com/hold'] } })).body as Body;
    const del = await s.request({ method: 'DELETE', path: saPath('default', 'f') });
    expect(del.status).toBe(200);
    const terminating = del.body as Body;
    expect(terminating.metadata.deletionTimestamp).toBe('2026-01-01T00:00:00Z');
    expect(terminating.metadata.deletionGracePeriodSeconds).toBe(0);
    const again = await s.request({ method: 'DELETE', path: saPath('default', 'f') });
    expect((again.body as Body).metadata.resourceVersion).toBe(terminating.metadata.resourceVersion);
    const add = await s.request({ method: 'PUT', path: saPath('default', 'f'), body: { ...terminating, metadata: { ...terminating.metadata, finalizers: ['example.com/hold', 'example.com/more'] } } });
    expect(add.status).toBe(422);
    expect((add.body as Body).message).toContain('no new finalizers can be added if the object is being deleted');
    const recreate = await createSA(s, 'f');
    expect(recreate.status).toBe(409);
    expect((recreate.body as Body).message).toBe('object is being deleted: serviceaccounts "f" already exists');
    const done = await s.request({ method: 'PATCH', path: saPath('default', 'f'), headers: { 'content-type': 'application/merge-patch+json' }, body: { metadata: { finalizers: null } } });
    expect(done.status).toBe(200);
    expect((await s.request({ method: 'GET', path: saPath('default', 'f') })).status).toBe(404);
    expect(sa.metadata.uid).toBeDefined();
  });

  it('checks delete preconditions first, naming the Kind', async () => {
    const s = await sim();
    await createSA(s, 'p');
    const res = await s.request({ method: 'DELETE', path: saPath('default', 'p'), body: { preconditions: { uid: 'nope' } } });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ reason: 'Conflict', details: { name: 'p', kind: 'ServiceAccount' } });
    expect((res.body as Body).message).toMatch(/^Operation cannot be fulfilled on ServiceAccount "p": the UID in the precondition \(nope\) does not match the UID in record/);
  });

  it('answers a success Status for kinds that do not return the object', async () => {
    const s = await sim();
    const sec = (await s.request({ method: 'POST', path: '/api/v1/namespaces/default/secrets', body: { metadata: { name: 's' }, stringData: { a: 'b' } } })).body as Body;
    expect(sec.data).toEqual({ a: 'Yg==' });
    expect(sec.type).toBe('Opaque');
    const res = await s.request({ method: 'DELETE', path: '/api/v1/namespaces/default/secrets/s' });
    expect(res.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 's', kind: 'secrets', uid: sec.metadata.uid } });
  });
});

describe('garbage collection', () => {
  async function ownerAndDependents() {
    const s = await sim();
    const owner = (await createSA(s, 'owner')).body as Body;
    const ref = { apiVersion: 'v1', kind: 'ServiceAccount', name: 'owner', uid: owner.metadata.uid };
    await s.request({ method: 'POST', path: '/api/v1/namespaces/default/secrets', body: { metadata: { name: 'dep1', ownerReferences: [ref] } } });
    await s.request({ method: 'POST', path: '/api/v1/namespaces/default/secrets', body: { metadata: { name: 'dep2', ownerReferences: [{ ...ref, blockOwnerDeletion: true }] } } });
    return s;
  }
  const secretNames = async (s: Awaited<ReturnType<typeof sim>>) => ((await s.request({ method: 'GET', path: '/api/v1/namespaces/default/secrets' })).body as Body).items.map((i: Body) => i.metadata.name);

  it('Background: the owner goes at once, then the collector deletes the dependents', async () => {
    const s = await ownerAndDependents();
    const res = await s.request({ method: 'DELETE', path: saPath('default', 'owner'), body: { propagationPolicy: 'Background' } });
    expect(res.status).toBe(200);
    expect(await secretNames(s)).toEqual([]);
  });

  it('Foreground: the owner waits with foregroundDeletion until its dependents are gone', async () => {
    const s = await sim({ settle: 'manual' });
    const owner = (await createSA(s, 'owner')).body as Body;
    await s.request({ method: 'POST', path: '/api/v1/namespaces/default/secrets', body: { metadata: { name: 'dep', ownerReferences: [{ apiVersion: 'v1', kind: 'ServiceAccount', name: 'owner', uid: owner.metadata.uid, blockOwnerDeletion: true }] } } });
    const res = await s.request({ method: 'DELETE', path: `${saPath('default', 'owner')}?propagationPolicy=Foreground` });
    expect((res.body as Body).metadata.finalizers).toEqual(['foregroundDeletion']);
    expect((res.body as Body).metadata.deletionTimestamp).toBeDefined();
    await s.settle();
    expect(await secretNames(s)).toEqual([]);
    expect((await s.request({ method: 'GET', path: saPath('default', 'owner') })).status).toBe(404);
  });

  it('Foreground: a dependent with dependents of its own goes in the foreground too, a leaf in one write', async () => {
    const s = await sim({ settle: 'manual' });
    const owner = (await createSA(s, 'owner')).body as Body;
    const ref = (kind: string, name: string, uid: string) => [{ apiVersion: 'v1', kind, name, uid, blockOwnerDeletion: true }];
    const middle = (await s.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: { metadata: { name: 'middle', ownerReferences: ref('ServiceAccount', 'owner', owner.metadata.uid) } } })).body as Body;
    await s.request({ method: 'POST', path: '/api/v1/namespaces/default/secrets', body: { metadata: { name: 'leaf', ownerReferences: ref('ConfigMap', 'middle', middle.metadata.uid) } } });
    await s.request({ method: 'POST', path: '/api/v1/namespaces/default/secrets', body: { metadata: { name: 'direct', ownerReferences: ref('ServiceAccount', 'owner', owner.metadata.uid) } } });
    const before = s.trace().length;
    await s.request({ method: 'DELETE', path: `${saPath('default', 'owner')}?propagationPolicy=Foreground` });
    await s.settle();
    const writes = s.trace().slice(before).filter((e) => e.type === 'write' && e.by === 'garbage-collector');
    const of = (name: string) => writes.filter((e) => e.type === 'write' && e.name === name).map((e) => (e.type === 'write' ? e.change : ''));
    expect(of('direct')).toEqual(['DELETED']);
    expect(of('leaf')).toEqual(['DELETED']);
    expect(of('middle')).toEqual(['MODIFIED', 'DELETED']);
    expect((await s.request({ method: 'GET', path: saPath('default', 'owner') })).status).toBe(404);
  });

  it('Orphan: dependents lose the owner reference and stay', async () => {
    const s = await ownerAndDependents();
    const res = await s.request({ method: 'DELETE', path: saPath('default', 'owner'), body: { propagationPolicy: 'Orphan' } });
    expect((res.body as Body).metadata.finalizers).toEqual(['orphan']);
    expect(await secretNames(s)).toEqual(['dep1', 'dep2']);
    const dep = (await s.request({ method: 'GET', path: '/api/v1/namespaces/default/secrets/dep1' })).body as Body;
    expect(dep.metadata.ownerReferences).toBeUndefined();
    expect((await s.request({ method: 'GET', path: saPath('default', 'owner') })).status).toBe(404);
  });

  it('Orphan and Foreground without dependents: the collector removes the finalizer and the object goes', async () => {
    // Only the object's own terminating state tells the collector: no dependent changes.
    const s = await sim();
    await createSA(s, 'alone');
    await createSA(s, 'lonely');
    const orphan = await s.request({ method: 'DELETE', path: saPath('default', 'alone'), body: { propagationPolicy: 'Orphan' } });
    expect((orphan.body as Body).metadata.finalizers).toEqual(['orphan']);
    const foreground = await s.request({ method: 'DELETE', path: `${saPath('default', 'lonely')}?propagationPolicy=Foreground` });
    expect((foreground.body as Body).metadata.finalizers).toEqual(['foregroundDeletion']);
    expect((await s.request({ method: 'GET', path: saPath('default', 'alone') })).status).toBe(404);
    expect((await s.request({ method: 'GET', path: saPath('default', 'lonely') })).status).toBe(404);
  });

  it('deletes a dependent created after its owner is gone', async () => {
    const s = await sim();
    await s.request({ method: 'POST', path: '/api/v1/namespaces/default/secrets', body: { metadata: { name: 'late', ownerReferences: [{ apiVersion: 'v1', kind: 'ServiceAccount', name: 'ghost', uid: 'no-such-uid' }] } } });
    expect(await secretNames(s)).toEqual([]);
  });
});

describe('namespaces', () => {
  it('deleting a namespace empties it, then removes it; new content is refused meanwhile', async () => {
    const s = await sim({ settle: 'manual' });
    await s.request({ method: 'POST', path: '/api/v1/namespaces', body: { metadata: { name: 'team' } } });
    await s.settle();
    await createSA(s, 'a', {}, 'team');
    const del = await s.request({ method: 'DELETE', path: '/api/v1/namespaces/team' });
    expect(del.status).toBe(200);
    expect((del.body as Body).status.phase).toBe('Terminating');
    const refused = await createSA(s, 'b', {}, 'team');
    expect(refused.status).toBe(403);
    expect((refused.body as Body).message).toBe('serviceaccounts "b" is forbidden: unable to create new content in namespace team because it is being terminated');
    expect((refused.body as Body).details.causes).toEqual([{ reason: 'NamespaceTerminating', message: 'namespace team is being terminated', field: 'metadata.namespace' }]);
    await s.settle();
    expect((await s.request({ method: 'GET', path: '/api/v1/namespaces/team' })).status).toBe(404);
    expect(((await s.request({ method: 'GET', path: saPath('team') })).body as Body).items).toEqual([]);
  });
});

describe('representations', () => {
  it('answers YAML with sorted keys, for objects and for errors', async () => {
    const s = await sim();
    await createSA(s, 'y', { secrets: [{ name: 'on' }] });
    const res = await s.request({ method: 'GET', path: saPath('default', 'y'), headers: { accept: 'application/yaml' } });
    expect(res.headers['content-type']).toBe('application/yaml');
    const text = res.body as string;
    expect(text.startsWith('apiVersion: v1\nkind: ServiceAccount\nmetadata:\n')).toBe(true);
    expect(parseYaml(text).metadata.name).toBe('y');
    // As go-yaml v2: what a YAML 1.1 reader would take for a time or a boolean is quoted, lists sit under their key.
    expect(text).toContain('  creationTimestamp: "2026-01-01T00:00:00Z"\n');
    expect(text).toContain('\nsecrets:\n- name: "on"\n');
    const err = await s.request({ method: 'GET', path: saPath('default', 'ghost'), headers: { accept: 'application/yaml' } });
    expect(err.body).toBe('apiVersion: v1\ncode: 404\ndetails:\n  kind: serviceaccounts\n  name: ghost\nkind: Status\nmessage: serviceaccounts "ghost" not found\nmetadata: {}\nreason: NotFound\nstatus: Failure\n');
  });

  it('creates from YAML', async () => {
    const s = await sim();
    const res = await s.request({ method: 'POST', path: saPath(), headers: { 'content-type': 'application/yaml' }, body: 'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: from-yaml\nautomountServiceAccountToken: false\n' });
    expect(res.status).toBe(201);
    expect((res.body as Body).automountServiceAccountToken).toBe(false);
  });

  it('pretty-prints with pretty=true and ends compact JSON with a newline', async () => {
    const s = await sim();
    await createSA(s, 'p');
    const compact = s.requestRaw({ method: 'GET', path: saPath('default', 'p') });
    expect(compact.body.endsWith('}\n')).toBe(true);
    expect(compact.body.split('\n')).toHaveLength(2);
    const pretty = s.requestRaw({ method: 'GET', path: `${saPath('default', 'p')}?pretty=true` });
    expect(pretty.body.startsWith('{\n  "kind": "ServiceAccount",\n  "apiVersion": "v1",')).toBe(true);
    expect(pretty.body.endsWith('}')).toBe(true);
    expect(JSON.parse(pretty.body)).toEqual(JSON.parse(compact.body));
  });

  it('serves Tables for kubectl get', async () => {
    const s = await sim();
    await createSA(s, 't', { secrets: [{ name: 'a' }, { name: 'b' }] });
    await s.advance('5m');
    const res = await s.request({ method: 'GET', path: saPath(), headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' } });
    const table = res.body as Body;
    expect(table.kind).toBe('Table');
    expect(table.apiVersion).toBe('meta.k8s.io/v1');
    expect(table.columnDefinitions.map((c: Body) => c.name)).toEqual(['Name', 'Secrets', 'Age']);
    expect(table.rows.find((r: Body) => r.cells[0] === 't').cells).toEqual(['t', 2, '5m']);
    expect(table.rows[0].object.kind).toBe('PartialObjectMetadata');
  });

  it('checks includeObject of a Table request: None|Metadata|Object, anything else the real 400', async () => {
    const s = await sim();
    await createSA(s, 't');
    const accept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
    const get = (path: string, a = accept) => s.request({ method: 'GET', path, headers: { accept: a } });
    expect(((await get(`${saPath()}?includeObject=None`)).body as Body).rows[0].object).toBeUndefined();
    expect(((await get(`${saPath()}?includeObject=Object`)).body as Body).rows[0].object.kind).toBe('ServiceAccount');
    expect(((await get(`${saPath()}?includeObject=`)).body as Body).rows[0].object.kind).toBe('PartialObjectMetadata');
    const bad = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Unable to convert to Table as requested: includeObject: Unsupported value: "object": supported values: "Metadata", "None", "Object"',
      reason: 'BadRequest',
      code: 400,
    };
    for (const path of [`${saPath()}?includeObject=object`, `${saPath('default', 't')}?includeObject=object`, `${saPath()}?watch=true&includeObject=object`]) {
      const res = await get(path);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.body).toEqual(bad);
    }
    // The read comes first (a missing object is a 404), and a non-Table answer ignores the parameter.
    expect((await get(`${saPath('default', 'nobody')}?includeObject=object`)).status).toBe(404);
    expect((await get(`${saPath()}?includeObject=object`, 'application/json')).status).toBe(200);
  });
});
