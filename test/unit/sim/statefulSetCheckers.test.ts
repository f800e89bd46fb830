/**
 * The StatefulSet invariant checkers fire on the writes the controller must never make: each
 * case starts from a world the real controller made and commits the bad writes by hand, in the
 * order a settle would (a deletion followed by the controller's event).
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/api/meta.ts';
import { statefulSetClaimVolumes } from '../../../src/sim/checkers/statefulSetClaimVolumes.ts';
import { statefulSetOrderedCreation } from '../../../src/sim/checkers/statefulSetOrderedCreation.ts';
import { statefulSetPodIdentity } from '../../../src/sim/checkers/statefulSetPodIdentity.ts';
import { statefulSetPodRevisions } from '../../../src/sim/checkers/statefulSetPodRevisions.ts';
import { statefulSetStatusCounts } from '../../../src/sim/checkers/statefulSetStatusCounts.ts';
import { statefulSetUpdateBudget } from '../../../src/sim/checkers/statefulSetUpdateBudget.ts';
import { commit } from '../../../src/store/commit.ts';
import { getObject } from '../../../src/store/objects.ts';
import type { World } from '../../../src/store/world.ts';
import { sim, type Body } from '../../helpers.ts';

const pods = 'core/pods';
const sets = '/apis/apps/v1/namespaces/default/statefulsets';

async function worldWith(spec: Body, podReadyAfter: string): Promise<World> {
  const s = await sim({ podReadyAfter });
  const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1' }] } };
  const res = await s.request({ method: 'POST', path: sets, body: { metadata: { name: 'web' }, spec: { replicas: 3, serviceName: 'web', selector: { matchLabels: { app: 'web' } }, template, ...spec } } });
  expect(res.status).toBe(201);
  return s.world;
}

const pod = (w: World, name: string): KubeObject => getObject(w, pods, 'default', name)!;
const setOf = (w: World): KubeObject => getObject(w, 'apps/statefulsets', 'default', 'web')!;

/** web-0 copied as `name`, with the labels changed as given. */
function copyOf(w: World, name: string, labels: Record<string, string> = {}): KubeObject {
  const p = pod(w, 'web-0');
  return { ...p, metadata: { ...p.metadata, name, uid: `uid-${name}`, labels: { ...p.metadata.labels, 'statefulset.platform.io/pod-name': name, 'apps.platform.io/pod-index': name.split('-')[1]!, ...labels } } };
}

const added = (w: World, resource: string, o: KubeObject): World => commit(w, resource, 'ADDED', o, null).world;

/** The controller's deletion: the pod marked, then the recorder's event. */
function deletedByController(w: World, name: string): World {
  const p = pod(w, name);
  const marked = commit(w, pods, 'MODIFIED', { ...p, metadata: { ...p.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } }, p).world;
  const set = setOf(w);
  const event = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `web.${name}`, namespace: 'default' },
    involvedObject: { kind: 'StatefulSet', name: 'web', namespace: 'default', uid: set.metadata.uid },
    reason: 'SuccessfulDelete',
    message: `delete Pod ${name} in StatefulSet web successful`,
    source: { component: 'statefulset-controller' },
  } as KubeObject;
  return added(marked, 'core/events', event);
}

