/**
 * Requests and answers as kube-apiserver gives them: validation causes in Kubernetes' check
 * order, duplicate owner references deduplicated with the real warning, empty omitempty lists and
 * maps left out, a StatefulSet's non-omitempty status counters, the apply name check, and the
 * resource-named "must be specified for an update".
 */
import { describe, expect, it } from 'vitest';
import { failure as status, sim, type Body } from '../helpers.ts';

const cms = '/api/v1/namespaces/default/configmaps';
const sas = '/api/v1/namespaces/default/serviceaccounts';
const sets = '/apis/apps/v1/namespaces/default/statefulsets';
const apply = { 'content-type': 'application/apply-patch+yaml' };
const jsonPatch = { 'content-type': 'application/json-patch+json' };

const KEY_NAME = `name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`;

describe('validation causes in Kubernetes order', () => {
  it('a missing name comes before label, annotation, owner reference and finalizer errors', async () => {
    const s = await sim();
    const res = await s.request({
      method: 'POST',
      path: cms,
      body: { metadata: { labels: { 'bad key': 'v' }, annotations: { '-a': '' }, ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: '' }], finalizers: ['-f'] } },
    });
    expect(res.status).toBe(422);
    const causes = [
      ['FieldValueRequired', 'Required value: name or generateName is required', 'metadata.name'],
      ['FieldValueInvalid', `Invalid value: "bad key": ${KEY_NAME}`, 'metadata.labels'],
      ['FieldValueInvalid', `Invalid value: "-a": ${KEY_NAME}`, 'metadata.annotations'],
      ['FieldValueInvalid', 'Invalid value: "": must not be empty', 'metadata.ownerReferences[0].uid'],
      ['FieldValueInvalid', `Invalid value: "-f": ${KEY_NAME}`, 'metadata.finalizers'],
    ];
    expect(res.body).toEqual(
      status(422, 'Invalid', `ConfigMap "" is invalid: [${causes.map(([, m, f]) => `${f}: ${m}`).join(', ')}]`, {
        kind: 'ConfigMap',
        causes: causes.map(([reason, message, field]) => ({ reason, message, field })),
      }),
    );
  });

  it('on update, the metadata checks come before the update-only ones', async () => {
    const s = await sim({ settle: 'manual' });
    await s.request({ method: 'POST', path: cms, body: { metadata: { name: 'c', finalizers: ['example.com/hold'] } } });
    expect((await s.request({ method: 'DELETE', path: `${cms}/c` })).status).toBe(200);
    const res = await s.request({
      method: 'PATCH',
      path: `${cms}/c`,
      headers: jsonPatch,
      body: JSON.stringify([{ op: 'add', path: '/metadata/labels', value: { 'bad key': 'v' } }, { op: 'add', path: '/metadata/finalizers/-', value: 'example.com/more' }]),
    });
    expect(res.status).toBe(422);
    const labels = `Invalid value: "bad key": ${KEY_NAME}`;
    const finalizers = 'Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/more"}';
    expect(res.body).toEqual(
      status(422, 'Invalid', `ConfigMap "c" is invalid: [metadata.labels: ${labels}, metadata.finalizers: ${finalizers}]`, {
        name: 'c',
        kind: 'ConfigMap',
        causes: [
          { reason: 'FieldValueInvalid', message: labels, field: 'metadata.labels' },
          { reason: 'FieldValueForbidden', message: finalizers, field: 'metadata.finalizers' },
        ],
      }),
    );
  });
});

