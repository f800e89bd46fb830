/**
 * HTTPS: the serving certificate comes from the simulation's seeded Ed25519 CA (byte-identical
 * for the same seed), a client trusting that CA completes the handshake and sends its bearer
 * token, and the written kubeconfig works with kubectl when kubectl is installed.
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/server.ts';
import { kubectlInstalled } from './clients.ts';

let server: RunningServer;
const dir = mkdtempSync(join(tmpdir(), 'psim-tls-'));
const kubeconfig = join(dir, 'kubeconfig');

beforeAll(async () => {
  server = await serve({ port: 0, clock: 'manual', seed: 11, kubeconfig });
});
afterAll(async () => {
  await server.close();
});

function get(path: string, token?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { ca: server.caPem, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HTTPS server', () => {
  it('serves over TLS with a certificate from the seeded CA', async () => {
    expect(server.url.startsWith('https://127.0.0.1:')).toBe(true);
    const res = await get('/api/v1/namespaces/default/serviceaccounts/default', server.adminToken);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).metadata.name).toBe('default');
    const again = await serve({ port: 0, clock: 'manual', seed: 11 });
    expect(again.caPem).toBe(server.caPem);
    await again.close();
  });

  // The server runs in this process: kubectl must run asynchronously or nobody answers it.
  it('works with kubectl through the written kubeconfig', async (ctx) => {
    if (!kubectlInstalled()) {
      console.log('kubectl is not installed: skipping the kubectl smoke test');
      ctx.skip();
    }
    const run = (args: string[]) => promisify(execFile)('kubectl', ['--kubeconfig', kubeconfig, ...args], { encoding: 'utf8', env: { ...process.env, HOME: dir } });
    const raw = await run(['get', '--raw', '/api/v1/namespaces/default/serviceaccounts']);
    expect(JSON.parse(raw.stdout).items[0].metadata.name).toBe('default');
    const table = await run(['get', 'serviceaccounts']);
    expect(table.stdout.split('\n')[0]).toMatch(/^NAME\s+SECRETS\s+AGE$/);
    expect(table.stdout).toMatch(/\ndefault\s+0\s+/);
    // create -f and apply -f run with server-side validation, found through /openapi/v3.
    const file = join(dir, 'sa.yaml');
    writeFileSync(file, 'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: fromfile\n  labels:\n    a: b\n');
    expect((await run(['create', '-f', file])).stdout).toBe('serviceaccount/fromfile created\n');
    writeFileSync(file, 'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: fromfile\n  labels:\n    a: c\n');
    expect((await run(['apply', '-f', file])).stdout).toBe('serviceaccount/fromfile configured\n');
    expect((await run(['apply', '-f', file])).stdout).toBe('serviceaccount/fromfile unchanged\n');
    expect((await run(['patch', 'sa', 'fromfile', '-p', '{"secrets":[{"name":"x"}]}'])).stdout).toBe('serviceaccount/fromfile patched\n');
    expect((await run(['patch', 'sa', 'fromfile', '--type', 'merge', '-p', '{"automountServiceAccountToken":false}'])).stdout).toBe('serviceaccount/fromfile patched\n');
    const yaml = (await run(['get', 'sa', 'fromfile', '-o', 'yaml'])).stdout;
    expect(yaml).toContain('a: c');
    expect(yaml).toContain('automountServiceAccountToken: false');
    expect((await run(['delete', 'sa', 'fromfile'])).stdout).toBe('serviceaccount "fromfile" deleted\n');
  });

  it('kubectl get -w sees an event', async (ctx) => {
    if (!kubectlInstalled()) {
      console.log('kubectl is not installed: skipping the kubectl watch test');
      ctx.skip();
    }
    const child = spawn('kubectl', ['--kubeconfig', kubeconfig, 'get', 'serviceaccounts', '-w', '--output-watch-events'], { env: { ...process.env, HOME: dir } });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    try {
      const until = async (pattern: RegExp): Promise<void> => {
        for (let i = 0; i < 100 && !pattern.test(out); i++) await new Promise((r) => setTimeout(r, 50));
      };
      await until(/default/);
      server.sim.requestSync({ method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts', body: { metadata: { name: 'watched' } } });
      await until(/ADDED\s+watched/);
      expect(out).toMatch(/ADDED\s+watched/);
    } finally {
      child.kill();
    }
  });
});
