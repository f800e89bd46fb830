/**
 * First use of the server (issue 12): the README's commands, the wall clock starting at now (so
 * kubectl's AGE column is right), a serving certificate for every loopback name, an address that
 * cannot be listened on reported in one line, `npm start` stopped by SIGTERM leaving nothing
 * behind, and wall-clock ticks that change nothing leaving the trace alone.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkServerIdentity, connect, type PeerCertificate } from 'node:tls';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cli } from '../../src/cli/cli.ts';
import { serve, type RunningServer } from '../../src/server.ts';
import { PlatformSimError } from '../../src/sim/options.ts';
import { kubectlInstalled } from './clients.ts';

const repo = join(import.meta.dirname, '..', '..');
const readme = readFileSync(join(repo, 'README.md'), 'utf8');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The `sh` code blocks of a markdown text, as lines without their comments. */
const shBlocks = (markdown: string): string[][] =>
  [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter((l) => l !== ''));

/** Runs the CLI in this process and returns its server (tests close it). */
async function serveCli(...flags: string[]): Promise<RunningServer> {
  const err: string[] = [];
  const r = await cli(['serve', ...flags], { out: () => {}, err: (l) => err.push(l) });
  if (r.server === undefined) throw new Error(err.join('\n'));
  return r.server;
}

function kubectl(kubeconfig: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)('kubectl', ['--kubeconfig', kubeconfig, ...args], { encoding: 'utf8', env: { ...process.env, HOME: join(kubeconfig, '..') } });
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

async function portIsFree(port: number): Promise<boolean> {
  const s = createServer();
  const free = await new Promise<boolean>((resolve) => {
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (free) await new Promise((r) => s.close(r));
  return free;
}

const groupAlive = (pgid: number): boolean => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the README', () => {
  it('opens with the two commands that set everything up and run it, and the scenario library third', () => {
    const first = shBlocks(readme)[0]!;
    expect(first).toEqual(['npm ci && npm start', 'npm test', 'npm run scenarios']);
    expect(readme.indexOf('```sh')).toBeLessThan(readme.indexOf('\n## '));
    // npm start keeps the spec's names; it runs the CLI as npm's own child (see the SIGTERM test).
    const scripts = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['start']).not.toContain('--group-domain');
    expect(scripts['test']).toBe('tsc --noEmit && vitest run');
    expect(scripts['scenarios']).toBe('tsx src/cli/main.ts run scenarios --report report.html');
  });

  it('runs its kubectl example with --group-domain k8s.io, and says why in one sentence', async (ctx) => {
    const block = shBlocks(readme).find((b) => b.some((l) => l.startsWith('kubectl ')))!;
    expect(block[0]).toMatch(/^npm start -- .*--group-domain k8s\.io/);
    expect(readme).toMatch(/`--group-domain k8s\.io` because kubectl hard-codes the `k8s\.io` API groups for `create token`,\s+`auth whoami`, `auth can-i` and `certificate approve`[^.]*\./);
    if (!kubectlInstalled()) {
      console.log('kubectl is not installed: skipping the README kubectl example');
      ctx.skip();
    }
    const dir = mkdtempSync(join(tmpdir(), 'psim-readme-'));
    const kubeconfig = join(dir, 'kubeconfig');
    const flags = block[0]!.replace(/^npm start -- /, '').replaceAll('./kubeconfig', kubeconfig).split(/\s+/);
    const server = await serveCli(...flags, '--port', '0');
    try {
      const out: string[] = [];
      for (const line of block.slice(1)) {
        const args = line.replaceAll('./kubeconfig', kubeconfig).split(/\s+/).slice(3);
        out.push((await kubectl(kubeconfig, args)).stdout);
      }
      expect(out[0]).toMatch(/Username\s+system:admin/);
      expect(out[1]).toBe('serviceaccount/builder created\n');
      expect(out[2]).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n?$/);
      expect(out[3]).toMatch(/\nbuilder\s+0\s+\d+s\n/);
    } finally {
      await server.close();
    }
    // Why: with the spec's names kubectl's hard-coded group is not served.
    const plain = await serveCli('--port', '0', '--kubeconfig', kubeconfig);
    try {
      await expect(kubectl(kubeconfig, ['auth', 'whoami'])).rejects.toThrow(/the selfsubjectreviews API is not enabled in the cluster/);
    } finally {
      await plain.close();
    }
  });
});

