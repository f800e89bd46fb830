/**
 * The StatefulSet controller driven by unmodified clients in k8s.io mode, over HTTPS with the wall
 * clock (so kubectl's waits progress by themselves): kubectl apply / rollout status / set image /
 * rollout history / rollout undo / scale / get -w / describe (skipped with a message where
 * kubectl is missing), the typed AppsV1Api of @kubernetes/client-node, and Debian's python3-kubernetes.
 * Pods become ready one second after they start (`sim.platform.io/ready-after`).
 */
import { execFile, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it, type TestContext } from 'vitest';
import { kubectlInstalled, pythonClientInstalled, serverForFile } from './clients.ts';

const { dir, kubeconfig, server } = serverForFile('psim-sts-', { clock: 'wall', seed: 41, groupDomain: 'k8s.io' });

const kubectl = async (args: string[]): Promise<string> =>
  (await promisify(execFile)('kubectl', ['--kubeconfig', kubeconfig, ...args], { encoding: 'utf8', env: { ...process.env, HOME: dir }, timeout: 40_000 })).stdout;
/** Skips the test where a client is missing, printing why (the other server tests do the same). */
function needs(ctx: TestContext, client: 'kubectl' | 'python3-kubernetes'): void {
  if (client === 'kubectl' ? kubectlInstalled() : pythonClientInstalled()) return;
  console.log(`${client === 'kubectl' ? 'kubectl is not installed' : 'python3-kubernetes is not importable by /usr/bin/python3'}: skipping "${ctx.task.name}"`);
  ctx.skip();
}
const lastLine = (out: string): string => out.trimEnd().split('\n').at(-1) ?? '';
/** The columns of each line of kubectl's table output (cells are separated by two or more spaces). */
const rows = (out: string): string[][] => out.trimEnd().split('\n').map((l) => l.split(/\s{2,}/));

const webYaml = `apiVersion: v1
kind: Service
metadata:
  name: web
  labels:
    app: web
spec:
  clusterIP: None
  selector:
    app: web
  ports:
  - port: 80
    name: http
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
spec:
  serviceName: web
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
      annotations:
        sim.platform.io/ready-after: 1s
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        ports:
        - containerPort: 80
          name: http
`;

