/**
 * kubectl 1.32's `get pods` against `serve()`: the server's Table (as=Table) carries the pod
 * printer's columns, the `-o wide` ones included (priority 1, always sent, shown by kubectl with
 * `-o wide`), and `get -w` gets one-row Tables per watch event. The clock is manual, so AGE is
 * exact. Skipped with a message where kubectl is missing.
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it, type TestContext } from 'vitest';
import type { Body } from '../helpers.ts';
import { kubectlInstalled, serverForFile } from './clients.ts';

const { dir, kubeconfig, server } = serverForFile('psim-table-', { clock: 'manual', seed: 5, groupDomain: 'k8s.io' });
const env = { ...process.env, HOME: dir };

const kubectl = async (args: string[]): Promise<string> => (await promisify(execFile)('kubectl', ['--kubeconfig', kubeconfig, ...args], { encoding: 'utf8', env, timeout: 40_000 })).stdout;

function needsKubectl(ctx: TestContext): void {
  if (kubectlInstalled()) return;
  console.log(`kubectl is not installed: skipping "${ctx.task.name}"`);
  ctx.skip();
}

/** A `kubectl get -w` running in the background; `lines(n)` waits until it printed n lines. */
function watch(args: string[]): { lines: (n: number) => Promise<string[]>; stop: () => void } {
  const child: ChildProcessWithoutNullStreams = spawn('kubectl', ['--kubeconfig', kubeconfig, 'get', ...args], { env });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (out += d.toString('utf8')));
  const lines = async (n: number): Promise<string[]> => {
    for (let i = 0; i < 300 && out.split('\n').length <= n; i++) await new Promise((r) => setTimeout(r, 50));
    return out.split('\n').slice(0, n);
  };
  return { lines, stop: () => void child.kill() };
}

const pod = (name: string, annotations: Record<string, string>, spec: Body = {}): Body => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, annotations },
  spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
});

async function create(body: Body): Promise<void> {
  const res = await server().sim.request({ method: 'POST', path: '/api/v1/namespaces/default/pods', body });
  expect(res.status).toBe(201);
}

describe('kubectl get pods: the pod printer columns', () => {
  it('get pods -w and get pods -w -o wide print one row per event', async (ctx) => {
    needsKubectl(ctx);
    await create(pod('a', {}));
    const plain = watch(['pods', '-w', '--output-watch-events']);
    const wide = watch(['pods', '-w', '-o', 'wide']);
    try {
      expect(await plain.lines(2)).toEqual(['EVENT      NAME   READY   STATUS    RESTARTS   AGE', 'ADDED      a      1/1     Running   0          0s']);
      expect(await wide.lines(2)).toEqual([
        'NAME   READY   STATUS    RESTARTS   AGE   IP           NODE     NOMINATED NODE   READINESS GATES',
        'a      1/1     Running   0          0s    10.244.0.2   node-1   <none>           <none>',
      ]);
      await create(pod('b', { 'sim.platform.io/never-ready': 'true' }, { readinessGates: [{ conditionType: 'example.com/gate' }] }));
      // b's three events happen at 0s; a watch kubectl opens late (a loaded machine) is sent them
      // when it opens, rendered at that instant as the API server would: let both see them first.
      await plain.lines(5);
      await wide.lines(5);
      await server().sim.advance('30s');
      expect((await server().sim.request({ method: 'DELETE', path: '/api/v1/namespaces/default/pods/a' })).status).toBe(200);
      // Each later event is a Table without column definitions: kubectl keeps the first widths.
      expect(await plain.lines(6)).toEqual([
        'EVENT      NAME   READY   STATUS    RESTARTS   AGE',
        'ADDED      a      1/1     Running   0          0s',
        'ADDED      b      0/1     Pending   0          0s',
        'MODIFIED   b      0/1     Pending   0          0s',
        'MODIFIED   b      0/1     Running   0          0s',
        'MODIFIED   a      1/1     Terminating   0          30s',
      ]);
      expect(await wide.lines(6)).toEqual([
        'NAME   READY   STATUS    RESTARTS   AGE   IP           NODE     NOMINATED NODE   READINESS GATES',
        'a      1/1     Running   0          0s    10.244.0.2   node-1   <none>           <none>',
        'b      0/1     Pending   0          0s    <none>       <none>   <none>           0/1',
        'b      0/1     Pending   0          0s    <none>       node-1   <none>           0/1',
        'b      0/1     Running   0          0s    10.244.0.3   node-1   <none>           0/1',
        'a      1/1     Terminating   0          30s   10.244.0.2   node-1   <none>           <none>',
      ]);
    } finally {
      plain.stop();
      wide.stop();
    }
  });

  it('get pods and get pods -o wide', async (ctx) => {
    needsKubectl(ctx);
    await create(pod('c', { 'sim.platform.io/fail-after': '5s' }));
    await server().sim.advance('10s');
    expect(await kubectl(['get', 'pods', 'b', 'c'])).toBe(['NAME   READY   STATUS    RESTARTS   AGE', 'b      0/1     Running   0          40s', 'c      0/1     Error     0          10s', ''].join('\n'));
    expect(await kubectl(['get', 'pods', 'b', 'c', '-o', 'wide'])).toBe(
      [
        'NAME   READY   STATUS    RESTARTS   AGE   IP           NODE     NOMINATED NODE   READINESS GATES',
        'b      0/1     Running   0          40s   10.244.0.3   node-1   <none>           0/1',
        'c      0/1     Error     0          10s   10.244.0.4   node-1   <none>           <none>',
        '',
      ].join('\n'),
    );
  });

  it('the Table: every printer column, priority 1 for the wide ones', async () => {
    const res = await server().sim.request({ method: 'GET', path: '/api/v1/namespaces/default/pods/b', headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
    expect(res.status).toBe(200);
    const table = res.body as Body;
    expect(table.columnDefinitions.map((c: Body) => [c.name, c.type, c.priority])).toEqual([
      ['Name', 'string', 0],
      ['Ready', 'string', 0],
      ['Status', 'string', 0],
      ['Restarts', 'string', 0],
      ['Age', 'string', 0],
      ['IP', 'string', 1],
      ['Node', 'string', 1],
      ['Nominated Node', 'string', 1],
      ['Readiness Gates', 'string', 1],
    ]);
    expect(table.rows[0].cells).toEqual(['b', '0/1', 'Running', '0', '40s', '10.244.0.3', 'node-1', '<none>', '0/1']);
  });
});
