/**
 * StatefulSet and ControllerRevision as the API serves them (the controller comes later):
 * defaults, validation with the real messages, the update rules, the status split, generation,
 * and the autoscaling/v1 `scale` subresource.
 */
import { describe, expect, it } from 'vitest';
import { sim, type Body } from '../helpers.ts';

const base = '/apis/apps/v1/namespaces/default';
const sts = (name: string, extra: Body = {}) => ({
  metadata: { name },
  spec: {
    selector: { matchLabels: { app: name } },
    serviceName: name,
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
    ...extra,
  },
});

async function create(s: Awaited<ReturnType<typeof sim>>, body: Body) {
  return s.request({ method: 'POST', path: `${base}/statefulsets`, body });
}

// The API's own behaviour: controllers run only on settle/advance here.
describe('StatefulSet', () => {
  it('applies the apps/v1 defaults and starts at generation 1', async () => {
    const s = await sim({ settle: 'manual' });
    const res = await create(s, sts('web'));
    expect(res.status).toBe(201);
    const o = res.body as Body;
    expect(o.metadata.generation).toBe(1);
    expect(o.spec).toMatchObject({
      replicas: 1,
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1 } },
      revisionHistoryLimit: 10,
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
    });
    expect(o.spec.template.spec).toMatchObject({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30, schedulerName: 'default-scheduler' });
    expect(o.spec.template.spec.containers[0]).toMatchObject({ imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log' });
  });

  it('creates no rollingUpdate when the type is given without one', async () => {
    const s = await sim({ settle: 'manual' });
    const o = (await create(s, sts('web', { updateStrategy: { type: 'RollingUpdate' } }))).body as Body;
    expect(o.spec.updateStrategy).toEqual({ type: 'RollingUpdate' });
  });

  it('validates with the real messages', async () => {
    const s = await sim({ settle: 'manual' });
    const msg = async (body: Body) => ((await create(s, body)).body as Body).message as string;
    expect(await msg({ metadata: { name: 'web' }, spec: { template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'a', image: 'x' }] } } } })).toBe(
      'StatefulSet.apps "web" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`]',
    );
    expect(await msg(sts('web', { selector: { matchLabels: { app: 'other' } } }))).toBe('StatefulSet.apps "web" is invalid: spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`');
    expect(await msg(sts('web', { selector: {} }))).toBe('StatefulSet.apps "web" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for statefulset');
    expect(await msg(sts('web', { replicas: -1 }))).toBe('StatefulSet.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
    expect(await msg(sts('web', { podManagementPolicy: 'Random' }))).toBe('StatefulSet.apps "web" is invalid: spec.podManagementPolicy: Invalid value: "Random": must be \'OrderedReady\' or \'Parallel\'');
    expect(await msg(sts('web', { updateStrategy: { type: 'OnDelete', rollingUpdate: {} } }))).toBe("StatefulSet.apps \"web\" is invalid: spec.updateStrategy.rollingUpdate: Invalid value: {\"Partition\":0,\"MaxUnavailable\":null}: only allowed for updateStrategy 'RollingUpdate'");
    expect(await msg(sts('web', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0 } } }))).toBe('StatefulSet.apps "web" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0');
    expect(await msg(sts('web', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '150%' } } }))).toBe('StatefulSet.apps "web" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "150%": must not be greater than 100%');
    expect(await msg(sts('web', { updateStrategy: { type: 'Sometimes' } }))).toBe('StatefulSet.apps "web" is invalid: spec.updateStrategy: Invalid value: {"Type":"Sometimes","RollingUpdate":null}: must be \'RollingUpdate\' or \'OnDelete\'');
    expect(await msg(sts('web', { persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Keep' } }))).toBe('StatefulSet.apps "web" is invalid: spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "Keep": supported values: "Retain", "Delete"');
    const neverRestart = sts('web');
    (neverRestart.spec.template as Body).spec = { ...neverRestart.spec.template.spec, restartPolicy: 'Never', activeDeadlineSeconds: 5 };
    expect(await msg(neverRestart)).toBe('StatefulSet.apps "web" is invalid: [spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always", spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in StatefulSet is not Supported]');
    expect(await msg(sts('web.1'))).toBe('StatefulSet.apps "web.1" is invalid: metadata.name: Invalid value: "web.1": must not contain dots');
  });

  it('warns about a negative revisionHistoryLimit', async () => {
    const s = await sim({ settle: 'manual' });
    const res = await create(s, sts('web', { revisionHistoryLimit: -1 }));
    expect(res.status).toBe(201);
    expect(res.headers['warning']).toEqual(['299 - "spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended"']);
  });

  it('lets only the mutable fields change, and bumps generation on spec changes only', async () => {
    const s = await sim({ settle: 'manual' });
    const o = (await create(s, sts('web'))).body as Body;
    const put = (body: Body) => s.request({ method: 'PUT', path: `${base}/statefulsets/web`, body });
    const forbidden = await put({ ...o, spec: { ...o.spec, serviceName: 'other' } });
    expect(forbidden.status).toBe(422);
    expect((forbidden.body as Body).message).toBe(
      "StatefulSet.apps \"web\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    );
    const scaled = (await put({ ...o, spec: { ...o.spec, replicas: 3 } })).body as Body;
    expect(scaled.metadata.generation).toBe(2);
    const labelled = (await put({ ...scaled, metadata: { ...scaled.metadata, labels: { x: 'y' } } })).body as Body;
    expect(labelled.metadata.generation).toBe(2);
  });

  it('writes status only through /status, validated', async () => {
    const s = await sim({ settle: 'manual' });
    const o = (await create(s, sts('web'))).body as Body;
    const main = (await s.request({ method: 'PUT', path: `${base}/statefulsets/web`, body: { ...o, status: { replicas: 5 } } })).body as Body;
    // The stored status stays; apps/v1 writes replicas and availableReplicas even at 0.
    expect(main.status).toEqual({ replicas: 0, availableReplicas: 0 });
    const bad = await s.request({ method: 'PUT', path: `${base}/statefulsets/web/status`, body: { ...main, status: { replicas: 1, readyReplicas: 2 } } });
    expect((bad.body as Body).message).toBe('StatefulSet.apps "web" is invalid: status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas');
    const ok = (await s.request({ method: 'PUT', path: `${base}/statefulsets/web/status`, body: { ...main, spec: { ...main.spec, replicas: 9 }, status: { replicas: 1, readyReplicas: 1 } } })).body as Body;
    expect(ok.status).toEqual({ replicas: 1, readyReplicas: 1, availableReplicas: 0 });
    expect(ok.spec.replicas).toBe(1);
  });

  it('serves autoscaling/v1 Scale: get, put, patch, stale resourceVersion, validation', async () => {
    const s = await sim({ settle: 'manual' });
    await create(s, sts('web'));
    const scale = (await s.request({ method: 'GET', path: `${base}/statefulsets/web/scale` })).body as Body;
    expect(scale).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 1 }, status: { replicas: 0, selector: 'app=web' } });
    const put = await s.request({ method: 'PUT', path: `${base}/statefulsets/web/scale`, body: { ...scale, spec: { replicas: 3 } } });
    expect(put.status).toBe(200);
    expect((put.body as Body).spec.replicas).toBe(3);
    const stale = await s.request({ method: 'PUT', path: `${base}/statefulsets/web/scale`, body: { ...scale, spec: { replicas: 4 } } });
    expect(stale.status).toBe(409);
    const patched = await s.request({ method: 'PATCH', path: `${base}/statefulsets/web/scale`, headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ spec: { replicas: 5 } }) });
    expect((patched.body as Body).spec.replicas).toBe(5);
    const negative = await s.request({ method: 'PATCH', path: `${base}/statefulsets/web/scale`, headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ spec: { replicas: -1 } }) });
    expect(negative.status).toBe(422);
    expect((negative.body as Body).message).toBe('Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
    const set = (await s.request({ method: 'GET', path: `${base}/statefulsets/web` })).body as Body;
    expect(set.spec.replicas).toBe(5);
    expect(set.metadata.generation).toBe(3);
    expect((await s.request({ method: 'GET', path: `${base}/statefulsets/nope/scale` })).status).toBe(404);
  });

  it('renders kubectl columns', async () => {
    const s = await sim({ settle: 'manual' });
    await create(s, sts('web', { replicas: 2 }));
    const table = (await s.request({ method: 'GET', path: `${base}/statefulsets`, headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } })).body as Body;
    expect(table.columnDefinitions.map((c: Body) => c.name)).toEqual(['Name', 'Ready', 'Age', 'Containers', 'Images']);
    expect(table.rows[0].cells).toEqual(['web', '0/2', '0s', 'app', 'nginx:1.27']);
  });
});

describe('ControllerRevision', () => {
  it('needs data, keeps it immutable and the revision non-negative', async () => {
    const s = await sim();
    const path = `${base}/controllerrevisions`;
    expect(((await s.request({ method: 'POST', path, body: { metadata: { name: 'r' }, revision: -1 } })).body as Body).message).toBe(
      'ControllerRevision.apps "r" is invalid: [data: Required value: data is mandatory, revision: Invalid value: -1: must be greater than or equal to 0]',
    );
    const r = (await s.request({ method: 'POST', path, body: { metadata: { name: 'r' }, data: { spec: { template: {} } }, revision: 1 } })).body as Body;
    const changed = await s.request({ method: 'PUT', path: `${path}/r`, body: { ...r, data: { other: true } } });
    expect(changed.status).toBe(422);
    expect((changed.body as Body).message).toContain('data: Invalid value');
  });
});
