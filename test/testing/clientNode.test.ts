/**
 * @kubernetes/client-node 1.4.0 against a simulation in process, without a socket: typed APIs
 * (CoreV1Api, AppsV1Api, CertificatesV1Api in k8s.io mode), KubernetesObjectApi, Watch, identities,
 * errors, a user's controller driven with `sim.advance`, and the same seed giving the same world.
 */
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { Simulation } from '../../src/index.ts';
import { makeSimulationApiClient, simulationKubeConfig } from '../../src/testing/clientNode.ts';
import { sim as newSim } from '../helpers.ts';
import { spyWatches } from './spyWatches.ts';

const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
const namespace = 'default';


/**
 * A user's controller as written for a real cluster: every StatefulSet annotated
 * `example.com/replicas` is scaled to that number. Returns how many it patched.
 */
async function scaleToAnnotation(kc: k8s.KubeConfig): Promise<number> {
  const apps = kc.makeApiClient(k8s.AppsV1Api);
  let patched = 0;
  for (const set of (await apps.listStatefulSetForAllNamespaces()).items) {
    const want = Number(set.metadata?.annotations?.['example.com/replicas']);
    if (!Number.isInteger(want) || set.spec?.replicas === want) continue;
    await apps.patchNamespacedStatefulSet({ namespace: set.metadata!.namespace!, name: set.metadata!.name!, body: { spec: { replicas: want } } }, merge);
    patched++;
  }
  return patched;
}

const labels = { app: 'db' };
const statefulSet: k8s.V1StatefulSet = {
  metadata: { name: 'db', annotations: { 'example.com/replicas': '3' } },
  spec: {
    replicas: 1,
    serviceName: 'db',
    selector: { matchLabels: labels },
    template: { metadata: { labels, annotations: { 'sim.platform.io/ready-after': '1s' } }, spec: { containers: [{ name: 'db', image: 'postgres:16' }] } },
  },
};

/** The controller's scenario: the set scaled up and ready after virtual time passes. */
async function controllerRun(seed: number): Promise<{ sim: Simulation; ready: k8s.V1StatefulSet; pods: string[]; patched: number[] }> {
  const s = await newSim({ seed });
  const kc = await simulationKubeConfig(s, { k8s });
  const apps = kc.makeApiClient(k8s.AppsV1Api);
  await apps.createNamespacedStatefulSet({ namespace, body: statefulSet });
  const patched = [await scaleToAnnotation(kc)];
  await s.advance('10s');
  patched.push(await scaleToAnnotation(kc));
  const ready = await apps.readNamespacedStatefulSet({ namespace, name: 'db' });
  const pods = (await kc.makeApiClient(k8s.CoreV1Api).listNamespacedPod({ namespace, labelSelector: 'app=db' })).items.map((p) => p.metadata!.name!);
  return { sim: s, ready, pods, patched };
}