describe('virtual time at start', () => {
  it('under --clock wall is the wall clock now, so kubectl shows ages in seconds', async (ctx) => {
    const dir = mkdtempSync(join(tmpdir(), 'psim-wall-'));
    const kubeconfig = join(dir, 'kubeconfig');
    const before = Date.now();
    const server = await serveCli('--port', '0', '--kubeconfig', kubeconfig);
    try {
      const now = Date.parse(server.sim.now());
      expect(now).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
      expect(now).toBeLessThanOrEqual(Date.now());
      if (!kubectlInstalled()) {
        console.log('kubectl is not installed: skipping the AGE column check');
        ctx.skip();
      }
      const table = (await kubectl(kubeconfig, ['get', 'serviceaccounts'])).stdout.split('\n');
      expect(table[0]).toMatch(/^NAME\s+SECRETS\s+AGE$/);
      expect(table[1]).toMatch(/^default\s+0\s+\d{1,2}s$/);
    } finally {
      await server.close();
    }
  });

  it('is --start-time under either clock', async () => {
    const manual = await serveCli('--port', '0', '--no-tls', '--clock', 'manual', '--start-time', '2030-06-01T12:00:00Z');
    expect(manual.sim.now()).toBe('2030-06-01T12:00:00Z');
    await manual.close();
    const wall = await serveCli('--port', '0', '--no-tls', '--clock', 'wall', '--start-time', '2030-06-01T12:00:00Z');
    await sleep(250);
    expect(wall.sim.now()).toMatch(/^2030-06-01T12:00:0\dZ$/);
    expect(Date.parse(wall.sim.now())).toBeLessThan(Date.parse('2030-06-01T12:00:10Z'));
    await wall.close();
    // Without one, a manual clock starts at the library's default.
    const plain = await serveCli('--port', '0', '--no-tls', '--clock', 'manual');
    expect(plain.sim.now()).toBe('2025-01-01T00:00:00Z');
    await plain.close();
  });
});

describe('the serving certificate', () => {
  async function peer(server: RunningServer, host: string): Promise<PeerCertificate> {
    const port = Number(new URL(server.url).port);
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port, ca: server.caPem!, servername: host.includes(':') || /^[\d.]+$/.test(host) ? '' : host }, () => {
        resolve(socket.getPeerCertificate());
        socket.end();
      });
      socket.on('error', reject);
    });
  }

  it.each([['127.0.0.1'], ['::1'], ['localhost'], ['127.0.0.2']])('is valid for 127.0.0.1, ::1, localhost and the --host value (--host %s)', async (host) => {
    const server = await serveCli('--port', '0', '--clock', 'manual', '--host', host);
    try {
      // The TLS handshake verified the chain against the simulation's CA; the names are checked here.
      const cert = await peer(server, host === 'localhost' ? new URL(server.url).hostname.replace(/^\[|\]$/g, '') : host);
      for (const name of ['127.0.0.1', '::1', 'localhost', host]) expect(checkServerIdentity(name, cert), name).toBeUndefined();
      expect(checkServerIdentity('example.com', cert)).toBeInstanceOf(Error);
    } finally {
      await server.close();
    }
  });
});

