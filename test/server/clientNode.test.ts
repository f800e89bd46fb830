/**
 * @kubernetes/client-node 1.4.0 against the HTTPS server through the written kubeconfig:
 * create, read, list with paging, a stale replace (409), and delete of ServiceAccounts.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/server.ts';

let server: RunningServer;
let core: k8s.CoreV1Api;
let kc: k8s.KubeConfig;

beforeAll(async () => {
  const kubeconfig = join(mkdtempSync(join(tmpdir(), 'psim-cn-')), 'kubeconfig');
  server = await serve({ port: 0, clock: 'manual', seed: 12, kubeconfig });
  kc = new k8s.KubeConfig();
  kc.loadFromFile(kubeconfig);
  core = kc.makeApiClient(k8s.CoreV1Api);
});
afterAll(async () => {
  await server.close();
});

describe('client-node', () => {
  it('creates, reads, pages, conflicts and deletes ServiceAccounts', async () => {
    const created = await core.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'builder' } } });
    expect(created.metadata?.uid).toBeDefined();
    const read = await core.readNamespacedServiceAccount({ namespace: 'default', name: 'builder' });
    expect(read.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
    const page = await core.listNamespacedServiceAccount({ namespace: 'default', limit: 1 });
    expect(page.items).toHaveLength(1);
    expect(page.metadata?._continue).toBeDefined();
    const rest = await core.listNamespacedServiceAccount({ namespace: 'default', limit: 1, _continue: page.metadata!._continue! });
    expect(rest.items[0]?.metadata?.name).toBe('default');
    await core.replaceNamespacedServiceAccount({ namespace: 'default', name: 'builder', body: { ...read, automountServiceAccountToken: false } });
    await expect(core.replaceNamespacedServiceAccount({ namespace: 'default', name: 'builder', body: read })).rejects.toMatchObject({ code: 409 });
    await core.deleteNamespacedServiceAccount({ namespace: 'default', name: 'builder' });
    await expect(core.readNamespacedServiceAccount({ namespace: 'default', name: 'builder' })).rejects.toMatchObject({ code: 404 });
  });

  it('watches ADDED, MODIFIED, DELETED in order and resumes from the last resourceVersion', async () => {
    const seen: string[] = [];
    let lastRv = '';
    const path = '/api/v1/namespaces/default/serviceaccounts';
    const start = (await core.listNamespacedServiceAccount({ namespace: 'default' })).metadata!.resourceVersion!;
    const events = new Promise<void>((resolve) => {
      void new k8s.Watch(kc).watch(path, { resourceVersion: start }, (type: string, obj: k8s.V1ServiceAccount) => {
        seen.push(`${type} ${obj.metadata?.name}`);
        lastRv = obj.metadata?.resourceVersion ?? lastRv;
        if (seen.length === 3) resolve();
      }, () => {});
    });
    await core.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'w' } } });
    await core.patchNamespacedServiceAccount({ namespace: 'default', name: 'w', body: { metadata: { labels: { a: 'b' } } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await core.deleteNamespacedServiceAccount({ namespace: 'default', name: 'w' });
    await events;
    expect(seen).toEqual(['ADDED w', 'MODIFIED w', 'DELETED w']);
    await core.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'after' } } });
    const resumed = await new Promise<string>((resolve) => {
      void new k8s.Watch(kc).watch(path, { resourceVersion: lastRv }, (type: string, obj: k8s.V1ServiceAccount) => resolve(`${type} ${obj.metadata?.name}`), () => {});
    });
    expect(resumed).toBe('ADDED after');
  });
});
