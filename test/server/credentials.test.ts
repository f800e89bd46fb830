/**
 * Credentials that cannot be guessed (issue 16): without --seed and --deterministic-keys, serve
 * mixes a secret drawn at its first start into the admin token, the signing key and the CA, and
 * keeps it in the state file; seed-only keys stay available for replays (and are warned about
 * beyond loopback); the world itself does not depend on the secret. Credential files are 0600.
 */
import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../../src/cli/cli.ts';
import { serve, type RunningServer } from '../../src/server.ts';
import { createSimulation } from '../../src/index.ts';
import { journalPath } from '../../src/edges/fs/durableState.ts';

const fresh = (name: string): string => join(mkdtempSync(join(tmpdir(), 'psim-creds-')), name);
const mode = (path: string): string => (statSync(path).mode & 0o777).toString(8);

/** A token of the `default` ServiceAccount, signed by the server's key. */
async function serviceAccountToken(server: RunningServer): Promise<string> {
  const res = await server.sim.request({ method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts/default/token', body: { spec: { expirationSeconds: 3600 } } });
  expect(res.status).toBe(201);
  return res.body.status.token as string;
}

/** 401 when the server does not take the token; 403 when it does (the account may not list Secrets). */
async function statusWith(server: RunningServer, token: string): Promise<number> {
  return (await server.sim.request({ method: 'GET', path: '/api/v1/namespaces/default/secrets', headers: { authorization: `Bearer ${token}` }, transport: 'http' })).status;
}

async function pair(options: Parameters<typeof serve>[0]): Promise<[RunningServer, RunningServer]> {
  return [await serve({ port: 0, clock: 'manual', ...options }), await serve({ port: 0, clock: 'manual', ...options })];
}

describe('serve credentials', () => {
  it('differ between two servers started without --seed, while their worlds are the same', async () => {
    const [a, b] = await pair({});
    try {
      expect(a.adminToken).toMatch(/^psim-[0-9a-f]{40}$/);
      expect(a.adminToken).not.toBe(b.adminToken);
      expect(a.caPem).not.toBe(b.caPem);
      expect(a.sim.serviceAccountKeys[0]!.kid).not.toBe(b.sim.serviceAccountKeys[0]!.kid);
      // The secret goes into keys only: uids, names and the whole world are the seed's.
      const library = await createSimulation({});
      expect([a.sim.hash(), b.sim.hash()]).toEqual([library.hash(), library.hash()]);
      expect(await statusWith(b, await serviceAccountToken(a))).toBe(401);
      expect(await statusWith(a, await serviceAccountToken(a))).toBe(403);
      expect(a.warnings).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('follow from the seed alone with --deterministic-keys or an explicit --seed, as the library', async () => {
    const library = await createSimulation({ seed: 1 });
    for (const options of [{ deterministicKeys: true }, { seed: 1 }]) {
      const [a, b] = await pair(options);
      try {
        expect(a.adminToken).toBe(b.adminToken);
        expect(a.caPem).toBe(b.caPem);
        expect(a.caPem).toBe(await library.caCertificate());
        expect(await statusWith(b, await serviceAccountToken(a))).toBe(403);
      } finally {
        await a.close();
        await b.close();
      }
    }
  });

  it('stay the same across a restart from the state file, which keeps the secret; files are 0600', async () => {
    const stateFile = fresh('state.json');
    const kubeconfig = fresh('kubeconfig');
    writeFileSync(kubeconfig, 'old\n');
    chmodSync(kubeconfig, 0o644);
    const first = await serve({ port: 0, clock: 'manual', stateFile, kubeconfig });
    const token = await serviceAccountToken(first);
    const { adminToken, caPem } = first;
    expect([mode(stateFile), mode(journalPath(stateFile)), mode(kubeconfig)]).toEqual(['600', '600', '600']);
    expect(readFileSync(kubeconfig, 'utf8')).toContain(adminToken);
    await first.close();
    const secret = (JSON.parse(readFileSync(stateFile, 'utf8')) as { options: { keySecret?: string } }).options.keySecret;
    expect(secret).toMatch(/^[\w-]{43}$/);
    chmodSync(stateFile, 0o644);
    const second = await serve({ port: 0, clock: 'manual', stateFile });
    try {
      expect([second.adminToken, second.caPem]).toEqual([adminToken, caPem]);
      expect(await statusWith(second, token)).toBe(403);
      expect(mode(stateFile)).toBe('600');
    } finally {
      await second.close();
    }
    // A world made with seed-only keys keeps them when resumed without flags.
    const seeded = fresh('seeded.json');
    const s1 = await serve({ port: 0, clock: 'manual', stateFile: seeded, seed: 7 });
    const t1 = s1.adminToken;
    await s1.close();
    const s2 = await serve({ port: 0, clock: 'manual', stateFile: seeded });
    expect(s2.adminToken).toBe(t1);
    await s2.close();
  });

  it('print the token only on the start-up line, and warn on stderr when seed-only keys listen beyond loopback', async () => {
    const run = async (...flags: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const r = await cli(['serve', '--port', '0', '--no-tls', '--clock', 'manual', ...flags], { out: (l) => out.push(l), err: (l) => err.push(l) });
      await r.server?.close();
      return { code: r.code, out, err };
    };
    const beyond = await run('--host', '0.0.0.0', '--deterministic-keys');
    expect(beyond.code).toBe(0);
    expect(beyond.err).toHaveLength(1);
    expect(beyond.err[0]).toMatch(/^platform-sim: warning: listening on 0\.0\.0\.0 with keys derived from the seed alone .*admin certificate$/);
    expect((await run('--host', '0.0.0.0', '--seed', '3')).err).toHaveLength(1);
    expect((await run('--host', '0.0.0.0')).err).toEqual([]);
    expect((await run('--deterministic-keys')).err).toEqual([]);
    const plain = await run();
    expect(plain.out).toHaveLength(2);
    expect(plain.out[1]).toMatch(/^admin token: psim-[0-9a-f]{40}$/);
  });
});