describe('duplicate owner references', () => {
  const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: 'u-1' };
  const ref2 = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner-2', uid: 'u-2' };
  const advice = 'API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed:';

  it('create and update drop entries equal to an earlier one, with the real warning', async () => {
    const s = await sim({ settle: 'manual' });
    // The same uid with another field is not a duplicate (the API server compares whole entries).
    const sameUidOtherName = { ...ref, name: 'renamed' };
    const created = await s.request({ method: 'POST', path: cms, body: { metadata: { name: 'c', ownerReferences: [ref, ref2, ref, sameUidOtherName, ref2] } } });
    expect(created.status).toBe(201);
    expect(created.headers['warning']).toEqual([`299 - ".metadata.ownerReferences contains duplicate entries; ${advice} u-1, u-2"`]);
    expect((created.body as Body).metadata.ownerReferences).toEqual([ref, ref2, sameUidOtherName]);
    const body = created.body as Body;
    const updated = await s.request({ method: 'PUT', path: `${cms}/c`, body: { ...body, metadata: { ...body.metadata, ownerReferences: [ref2, ref2] } } });
    expect(updated.status).toBe(200);
    expect(updated.headers['warning']).toEqual([`299 - ".metadata.ownerReferences contains duplicate entries; ${advice} u-2"`]);
    expect((updated.body as Body).metadata.ownerReferences).toEqual([ref2]);
  });

  it('a patch result is deduplicated after admission, with that wording', async () => {
    const s = await sim({ settle: 'manual' });
    await s.request({ method: 'POST', path: cms, body: { metadata: { name: 'c', ownerReferences: [ref] } } });
    const patched = await s.request({ method: 'PATCH', path: `${cms}/c`, headers: jsonPatch, body: JSON.stringify([{ op: 'add', path: '/metadata/ownerReferences/-', value: ref }]) });
    expect(patched.status).toBe(200);
    expect(patched.headers['warning']).toEqual([`299 - ".metadata.ownerReferences contains duplicate entries after mutating admission happens; ${advice} u-1"`]);
    expect((patched.body as Body).metadata.ownerReferences).toEqual([ref]);
    // Nothing changed, so nothing was written.
    expect((patched.body as Body).metadata.resourceVersion).toBe(((await s.request({ method: 'GET', path: `${cms}/c` })).body as Body).metadata.resourceVersion);
  });
});

describe('empty omitempty lists and maps are left out', () => {
  it('a ServiceAccount whose last secret a patch removed has no secrets field', async () => {
    const s = await sim();
    await s.request({ method: 'POST', path: sas, body: { metadata: { name: 'sa' }, secrets: [{ name: 'x' }], imagePullSecrets: [{ name: 'pull' }] } });
    const res = await s.request({ method: 'PATCH', path: `${sas}/sa`, headers: jsonPatch, body: JSON.stringify([{ op: 'remove', path: '/secrets/0' }]) });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body as Body)).toEqual(['kind', 'apiVersion', 'metadata', 'imagePullSecrets']);
    const got = (await s.request({ method: 'GET', path: `${sas}/sa` })).body as Body;
    expect('secrets' in got).toBe(false);
    const cleared = await s.request({ method: 'PATCH', path: `${sas}/sa`, headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ imagePullSecrets: [], metadata: { labels: {} } }) });
    expect(Object.keys(cleared.body as Body)).toEqual(['kind', 'apiVersion', 'metadata']);
    expect('labels' in (cleared.body as Body).metadata).toBe(false);
  });

  it('a create body with empty maps stores none of them, and records no field for them', async () => {
    const s = await sim();
    const res = await s.request({ method: 'POST', path: cms, body: { metadata: { name: 'e', labels: {}, annotations: {}, finalizers: [] }, data: {}, binaryData: {} } });
    expect(res.status).toBe(201);
    const body = res.body as Body;
    expect(Object.keys(body)).toEqual(['kind', 'apiVersion', 'metadata']);
    expect(Object.keys(body.metadata)).toEqual(['name', 'namespace', 'uid', 'creationTimestamp', 'resourceVersion']);
  });

  it('an empty list inside a list item is left out too, a list without omitempty is kept', async () => {
    const s = await sim();
    const roles = '/apis/rbac.authorization.platform.io/v1/namespaces/default/roles';
    const res = await s.request({ method: 'POST', path: roles, body: { metadata: { name: 'r' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] }] } });
    expect(res.status).toBe(201);
    expect((res.body as Body).rules).toEqual([{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]);
  });
});

describe('StatefulSet status: replicas and availableReplicas have no omitempty', () => {
  const set = {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'web' },
    spec: { replicas: 1, serviceName: 'web', selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } } },
  };

  it('create, dry-run create and get answer status {replicas: 0, availableReplicas: 0}', async () => {
    const s = await sim({ settle: 'manual' });
    const dry = await s.request({ method: 'POST', path: `${sets}?dryRun=All`, body: { ...set, status: { replicas: 4, readyReplicas: 2 } } });
    expect(dry.status).toBe(201);
    expect((dry.body as Body).status).toEqual({ replicas: 0, availableReplicas: 0 });
    const created = await s.request({ method: 'POST', path: sets, body: set });
    expect((created.body as Body).status).toEqual({ replicas: 0, availableReplicas: 0 });
    expect(((await s.request({ method: 'GET', path: `${sets}/web` })).body as Body).status).toEqual({ replicas: 0, availableReplicas: 0 });
    const applied = await s.request({ method: 'PATCH', path: `${sets}/other?fieldManager=m`, headers: apply, body: JSON.stringify({ ...set, metadata: { name: 'other' } }) });
    expect((applied.body as Body).status).toEqual({ replicas: 0, availableReplicas: 0 });
  });

  it('a status write without them gets them, in the Go field order', async () => {
    const s = await sim({ settle: 'manual' });
    const created = (await s.request({ method: 'POST', path: sets, body: set })).body as Body;
    const res = await s.request({ method: 'PUT', path: `${sets}/web/status`, body: { ...created, status: { observedGeneration: 1, currentRevision: 'web-1' } } });
    expect(res.status).toBe(200);
    expect(JSON.stringify((res.body as Body).status)).toBe('{"observedGeneration":1,"replicas":0,"currentRevision":"web-1","availableReplicas":0}');
  });
});