describe('StatefulSet with kubectl', () => {
  it('applies, rolls out, updates the image, rolls back and scales down', async (ctx) => {
    needs(ctx, 'kubectl');
    const file = join(dir, 'web.yaml');
    writeFileSync(file, webYaml);
    expect(await kubectl(['apply', '-f', file])).toBe('service/web created\nstatefulset.apps/web created\n');
    expect(lastLine(await kubectl(['rollout', 'status', 'statefulset/web', '--timeout=60s']))).toBe('partitioned roll out complete: 3 new pods have been updated...');
    expect(rows(await kubectl(['get', 'sts', 'web'])).map((r) => r.slice(0, 2))).toEqual([['NAME', 'READY'], ['web', '3/3']]);
    const first = await kubectl(['get', 'sts', 'web', '-o', 'jsonpath={.status.updateRevision}']);
    expect(first).toMatch(/^web-[0-9a-z]+$/);
    const pods = async (): Promise<string[][]> =>
      rows(await kubectl(['get', 'pods', '-l', 'app=web', '-o', 'custom-columns=NAME:.metadata.name,IMAGE:.spec.containers[0].image,HASH:.metadata.labels.controller-revision-hash,PORT:.spec.containers[0].ports[0].protocol'])).slice(1);
    expect(await pods()).toEqual(['web-0', 'web-1', 'web-2'].map((n) => [n, 'nginx:1.27', first, 'TCP']));

    // A new image: every pod is replaced, highest ordinal first, with the new revision's hash.
    expect(await kubectl(['set', 'image', 'statefulset/web', 'nginx=nginx:1.28'])).toBe('statefulset.apps/web image updated\n');
    expect(lastLine(await kubectl(['rollout', 'status', 'statefulset/web', '--timeout=60s']))).toBe('partitioned roll out complete: 3 new pods have been updated...');
    const second = await kubectl(['get', 'sts', 'web', '-o', 'jsonpath={.status.updateRevision} {.status.currentRevision}']);
    const [updateRevision, currentRevision] = second.split(' ');
    expect(updateRevision).not.toBe(first);
    expect(currentRevision).toBe(updateRevision);
    expect(await pods()).toEqual(['web-0', 'web-1', 'web-2'].map((n) => [n, 'nginx:1.28', updateRevision, 'TCP']));
    expect(rows(await kubectl(['rollout', 'history', 'statefulset/web']))).toEqual([['statefulset.apps/web '], ['REVISION', 'CHANGE-CAUSE'], ['1', '<none>'], ['2', '<none>']]);
    expect(await kubectl(['rollout', 'history', 'statefulset/web', '--revision=2'])).toMatch(/Image:\s+nginx:1\.28/);

    // Undo: the first ControllerRevision is reused (renumbered 3), not a new one made.
    expect(await kubectl(['rollout', 'undo', 'statefulset/web'])).toBe('statefulset.apps/web rolled back\n');
    expect(lastLine(await kubectl(['rollout', 'status', 'statefulset/web', '--timeout=60s']))).toBe('partitioned roll out complete: 3 new pods have been updated...');
    expect(await kubectl(['get', 'sts', 'web', '-o', 'jsonpath={.status.updateRevision} {.status.currentRevision}'])).toBe(`${first} ${first}`);
    expect(await pods()).toEqual(['web-0', 'web-1', 'web-2'].map((n) => [n, 'nginx:1.27', first, 'TCP']));
    expect(rows(await kubectl(['get', 'controllerrevisions', '-o', 'custom-columns=NAME:.metadata.name,REVISION:.revision', '--sort-by=.revision'])).slice(1)).toEqual([
      [updateRevision, '2'],
      [first, '3'],
    ]);
    expect(rows(await kubectl(['rollout', 'history', 'statefulset/web'])).slice(2)).toEqual([['2', '<none>'], ['3', '<none>']]);

    // Scale down: web-2, then web-1, are deleted; web-0 stays. `kubectl get -w` watches it as Tables.
    const watcher = spawn('kubectl', ['--kubeconfig', kubeconfig, 'get', 'pods', '-l', 'app=web', '-w', '--output-watch-events'], { env: { ...process.env, HOME: dir } });
    let watched = '';
    watcher.stdout.on('data', (chunk: Buffer) => (watched += chunk.toString()));
    try {
      await until(async () => watched, (w) => /ADDED\s+web-2/.test(w), 10_000);
      expect(await kubectl(['scale', 'statefulset/web', '--replicas=1'])).toBe('statefulset.apps/web scaled\n');
      await until(async () => watched, (w) => /DELETED\s+web-1/.test(w), 30_000);
    } finally {
      watcher.kill();
    }
    // Complete lines only: the watcher is killed at any moment, perhaps in the middle of a row.
    const events = rows(watched.slice(0, watched.lastIndexOf('\n') + 1));
    expect(events[0]).toEqual(['EVENT', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
    // One header: every event is a row of the pod table (the columns never change).
    expect(events.slice(1).filter((r) => r.length !== 6 || r[0] === 'EVENT')).toEqual([]);
    expect(events.filter((r) => r[0] === 'DELETED').map((r) => [r[0], r[1], r[3]])).toEqual([
      ['DELETED', 'web-2', 'Terminating'],
      ['DELETED', 'web-1', 'Terminating'],
    ]);
    const left = rows(await kubectl(['get', 'pods', '-l', 'app=web']));
    expect(left.map((r) => r.slice(0, 4))).toEqual([
      ['NAME', 'READY', 'STATUS', 'RESTARTS'],
      ['web-0', '1/1', 'Running', '0'],
    ]);
    expect(rows(await kubectl(['get', 'sts', 'web'])).map((r) => r.slice(0, 2))).toEqual([['NAME', 'READY'], ['web', '1/1']]);

    const described = await kubectl(['describe', 'sts', 'web']);
    expect(described).toMatch(/Replicas:\s+1 desired \| 1 total/);
    expect(described).toMatch(/Pods Status:\s+1 Running \/ 0 Waiting \/ 0 Succeeded \/ 0 Failed/);
    expect(described).toMatch(/Port:\s+80\/TCP/);
    expect(described).toMatch(/SuccessfulDelete .* statefulset-controller\s+delete Pod web-2 in StatefulSet web successful/);
  });

  it('skips a rollback to the revision the set already runs', async (ctx) => {
    needs(ctx, 'kubectl');
    // kubectl compares its own Go encoding of the set's template patch (map keys sorted, the
    // template's `creationTimestamp: null` included) with the revision's `data` bytes.
    const file = join(dir, 'solo.yaml');
    writeFileSync(file, webYaml.split('---\n')[1]!.replaceAll('web', 'solo').replace('replicas: 3', 'replicas: 1'));
    await kubectl(['apply', '-f', file]);
    expect(lastLine(await kubectl(['rollout', 'status', 'statefulset/solo', '--timeout=30s']))).toBe('partitioned roll out complete: 1 new pods have been updated...');
    expect(await kubectl(['rollout', 'undo', 'statefulset/solo', '--to-revision=1'])).toBe('statefulset.apps/solo skipped rollback (current template already matches revision 1)\n');
  });
});

function loadConfig(): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(kubeconfig);
  return kc;
}

/** Polls `read` until `done` holds, for at most `ms` of wall time; answers the last value read. */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  let v = await read();
  while (!done(v) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    v = await read();
  }
  return v;
}

