/**
 * `platform-sim run` against a server (conformance mode): over HTTPS with `--kubeconfig` as serve
 * writes it; and against a server without platform-sim's control endpoints (here: serve behind a
 * proxy that hides /sim/v1), where steps needing virtual time are skipped with the reason and the
 * rest of the scenario with them.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cliRun.ts';
import { serve, type RunningServer } from '../../../src/edges/http/server.ts';


const dir = mkdtempSync(join(tmpdir(), 'psim-target-'));
const scenario = join(dir, 'timed.yaml');
writeFileSync(
  scenario,
  `name: timed
steps:
  - create: { apiVersion: v1, kind: ConfigMap, metadata: { name: settings } }
  - expect: { object: { apiVersion: v1, kind: ConfigMap, name: settings }, fields: [{ path: metadata.name, equals: settings }] }
  - advance: 1m
  - expect: { absent: { apiVersion: v1, kind: ConfigMap, name: other } }
`,
);

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of closers) await c();
});

describe('platform-sim run --target', () => {
  it('runs against serve over HTTPS with the kubeconfig serve wrote, from the server first world each time', async () => {
    const kubeconfig = join(dir, 'kubeconfig');
    const server: RunningServer = await serve({ port: 0, clock: 'manual', kubeconfig });
    closers.push(() => server.close());
    for (let i = 0; i < 2; i++) {
      // Twice: the second run starts from the first world again, so its create does not conflict.
      const r = await runCli('run', scenario, '--kubeconfig', kubeconfig);
      expect(r.out).toContain(`against ${server.url}`);
      expect(r.out).toMatch(/\+01:00 +4 ✓ expect no ConfigMap other/);
      expect(r.code).toBe(0);
    }
  });

  it('skips what a server without control endpoints cannot do, with the reason', async () => {
    const server = await serve({ port: 0, clock: 'manual', tls: false, adminToken: 'admin' });
    closers.push(() => server.close());
    const proxy = hidingSimControls(new URL(server.url));
    await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
    closers.push(() => new Promise((done) => proxy.close(() => done())));
    const address = proxy.address() as { port: number };
    const r = await runCli('run', scenario, '--target', `http://127.0.0.1:${address.port}`, '--token', 'admin', '--json');
    expect(r.code).toBe(0);
    const result = JSON.parse(r.out) as { skipped: number; scenarios: { outcome: string; skipped: string; steps: { outcome: string; skipped?: string }[] }[] };
    expect(result.skipped).toBe(1);
    expect(result.scenarios[0]!.skipped).toBe('step 3 (advance 1m): the target has no virtual time (it has no platform-sim control endpoints)');
    expect(result.scenarios[0]!.steps.map((s) => s.outcome)).toEqual(['passed', 'passed', 'skipped', 'skipped']);
  });
});

/** A proxy to `target` that answers 404 for /sim/v1/*, as a server without platform-sim's control endpoints. */
function hidingSimControls(target: URL): Server {
  return createServer((req, res) => {
    if (req.url?.startsWith('/sim/v1') === true) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"kind":"Status","code":404}');
      return;
    }
    const upstream = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
}