describe('server-side apply names another object than the URL', () => {
  const other = JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'other' } });
  const mismatch = status(400, 'BadRequest', 'the name of the object (other) does not match the name on the URL (build-bot)');

  it('400 whether the object exists or not, and nothing is written', async () => {
    const s = await sim();
    const missing = await s.request({ method: 'PATCH', path: `${sas}/build-bot?fieldManager=m`, headers: apply, body: other });
    expect([missing.status, missing.body]).toEqual([400, mismatch]);
    expect((await s.request({ method: 'GET', path: `${sas}/build-bot` })).status).toBe(404);
    await s.request({ method: 'POST', path: sas, body: { metadata: { name: 'build-bot' } } });
    const existing = await s.request({ method: 'PATCH', path: `${sas}/build-bot?fieldManager=m`, headers: apply, body: other });
    expect([existing.status, existing.body]).toEqual([400, mismatch]);
  });

  it('a body without a name applies to an existing object, and cannot create one', async () => {
    const s = await sim();
    const nameless = JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { labels: { a: 'b' } } });
    const created = await s.request({ method: 'PATCH', path: `${sas}/build-bot?fieldManager=m`, headers: apply, body: nameless });
    expect([created.status, created.body]).toEqual([400, status(400, 'BadRequest', 'the name of the object () does not match the name on the URL (build-bot)')]);
    await s.request({ method: 'POST', path: sas, body: { metadata: { name: 'build-bot' } } });
    const applied = await s.request({ method: 'PATCH', path: `${sas}/build-bot?fieldManager=m`, headers: apply, body: nameless });
    expect(applied.status).toBe(200);
    expect((applied.body as Body).metadata.labels).toEqual({ a: 'b' });
  });

  it('a body in another namespace is refused with the namespace message', async () => {
    const s = await sim();
    const res = await s.request({ method: 'PATCH', path: `${sas}/build-bot?fieldManager=m`, headers: apply, body: JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'build-bot', namespace: 'kube-public' } }) });
    expect([res.status, res.body]).toEqual([400, status(400, 'BadRequest', 'the namespace of the object (kube-public) does not match the namespace on the request (default)')]);
  });
});

describe('an update without resourceVersion of a kind that requires one', () => {
  it('names the resource, as the generic store does', async () => {
    const s = await sim();
    const ctbs = '/apis/certificates.platform.io/v1beta1/clustertrustbundles';
    const created = await s.request({ method: 'POST', path: ctbs, body: { metadata: { name: 'bundle' }, spec: { trustBundle: await s.caCertificate() } } });
    expect(created.status).toBe(201);
    const { resourceVersion: _rv, ...meta } = (created.body as Body).metadata;
    const res = await s.request({ method: 'PUT', path: `${ctbs}/bundle`, body: { ...(created.body as Body), metadata: meta } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      status(422, 'Invalid', 'clustertrustbundles.certificates.platform.io "bundle" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update', {
        name: 'bundle',
        group: 'certificates.platform.io',
        kind: 'clustertrustbundles',
        causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: 0: must be specified for an update', field: 'metadata.resourceVersion' }],
      }),
    );
  });
});

describe('a create that carries a resourceVersion', () => {
  it('is a 400 (Kubernetes answers a reasonless 500) and stores nothing', async () => {
    const s = await sim();
    const hash = s.hash();
    const res = await s.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: { metadata: { name: 'c', resourceVersion: '5' } } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'resourceVersion should not be set on objects to be created', reason: 'BadRequest', code: 400 });
    expect(s.hash()).toBe(hash);
  });
});
