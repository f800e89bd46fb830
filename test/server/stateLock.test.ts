/**
 * One server per `--state-file`: a second `serve` on the same file exits with code 2 and one line
 * naming the file and the pid holding it, while the first goes on serving; a lock left by a server
 * killed with SIGKILL is taken over, by exactly one of several servers started at once; a clean
 * stop removes it. In process, `serve()` rejects with PSIM_STATE_FILE_LOCKED, and stale locks (a
 * dead pid, this process's own pid from an earlier life, no pid at all) are taken over; a start
 * that fails leaves no lock.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleCli, startServerChild, type ServerChild } from './cliBundle.ts';
import { serve } from '../../src/server.ts';
import { lockPath } from '../../src/edges/fs/stateLock.ts';

const fresh = (name: string): string => join(mkdtempSync(join(tmpdir(), 'psim-lock-')), name);
const configMaps = '/api/v1/namespaces/default/configmaps';
const token = 'lock-admin';

/** The CLI as built (cliBundle.ts). */
let bundle = '';
beforeAll(async () => {
  bundle = await bundleCli(fresh('platform-sim.mjs'));
});

const children = new Set<ChildProcess>();
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

const start = (stateFile: string): Promise<ServerChild> => startServerChild(bundle, stateFile, token, children);

const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
const create = async (url: string, name: string): Promise<number> => (await fetch(`${url}${configMaps}`, { method: 'POST', headers, body: JSON.stringify({ metadata: { name } }) })).status;
const read = async (url: string, name: string): Promise<number> => (await fetch(`${url}${configMaps}/${name}`, { headers })).status;

describe('serve on a state file another server holds', () => {
  it('exits with code 2 naming the file and the pid; the first serves on; after a SIGKILL the lock is taken over', async () => {
    const stateFile = fresh('state.json');
    const first = await start(stateFile);
    expect(first.url).not.toBeNull();
    expect(readFileSync(lockPath(stateFile), 'utf8')).toBe(`${first.process.pid}\n`);
    expect((statSync(lockPath(stateFile)).mode & 0o777).toString(8)).toBe('600');

    const second = await start(stateFile);
    expect(second.url).toBeNull();
    expect(await second.exited).toBe(2);
    const lines = second.stderr().trimEnd().split('\n');
    expect(lines).toEqual([
      `platform-sim: --state-file ${stateFile}: in use by the server running as process ${first.process.pid} (lock ${lockPath(stateFile)}); two servers would overwrite each other's journal: stop that one first (if process ${first.process.pid} is no platform-sim server, remove the lock)`,
    ]);
    expect(await create(first.url!, 'after-refusal')).toBe(201);
    expect(readFileSync(lockPath(stateFile), 'utf8')).toBe(`${first.process.pid}\n`);

    first.process.kill('SIGKILL');
    await first.exited;
    expect(existsSync(lockPath(stateFile))).toBe(true); // stale: its process is gone
    const third = await start(stateFile);
    expect(third.url).not.toBeNull();
    expect(readFileSync(lockPath(stateFile), 'utf8')).toBe(`${third.process.pid}\n`);
    expect(await read(third.url!, 'after-refusal')).toBe(200);
    third.process.kill('SIGTERM');
    expect(await third.exited).toBe(0);
    expect(existsSync(lockPath(stateFile))).toBe(false);
  });
});

describe('servers started at once on a stale lock', () => {
  it('leave exactly one running', async () => {
    const stateFile = fresh('state.json');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    writeFileSync(lockPath(stateFile), `${dead}\n`);
    const all = await Promise.all([0, 1, 2, 3].map(() => start(stateFile)));
    const running = all.filter((c) => c.url !== null);
    expect(running).toHaveLength(1);
    for (const c of all.filter((c) => c.url === null)) {
      expect(await c.exited).toBe(2);
      expect(c.stderr()).toContain(`in use by the server running as process ${running[0]!.process.pid}`);
    }
    expect(readFileSync(lockPath(stateFile), 'utf8')).toBe(`${running[0]!.process.pid}\n`);
    running[0]!.process.kill('SIGTERM');
    expect(await running[0]!.exited).toBe(0);
    expect(existsSync(lockPath(stateFile))).toBe(false);
  });
});

describe('the lock in process', () => {
  it('refuses a second serve() on the same file (by any name) with PSIM_STATE_FILE_LOCKED, and is removed by close()', async () => {
    const stateFile = fresh('state.json');
    const first = await serve({ port: 0, clock: 'manual', tls: false, stateFile });
    try {
      await expect(serve({ port: 0, clock: 'manual', tls: false, stateFile })).rejects.toMatchObject({ name: 'PlatformSimError', code: 'PSIM_STATE_FILE_LOCKED', message: expect.stringContaining(`in use by the server running as process ${process.pid}`) });
      // The same file by another name: the lock is known by its file, not its path.
      const otherName = `${dirname(stateFile)}/./${basename(stateFile)}`;
      await expect(serve({ port: 0, clock: 'manual', tls: false, stateFile: otherName })).rejects.toMatchObject({ code: 'PSIM_STATE_FILE_LOCKED' });
      const res = await fetch(`${first.url}${configMaps}`, { method: 'POST', headers: { ...headers, authorization: `Bearer ${first.adminToken}` }, body: JSON.stringify({ metadata: { name: 'kept' } }) });
      expect(res.status).toBe(201);
    } finally {
      await first.close();
    }
    expect(existsSync(lockPath(stateFile))).toBe(false);
    const again = await serve({ port: 0, clock: 'manual', tls: false, stateFile });
    expect((await again.sim.get(`${configMaps}/kept`)).status).toBe(200);
    await again.close();
  });

  it('takes over a stale lock: a dead pid, its own pid from an earlier process, no pid', async () => {
    const exitedPid = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    for (const text of [`${exitedPid}\n`, `${process.pid}\n`, '', 'not a pid\n']) {
      const stateFile = fresh('state.json');
      writeFileSync(lockPath(stateFile), text);
      const server = await serve({ port: 0, clock: 'manual', tls: false, stateFile });
      try {
        expect({ text, lock: readFileSync(lockPath(stateFile), 'utf8') }).toEqual({ text, lock: `${process.pid}\n` });
      } finally {
        await server.close();
      }
      expect(existsSync(lockPath(stateFile))).toBe(false);
    }
  });

  it('leaves no lock behind when the start fails', async () => {
    const stateFile = fresh('state.json');
    writeFileSync(stateFile, 'not a state file\n');
    await expect(serve({ port: 0, clock: 'manual', tls: false, stateFile })).rejects.toMatchObject({ code: 'PSIM_SNAPSHOT_INVALID' });
    expect(existsSync(lockPath(stateFile))).toBe(false);
  });
});