describe('an address that cannot be listened on', () => {
  it('makes serve() reject with a PlatformSimError naming the address and the cause', async () => {
    const taken = await serve({ port: 0, clock: 'manual', tls: false });
    const port = Number(new URL(taken.url).port);
    try {
      const e = await serve({ port, clock: 'manual', tls: false }).then(
        () => null,
        (x: unknown) => x,
      );
      expect(e).toBeInstanceOf(PlatformSimError);
      expect(e).toMatchObject({ code: 'PSIM_LISTEN_FAILED', message: `cannot listen on 127.0.0.1:${port}: address already in use (EADDRINUSE)` });
      await expect(serve({ host: '192.0.2.1', port: 0, clock: 'manual', tls: false })).rejects.toMatchObject({
        name: 'PlatformSimError',
        message: 'cannot listen on 192.0.2.1:0: address not available on this machine (EADDRNOTAVAIL)',
      });
      await expect(serve({ host: '::1', port, clock: 'manual', tls: false }).then((s) => s.close())).resolves.toBeUndefined();
    } finally {
      await taken.close();
    }
  });

  it('is one line on stderr and exit code 2 from the command', async () => {
    const taken = await serve({ port: 0, clock: 'manual', tls: false });
    const port = Number(new URL(taken.url).port);
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', String(port), '--no-tls'], { cwd: repo });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const code = await new Promise<number | null>((r) => child.on('exit', r));
      expect({ code, stdout, stderr }).toEqual({ code: 2, stdout: '', stderr: `platform-sim: cannot listen on 127.0.0.1:${port}: address already in use (EADDRINUSE)\n` });
    } finally {
      await taken.close();
    }
  });
});

describe('npm start', () => {
  it('stops on SIGTERM leaving no process and a free port', async () => {
    const port = await freePort();
    // Its own process group, so that whatever npm started can be found (and cleaned up) after.
    const npm = spawn('npm', ['start', '--', '--port', String(port), '--no-tls', '--clock', 'manual'], { cwd: repo, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const pgid = npm.pid!;
    let out = '';
    npm.stdout.on('data', (c: Buffer) => (out += c.toString()));
    npm.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<void>((r) => npm.on('exit', () => r()));
    try {
      for (let i = 0; i < 600 && !out.includes('platform-sim listening on'); i++) await sleep(100);
      expect(out).toContain(`platform-sim listening on http://127.0.0.1:${port}`);
      expect(await portIsFree(port)).toBe(false);
      process.kill(npm.pid!, 'SIGTERM');
      await exited;
      for (let i = 0; i < 100 && groupAlive(pgid); i++) await sleep(100);
      expect(groupAlive(pgid)).toBe(false);
      expect(await portIsFree(port)).toBe(true);
    } finally {
      if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
    }
  });
});

describe('wall-clock ticks', () => {
  it('move virtual time, and add nothing to the trace when they change nothing', async () => {
    const server = await serve({ port: 0, tls: false, seed: 3 });
    try {
      await sleep(300);
      const start = server.sim.trace().length;
      const then = server.sim.world.now;
      await sleep(700);
      expect(server.sim.world.now - then).toBeGreaterThanOrEqual(500);
      expect(server.sim.trace().slice(start)).toEqual([]);
      // A tick that changes something is traced: the node agent makes a pod ready on time
      // (timestamps have whole seconds: ready 1–2 s after the request).
      await server.sim.request({
        method: 'POST',
        path: '/api/v1/namespaces/default/pods',
        body: { metadata: { name: 'p', annotations: { 'sim.platform.io/ready-after': '2s' } }, spec: { containers: [{ name: 'c', image: 'x' }] } },
      });
      const readyAt = (): number => server.sim.trace().slice(start).findIndex((e) => e.type === 'write' && e.by === 'node-agent' && e.name === 'p' && e.summary === '1/1 Running 0');
      for (let i = 0; i < 50 && readyAt() < 0; i++) await sleep(100);
      const events = server.sim.trace().slice(start);
      const ready = readyAt();
      expect(ready).toBeGreaterThan(0);
      expect(events[ready + 1]).toMatchObject({ type: 'clock' });
      expect(events.filter((e) => e.type === 'clock')).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