describe('client-node without a socket', () => {
  it('creates, reads, lists and patches with CoreV1Api, and surfaces Status errors', async () => {
    const core = await makeSimulationApiClient(await newSim(), k8s.CoreV1Api);
    const created = await core.createNamespacedServiceAccount({ namespace, body: { metadata: { name: 'builder' } } });
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    const read = await core.readNamespacedServiceAccount({ namespace, name: 'builder' });
    expect(read.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
    const page = await core.listNamespacedServiceAccount({ namespace, limit: 1 });
    expect([page.items.length, typeof page.metadata?._continue]).toEqual([1, 'string']);
    const patched = await core.patchNamespacedServiceAccount({ namespace, name: 'builder', body: { metadata: { labels: { team: 'a' } } } }, merge);
    expect(patched.metadata?.labels).toEqual({ team: 'a' });
    const missing = await core.readNamespacedServiceAccount({ namespace, name: 'nope' }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(k8s.ApiException);
    const e = missing as k8s.ApiException<string>;
    expect(e.code).toBe(404);
    expect(JSON.parse(e.body)).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404, message: 'serviceaccounts "nope" not found' });
    await expect(core.replaceNamespacedServiceAccount({ namespace, name: 'builder', body: read })).rejects.toMatchObject({ code: 409 });
  });

  it('acts as `as`, or as the bearer of `token`', async () => {
    const s = await newSim({ users: [{ token: 'bob-token', user: 'bob', uid: 'b1', groups: [] }] });
    const alice = await makeSimulationApiClient(s, k8s.CoreV1Api, { as: { user: 'alice' } });
    const denied = (await alice.listSecretForAllNamespaces().catch((e: unknown) => e)) as k8s.ApiException<string>;
    expect([denied.code, JSON.parse(denied.body).message]).toEqual([403, 'secrets is forbidden: User "alice" cannot list resource "secrets" in API group "" at the cluster scope']);
    const bob = await makeSimulationApiClient(s, k8s.CoreV1Api, { token: 'bob-token' });
    const asBob = (await bob.listSecretForAllNamespaces().catch((e: unknown) => e)) as k8s.ApiException<string>;
    expect(JSON.parse(asBob.body).message).toMatch(/^secrets is forbidden: User "bob" /);
  });

  it('creates, approves and reads a CSR with CertificatesV1Api in k8s.io mode', async () => {
    const s = await newSim({ groupDomain: 'k8s.io' });
    const certs = await makeSimulationApiClient(s, k8s.CertificatesV1Api);
    const { request } = await s.createCertificateRequest({ commonName: 'carol' });
    const body = { metadata: { name: 'carol' }, spec: { request: Buffer.from(request).toString('base64'), signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'] } };
    const created = await certs.createCertificateSigningRequest({ body });
    expect(created.spec.username).toBe('system:admin');
    await certs.replaceCertificateSigningRequestApproval({ name: 'carol', body: { ...created, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'approved by the test' }] } } });
    const issued = await certs.readCertificateSigningRequest({ name: 'carol' });
    expect(Buffer.from(issued.status!.certificate!, 'base64').toString()).toContain('BEGIN CERTIFICATE');
  });

  it('creates, reads, patches, lists and deletes with KubernetesObjectApi', async () => {
    const kc = await simulationKubeConfig(await newSim());
    const objects = k8s.KubernetesObjectApi.makeApiClient(kc);
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'o', namespace }, data: { a: '1' } };
    await objects.create(cm);
    const read = await objects.read<k8s.V1ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'o', namespace } });
    expect(read.data).toEqual({ a: '1' });
    const patched = await objects.patch<k8s.V1ConfigMap>({ ...cm, data: { a: '2' } }, undefined, undefined, undefined, undefined, k8s.PatchStrategy.MergePatch);
    expect(patched.data).toEqual({ a: '2' });
    expect((await objects.list('v1', 'ConfigMap', namespace)).items.map((i) => i.metadata?.name)).toEqual(['o']);
    await objects.delete(cm);
    await expect(objects.read(cm)).rejects.toMatchObject({ code: 404 });
  });

  it('watches ADDED, MODIFIED, DELETED in order with Watch, and the watch ends on abort', async () => {
    const s = await newSim();
    const opened = spyWatches(s);
    const kc = await simulationKubeConfig(s);
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const start = (await core.listNamespacedServiceAccount({ namespace })).metadata!.resourceVersion!;
    const seen: string[] = [];
    let third = (): void => {};
    const events = new Promise<void>((resolve) => (third = resolve));
    let finished = (_err: unknown): void => {};
    const done = new Promise<unknown>((resolve) => (finished = resolve));
    const path = '/api/v1/namespaces/default/serviceaccounts';
    const controller = await new k8s.Watch(kc).watch(path, { resourceVersion: start }, (type: string, obj: k8s.V1ServiceAccount) => {
      seen.push(`${type} ${obj.metadata?.name}`);
      if (seen.length === 3) third();
    }, (err) => finished(err));
    await core.createNamespacedServiceAccount({ namespace, body: { metadata: { name: 'w' } } });
    await core.patchNamespacedServiceAccount({ namespace, name: 'w', body: { metadata: { labels: { a: 'b' } } } }, merge);
    await core.deleteNamespacedServiceAccount({ namespace, name: 'w' });
    await events;
    expect(seen).toEqual(['ADDED w', 'MODIFIED w', 'DELETED w']);
    expect(opened.map((w) => w.closed)).toEqual([false]);
    controller.abort();
    expect(await done).toMatchObject({ name: 'AbortError' });
    // The closed connection reaches the simulation's side a few event-loop turns later.
    for (let i = 0; i < 10 && !opened[0]!.closed; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(opened.map((w) => w.closed)).toEqual([true]);
  });

  it('ends a Watch cleanly when the simulation ends it', async () => {
    const s = await newSim();
    const kc = await simulationKubeConfig(s);
    let finished = (_err: unknown): void => {};
    const done = new Promise<unknown>((resolve) => (finished = resolve));
    await new k8s.Watch(kc).watch('/api/v1/namespaces/default/configmaps', {}, () => {}, (err) => finished(err));
    s.close();
    expect(await done).toBeNull();
  });

  it('keeps an informer (list, then watch) up to date', async () => {
    const kc = await simulationKubeConfig(await newSim());
    const core = kc.makeApiClient(k8s.CoreV1Api);
    await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'before' } } });
    const informer = k8s.makeInformer(kc, '/api/v1/namespaces/default/configmaps', () => core.listNamespacedConfigMap({ namespace }));
    const added: string[] = [];
    let second = (): void => {};
    const both = new Promise<void>((resolve) => (second = resolve));
    informer.on('add', (cm) => {
      added.push(cm.metadata!.name!);
      if (added.length === 2) second();
    });
    await informer.start();
    await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'after' } } });
    await both;
    expect(added).toEqual(['before', 'after']);
    expect(informer.list().map((cm) => cm.metadata?.name).sort()).toEqual(['after', 'before']);
    await informer.stop();
  });

  it("runs a user's controller (list StatefulSets, patch replicas) with sim.advance, the same world for the same seed", async () => {
    const a = await controllerRun(21);
    expect(a.patched).toEqual([1, 0]);
    expect(a.ready.spec?.replicas).toBe(3);
    expect(a.ready.status).toMatchObject({ replicas: 3, readyReplicas: 3 });
    expect(a.pods).toEqual(['db-0', 'db-1', 'db-2']);
    const b = await controllerRun(21);
    expect(b.sim.hash()).toBe(a.sim.hash());
    expect(JSON.stringify(b.ready)).toBe(JSON.stringify(a.ready));
  });
});