describe('StatefulSet checkers', () => {
  it('statefulset-ordered-creation: no pod while a lower one is not available', async () => {
    const before = await worldWith({}, '10s');
    expect(statefulSetOrderedCreation.check(before, added(before, pods, copyOf(before, 'web-1')))).toEqual(['default/web-1 was created while web-0 was running, not ready']);
    const parallel = await worldWith({ podManagementPolicy: 'Parallel' }, '10s');
    expect(statefulSetOrderedCreation.check(before, before)).toEqual([]);
    expect(statefulSetOrderedCreation.check(parallel, added(parallel, pods, copyOf(parallel, 'web-5')))).toEqual([]);
  });

  it('statefulset-pod-identity: created in range, with labels that agree with the name; later client relabels are not its business', async () => {
    const before = await worldWith({}, '0s');
    expect(statefulSetPodIdentity.check(before, added(before, pods, copyOf(before, 'web-5')))).toEqual(['default/web-5 was created for web, whose ordinals are [0, 3)']);
    const web1 = pod(before, 'web-1');
    const relabelled = commit(before, pods, 'MODIFIED', { ...web1, metadata: { ...web1.metadata, labels: { ...web1.metadata.labels, 'apps.platform.io/pod-index': '2' } } }, web1).world;
    expect(statefulSetPodIdentity.check(before, relabelled)).toEqual([]);
    const { ['statefulset.platform.io/pod-name']: _gone, ...rest } = web1.metadata.labels!;
    expect(statefulSetPodIdentity.check(before, commit(before, pods, 'MODIFIED', { ...web1, metadata: { ...web1.metadata, labels: rest } }, web1).world)).toEqual([]);
  });

  it('statefulset-claim-volumes: every template has its volume on an existing claim', async () => {
    const claim = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }];
    const before = await worldWith({ replicas: 5, volumeClaimTemplates: claim }, '0s');
    const wrong = copyOf(before, 'web-5');
    expect(statefulSetClaimVolumes.check(before, before)).toEqual([]);
    expect(statefulSetClaimVolumes.check(before, added(before, pods, wrong))).toEqual([
      'default/web-5 was created with volume data on claim data-web-0, not data-web-5',
      'default/web-5 was created while its claim data-web-5 was missing',
    ]);
  });

  it('statefulset-pod-revisions: created with a stored revision, none pruned while a pod carries it', async () => {
    const before = await worldWith({}, '0s');
    expect(statefulSetPodRevisions.check(before, added(before, pods, copyOf(before, 'web-7', { 'controller-revision-hash': 'web-nope' })))).toEqual(['default/web-7 was created with revision web-nope, which is not stored']);
    const name = pod(before, 'web-0').metadata.labels!['controller-revision-hash']!;
    const revision = getObject(before, 'apps/controllerrevisions', 'default', name)!;
    const pruned = commit(before, 'apps/controllerrevisions', 'DELETED', revision, revision).world;
    expect(statefulSetPodRevisions.check(before, pruned)).toEqual([`revision default/${name} of web was deleted while web-0, web-1, web-2 carried it`]);
  });

  it('statefulset-status-counts: updated and ready within replicas, available within ready', async () => {
    const before = await worldWith({}, '0s');
    const set = setOf(before);
    const after = commit(before, 'apps/statefulsets', 'MODIFIED', { ...set, status: { replicas: 1, readyReplicas: 2, availableReplicas: 3, updatedReplicas: 1 } }, set).world;
    expect(statefulSetStatusCounts.check(before, after)).toEqual(['default/web has readyReplicas 2 > replicas 1', 'default/web has availableReplicas 3 > readyReplicas 2']);
  });

  it('statefulset-update-budget: within maxUnavailable, at or above the partition, counting the sync', async () => {
    const before = await worldWith({}, '0s');
    expect(statefulSetUpdateBudget.check(before, deletedByController(before, 'web-2'))).toEqual([]);
    expect(statefulSetUpdateBudget.check(before, deletedByController(deletedByController(before, 'web-2'), 'web-1'))).toEqual([
      'default/web-1 was deleted for update with 0 in-range pods unavailable before the sync and 1 deleted in it; maxUnavailable is 1',
    ]);
    // A user's deletion (no event) spends the budget without being held against it.
    const web2 = pod(before, 'web-2');
    const byUser = commit(before, pods, 'MODIFIED', { ...web2, metadata: { ...web2.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } }, web2).world;
    expect(statefulSetUpdateBudget.check(before, byUser)).toEqual([]);
    expect(statefulSetUpdateBudget.check(before, deletedByController(byUser, 'web-1'))).toEqual([
      'default/web-1 was deleted for update with 1 in-range pods unavailable before the sync and 0 deleted in it; maxUnavailable is 1',
    ]);
    const partitioned = await worldWith({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2, maxUnavailable: 2 } } }, '0s');
    expect(statefulSetUpdateBudget.check(partitioned, deletedByController(partitioned, 'web-1'))).toEqual(['default/web-1 was deleted for update below the partition 2']);
  });
});