describe('StatefulSet with client-node', () => {
  it('creates a set, waits until ready, scales it and lists its revisions with AppsV1Api', async () => {
    const kc = loadConfig();
    const apps = kc.makeApiClient(k8s.AppsV1Api);
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const namespace = 'default';
    const labels = { app: 'cn-db' };
    const created = await apps.createNamespacedStatefulSet({
      namespace,
      body: {
        metadata: { name: 'cn-db' },
        spec: {
          replicas: 3,
          serviceName: 'cn-db',
          selector: { matchLabels: labels },
          template: { metadata: { labels, annotations: { 'sim.platform.io/ready-after': '1s' } }, spec: { containers: [{ name: 'db', image: 'postgres:16' }] } },
        },
      },
    });
    expect(created.spec?.podManagementPolicy).toBe('OrderedReady');
    expect(created.spec?.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1 } });

    const ready = await until(() => apps.readNamespacedStatefulSet({ namespace, name: 'cn-db' }), (s) => s.status?.readyReplicas === s.spec?.replicas);
    expect(ready.status?.readyReplicas).toBe(3);
    const status = await apps.readNamespacedStatefulSetStatus({ namespace, name: 'cn-db' });
    expect(status.status).toMatchObject({ replicas: 3, readyReplicas: 3, currentReplicas: 3, updatedReplicas: 3, availableReplicas: 3, observedGeneration: 1 });
    expect(status.status?.currentRevision).toBe(status.status?.updateRevision);

    const scale = await apps.readNamespacedStatefulSetScale({ namespace, name: 'cn-db' });
    expect(scale.spec?.replicas).toBe(3);
    expect(scale.status).toEqual({ replicas: 3, selector: 'app=cn-db' });
    const patched = await apps.patchNamespacedStatefulSetScale({ namespace, name: 'cn-db', body: { spec: { replicas: 2 } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    expect(patched.spec?.replicas).toBe(2);
    const down = await until(() => core.listNamespacedPod({ namespace, labelSelector: 'app=cn-db' }), (l) => l.items.length === 2);
    expect(down.items.map((p) => p.metadata?.name).sort()).toEqual(['cn-db-0', 'cn-db-1']);
    const replaced = await apps.replaceNamespacedStatefulSetScale({ namespace, name: 'cn-db', body: { ...(await apps.readNamespacedStatefulSetScale({ namespace, name: 'cn-db' })), spec: { replicas: 4 } } });
    expect(replaced.spec?.replicas).toBe(4);
    const up = await until(() => apps.readNamespacedStatefulSet({ namespace, name: 'cn-db' }), (s) => s.status?.readyReplicas === 4);
    expect(up.status).toMatchObject({ replicas: 4, readyReplicas: 4, observedGeneration: 3 });

    const revisions = await apps.listNamespacedControllerRevision({ namespace, labelSelector: 'app=cn-db' });
    expect(revisions.items.map((r) => [r.metadata?.name, r.revision])).toEqual([[status.status?.updateRevision, 1]]);
    const owner = revisions.items[0]?.metadata?.ownerReferences?.[0];
    expect(owner).toMatchObject({ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'cn-db', uid: created.metadata?.uid, controller: true, blockOwnerDeletion: true });
  });
});

describe('StatefulSet with the Python client', () => {
  it('creates a set with AppsV1Api and reads its status until ready', async (ctx) => {
    needs(ctx, 'python3-kubernetes');
    const ca = join(dir, 'ca.pem');
    writeFileSync(ca, server().caPem!);
    const out = await promisify(execFile)('/usr/bin/python3', [join(import.meta.dirname, 'python', 'statefulset.py'), server().url, server().adminToken, ca, 'default'], { encoding: 'utf8', timeout: 50_000 });
    expect(JSON.parse(out.stdout)).toEqual({
      generation: 1,
      ready: 2,
      revisionsAgree: true,
      scaleSpec: 3,
      grownReady: 3,
      revisions: [[true, 1]],
      pods: [0, 1, 2].map((i) => [`py-db-${i}`, `py-db-${i}`, 'py-db', `py-db-${i}`, 'Running']),
    });
  });
});
