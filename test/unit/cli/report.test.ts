/**
 * `platform-sim report`: a running server's timeline report (GET /sim/v1/report) saved as an HTML
 * page to open in a browser, fetched with the admin's token from the flags or a kubeconfig. The
 * endpoint stays admin-only: another user's token gets the server's 403.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../../../src/cli/cli.ts';
import { serve, type RunningServer } from '../../../src/server.ts';

const dir = mkdtempSync(join(tmpdir(), 'psim-report-'));
const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

async function run(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const { code } = await cli(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

async function started(options: Parameters<typeof serve>[0]): Promise<RunningServer> {
  const server = await serve({ port: 0, clock: 'manual', seed: 1, startTime: '2026-01-01T00:00:00Z', users: [{ token: 'alice-token', user: 'alice', groups: ['dev'] }], ...options });
  servers.push(server);
  await server.sim.create('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'builder' } });
  return server;
}

describe('platform-sim report', () => {
  it('saves the report of a plain-HTTP server with --server and --token, and prints where to open it', async () => {
    const server = await started({ tls: false });
    const file = join(dir, 'plain.html');
    const r = await run(['report', '--server', server.url, '--token', server.adminToken, '-o', file]);
    expect(r).toMatchObject({ code: 0, err: [] });
    expect(r.out).toEqual([`wrote ${file}: open file://${file} in a browser`]);
    const html = readFileSync(file, 'utf8');
    expect(html).toContain('<h1>platform-sim timeline</h1>');
    expect(html).toContain('class="row">default/builder</text>');
    expect(html).toContain('<td>system:admin (user)</td>');
    // Without -o, the page on standard output.
    const stdout = await run(['report', `--server=${server.url}`, `--token=${server.adminToken}`]);
    expect(stdout.code).toBe(0);
    expect(`${stdout.out.join('\n')}\n`).toBe(html);
  });

  it('keeps /sim/v1 admin-only: a non-admin token gets the 403 of RBAC (exit 1), no token is bad usage (exit 2)', async () => {
    const server = await started({ tls: false });
    const denied = await run(['report', '--server', server.url, '--token', 'alice-token', '-o', join(dir, 'denied.html')]);
    expect(denied).toEqual({ code: 1, out: [], err: ['platform-sim report: GET /sim/v1/report: 403: forbidden: User "alice" cannot get path "/sim/v1/report"'] });
    const unknown = await run(['report', '--server', server.url, '--token', 'nobody']);
    expect([unknown.code, unknown.err[0]]).toEqual([1, 'platform-sim report: GET /sim/v1/report: 401: Unauthorized']);
    expect(await run(['report', '--server', server.url])).toEqual({ code: 2, out: [], err: ['platform-sim report: no token: give --token T (the admin token serve prints) or --kubeconfig PATH (see platform-sim report --help)'] });
    expect((await run(['report', '--serve', server.url])).err).toEqual(['platform-sim report: unknown flag --serve (see platform-sim report --help)']);
  });

  it('reads server, CA and token from the kubeconfig serve --kubeconfig writes (HTTPS verified against the simulation CA)', async () => {
    const kubeconfig = join(dir, 'kubeconfig');
    const server = await started({ kubeconfig });
    expect(server.url.startsWith('https://')).toBe(true);
    const file = join(dir, 'tls.html');
    expect((await run(['report', '--kubeconfig', kubeconfig, '-o', file])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('class="row">default/builder</text>');
    // HTTPS without the CA fails verification, and says what to give.
    const unverified = await run(['report', '--server', server.url, '--token', server.adminToken]);
    expect(unverified.code).toBe(1);
    expect(unverified.err[0]).toMatch(/certificate.*\(give --certificate-authority, or --kubeconfig as serve --kubeconfig writes it\)$/);
    const ca = join(dir, 'ca.pem');
    writeFileSync(ca, server.caPem!);
    expect((await run(['report', '--server', server.url, '--token', server.adminToken, '--certificate-authority', ca, '-o', file])).code).toBe(0);
  });

  it('is listed in the help, with its own', async () => {
    expect((await run(['--help'])).out.join('\n')).toContain('report     save a running server');
    const help = await run(['report', '--help']);
    expect([help.code, help.out[0]]).toEqual([0, expect.stringMatching(/^usage: platform-sim report /)]);
  });
});
