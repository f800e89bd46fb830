/**
 * --state-file durability (issue 16): every acknowledged change is journaled and fsynced before
 * its answer, reads and idle ticks write nothing, the snapshot with the journal replayed is the
 * world exactly, a torn last line is dropped, a file that is not a state file stops the start and
 * is left as it is, and a server killed with SIGKILL under load loses no acknowledged write.
 */
import type { ChildProcess } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleCli, startServerChild } from './cliBundle.ts';
import { serve, type RunningServer } from '../../src/server.ts';
import { cli } from '../../src/cli/cli.ts';
import { createSimulation, restoreSimulation } from '../../src/edges/simulation/create.ts';
import { journalPath, loadState } from '../../src/edges/fs/durableState.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fresh = (name: string): string => join(mkdtempSync(join(tmpdir(), 'psim-durable-')), name);
const mode = (path: string): string => (statSync(path).mode & 0o777).toString(8);

function client(server: RunningServer) {
  const headers = { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' };
  return {
    post: (path: string, body: unknown) => fetch(`${server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }),
    get: (path: string) => fetch(`${server.url}${path}`, { headers }),
    patch: (path: string, body: unknown) => fetch(`${server.url}${path}`, { method: 'PATCH', headers: { ...headers, 'content-type': 'application/merge-patch+json' }, body: JSON.stringify(body) }),
    delete: (path: string) => fetch(`${server.url}${path}`, { method: 'DELETE', headers }),
  };
}

const configMaps = '/api/v1/namespaces/default/configmaps';

/** The world a restart would resume, read from the files (the server keeps running). */
async function resumedHash(stateFile: string): Promise<{ hash: string; json: string }> {
  const loaded = loadState(stateFile)!;
  const json = JSON.stringify(loaded.world);
  const sim = await restoreSimulation({ format: 'platform-sim/snapshot@1', options: {}, world: loaded.world });
  return { hash: sim.hash(), json };
}

describe('the journal', () => {
  it('is written before a change is answered, and not for reads or idle ticks; files are 0600', async () => {
    const stateFile = fresh('state.json');
    const server = await serve({ port: 0, tls: false, stateFile }); // wall clock: ticks every 100 ms
    try {
      const c = client(server);
      expect([mode(stateFile), mode(journalPath(stateFile))]).toEqual(['600', '600']);
      expect(statSync(journalPath(stateFile)).size).toBe(0);
      expect((await c.post(configMaps, { metadata: { name: 'one' } })).status).toBe(201);
      const lines = readFileSync(journalPath(stateFile), 'utf8').split('\n');
      expect(lines).toHaveLength(2);
      expect(JSON.parse(lines[0]!)).toMatchObject({ seq: 1 });
      const size = statSync(journalPath(stateFile)).size;
      const snapshot = statSync(stateFile).mtimeMs;
      for (let i = 0; i < 10; i++) {
        expect((await c.get(`${configMaps}/one`)).status).toBe(200);
        await sleep(40); // ticks in between: time moves, and is not worth a line
      }
      await sleep(250);
      expect(statSync(journalPath(stateFile)).size).toBe(size);
      expect(statSync(stateFile).mtimeMs).toBe(snapshot);
      // The next change carries the time the ticks moved to.
      expect((await c.post(configMaps, { metadata: { name: 'two' } })).status).toBe(201);
      const last = JSON.parse(readFileSync(journalPath(stateFile), 'utf8').trim().split('\n').at(-1)!) as { seq: number; changes: unknown[][] };
      expect(last.seq).toBe(2);
      expect(last.changes.some((c) => c[0] === 'set' && JSON.stringify(c[1]) === '["now"]')).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('replays with the snapshot to the very world (bytes and hash), compaction and a crash during it included', async () => {
    const stateFile = fresh('state.json');
    const server = await serve({ port: 0, tls: false, clock: 'manual', stateFile });
    try {
      const c = client(server);
      for (let i = 0; i < 40; i++) expect((await c.post(configMaps, { metadata: { name: `c${i}`, labels: { i: String(i) } }, data: { k: 'v', ['__proto__']: 'data, not a prototype' } })).status).toBe(201);
      expect(JSON.stringify(server.sim.world)).toContain('"__proto__":"data, not a prototype"');
      const set = { metadata: { name: 'web' }, spec: { replicas: 2, serviceName: 'web', selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } };
      expect((await c.post('/apis/apps/v1/namespaces/default/statefulsets', set)).status).toBe(201);
      for (let i = 0; i < 10; i++) expect((await c.delete(`${configMaps}/c${i}`)).status).toBe(200);
      expect((await c.patch(`${configMaps}/c20`, { data: { k: null, z: 'new' }, metadata: { labels: null } })).status).toBe(200);
      // Past two history compactions: the watch log drops its oldest chunks.
      expect((await c.post('/sim/v1/clock/advance', { duration: '11m' })).status).toBe(200);
      expect(await resumedHash(stateFile)).toEqual({ hash: server.sim.hash(), json: JSON.stringify(server.sim.world) });
      // PUT /sim/v1/snapshot: another world altogether.
      const other = await createSimulation({ seed: 2 });
      await other.request({ method: 'POST', path: configMaps, body: { metadata: { name: 'other' } } });
      expect((await fetch(`${server.url}/sim/v1/snapshot`, { method: 'PUT', headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify(other.snapshot()) })).status).toBe(200);
      expect(await resumedHash(stateFile)).toEqual({ hash: other.hash(), json: JSON.stringify(server.sim.world) });

      // Big writes grow the journal past the compaction threshold (8 MiB): a new snapshot, and
      // the journal starts again.
      const before = readFileSync(journalPath(stateFile));
      const seqBefore = (JSON.parse(before.toString().trim().split('\n').at(-1)!) as { seq: number }).seq;
      const big = 'x'.repeat(1_000_000);
      for (let i = 0; i < 5; i++) expect((await c.post(configMaps, { metadata: { name: `big${i}` }, data: { big } })).status).toBe(201);
      await sleep(50);
      expect(statSync(journalPath(stateFile)).size).toBeLessThan(3_000_000);
      expect(JSON.parse(readFileSync(stateFile, 'utf8')).journalSeq).toBeGreaterThan(seqBefore);
      expect((await resumedHash(stateFile)).hash).toBe(server.sim.hash());
      // A crash between writing that snapshot and emptying the journal: the entries it holds are skipped.
      writeFileSync(journalPath(stateFile), Buffer.concat([before, readFileSync(journalPath(stateFile))]));
      expect((await resumedHash(stateFile)).hash).toBe(server.sim.hash());
      expect((await c.post(configMaps, { metadata: { name: 'after' } })).status).toBe(201);
      expect((await resumedHash(stateFile)).hash).toBe(server.sim.hash());
    } finally {
      await server.close();
    }
  });

  it('drops a torn last line (a write killed half way) and goes on after it', async () => {
    const stateFile = fresh('state.json');
    const first = await serve({ port: 0, tls: false, clock: 'manual', stateFile });
    expect((await client(first).post(configMaps, { metadata: { name: 'kept' } })).status).toBe(201);
    const hash = first.sim.hash();
    // Simulate a crash: a second server reads the files while the first has written no snapshot since.
    const copy = fresh('copy.json');
    writeFileSync(copy, readFileSync(stateFile));
    writeFileSync(journalPath(copy), readFileSync(journalPath(stateFile)));
    await first.close();
    appendFileSync(journalPath(copy), '{"seq":2,"changes":[["set",["revis');
    const second = await serve({ port: 0, tls: false, clock: 'manual', stateFile: copy });
    try {
      expect(second.sim.hash()).toBe(hash);
      expect(readFileSync(journalPath(copy), 'utf8').endsWith('\n')).toBe(true);
      expect((await client(second).post(configMaps, { metadata: { name: 'next' } })).status).toBe(201);
      expect((await resumedHash(copy)).hash).toBe(second.sim.hash());
    } finally {
      await second.close();
    }
  });

  it('refuses a file that is not a state file, or a journal that does not follow, and leaves them as they are', async () => {
    const valid = fresh('valid.json');
    const s = await serve({ port: 0, tls: false, clock: 'manual', stateFile: valid });
    await client(s).post(configMaps, { metadata: { name: 'a' } });
    await client(s).post(configMaps, { metadata: { name: 'b' } });
    const [snapshot, journal] = [readFileSync(valid), readFileSync(journalPath(valid), 'utf8')];
    // Close without a final snapshot in the way: keep copies of the files as they were.
    await s.close();
    const lines = journal.split('\n');
    const behind = (state: Buffer): string => {
      const v = JSON.parse(state.toString());
      return JSON.stringify({ ...v, world: { ...v.world, revision: 1, compactedRevision: 0, revisionAtLastCompaction: 1 } });
    };
    const cases: { name: string; state: string | Buffer; journal?: string; message: RegExp }[] = [
      { name: 'not JSON', state: 'hello\n', message: /not JSON/ },
      { name: 'another format', state: JSON.stringify({ format: 'kubeconfig', world: {} }), message: /not a platform-sim state file/ },
      { name: 'a world that does not validate', state: JSON.stringify({ format: 'platform-sim/snapshot@1', options: {}, world: { format: 'platform-sim/world@9' } }), message: /world is not a valid platform-sim world: / },
      { name: 'a world whose revision is behind its log', state: behind(snapshot), message: /world is not a valid platform-sim world: world\.log: holds revision \d+, beyond the revision 1/ },
      { name: 'a corrupt journal line', state: snapshot, journal: `${lines[0]}\nnot json\n${lines[1]}\n`, message: /journal .*line 2/ },
      { name: 'a gap in the journal', state: snapshot, journal: `${lines[1]}\n`, message: /entry 2 follows entry 0/ },
      { name: 'a journal without its snapshot', state: '', journal: `${lines[0]}\n`, message: /exists without it/ },
    ];
    for (const k of cases) {
      const path = fresh('state.json');
      if (k.state !== '') writeFileSync(path, k.state);
      if (k.journal !== undefined) writeFileSync(journalPath(path), k.journal);
      if (k.state !== '') chmodSync(path, 0o644);
      const err: string[] = [];
      const r = await cli(['serve', '--port', '0', '--no-tls', '--clock', 'manual', '--state-file', path], { out: () => {}, err: (l) => err.push(l) });
      await r.server?.close();
      expect({ case: k.name, code: r.code }).toEqual({ case: k.name, code: 2 });
      expect(err).toHaveLength(1);
      expect(err[0]).toMatch(k.message);
      expect(err[0]).toMatch(/^platform-sim: --state-file .*left as (it is|they are)/);
      if (k.state !== '') expect([readFileSync(path, 'utf8'), mode(path)]).toEqual([k.state.toString(), '644']);
      else expect(existsSync(path)).toBe(false);
      if (k.journal !== undefined) expect(readFileSync(journalPath(path), 'utf8')).toBe(k.journal);
    }
  });

  it('costs a write what it changed, not the world: 2,000 objects (printed, not asserted)', async () => {
    const figures: string[] = [];
    for (const stateFile of [undefined, fresh('state.json')]) {
      const server = await serve({ port: 0, tls: false, clock: 'manual', ...(stateFile === undefined ? {} : { stateFile }) });
      try {
        for (let i = 0; i < 2000; i++) await server.sim.request({ method: 'POST', path: configMaps, body: { metadata: { name: `pre${i}` }, data: { k: 'v'.repeat(200) } } });
        const c = client(server);
        await c.post(configMaps, { metadata: { name: 'first' } }); // journals the in-process writes above
        const n = 100;
        let t = performance.now();
        for (let i = 0; i < n; i++) expect((await c.post(configMaps, { metadata: { name: `w${i}` }, data: { k: 'x' } })).status).toBe(201);
        const write = (performance.now() - t) / n;
        t = performance.now();
        for (let i = 0; i < n; i++) expect((await c.get(`${configMaps}/pre${i}`)).status).toBe(200);
        const read = (performance.now() - t) / n;
        const line = stateFile === undefined ? '' : `, journal line ${(readFileSync(journalPath(stateFile), 'utf8').trim().split('\n').at(-1)!.length / 1024).toFixed(1)} KiB`;
        figures.push(`${stateFile === undefined ? 'without --state-file' : 'with --state-file   '}: write ${write.toFixed(2)} ms, GET ${read.toFixed(2)} ms${line}`);
      } finally {
        await server.close();
      }
    }
    console.log(`at 2,000 objects, over HTTP:\n  ${figures.join('\n  ')}`);
  });
});

/** The CLI as built (cliBundle.ts). */
let bundle = '';
beforeAll(async () => {
  bundle = await bundleCli(fresh('platform-sim.mjs'));
});

interface Child {
  readonly process: ChildProcess;
  readonly url: string;
  readonly exited: Promise<number | null>;
}

const token = 'durability-admin';
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

async function start(stateFile: string): Promise<Child> {
  const c = await startServerChild(bundle, stateFile, token, children);
  if (c.url === null) throw new Error(`the server did not start: ${c.stderr()}`);
  return { process: c.process, url: c.url, exited: c.exited };
}

/** Names written and answered, names deleted and answered, and names whose request was cut by the kill. */
interface Ledger {
  readonly present: Set<string>;
  readonly absent: Set<string>;
  readonly uncertain: Set<string>;
  readonly problems: string[];
}

async function writer(url: string, prefix: string, ledger: Ledger): Promise<void> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const mine: string[] = [];
  for (let i = 0; ; i++) {
    const name = `${prefix}-${i}`;
    ledger.uncertain.add(name);
    let res: Response;
    try {
      res = await fetch(`${url}${configMaps}`, { method: 'POST', headers, body: JSON.stringify({ metadata: { name }, data: { i: String(i) } }) });
    } catch {
      return; // killed: this one is uncertain
    }
    if (res.status !== 201) return void ledger.problems.push(`POST ${name}: ${res.status}`);
    ledger.uncertain.delete(name);
    ledger.present.add(name);
    mine.push(name);
    if (i % 4 !== 3) continue;
    const gone = mine.shift()!;
    ledger.uncertain.add(gone);
    try {
      res = await fetch(`${url}${configMaps}/${gone}`, { method: 'DELETE', headers });
    } catch {
      return;
    }
    if (res.status !== 200) return void ledger.problems.push(`DELETE ${gone}: ${res.status}`);
    ledger.uncertain.delete(gone);
    ledger.present.delete(gone);
    ledger.absent.add(gone);
  }
}

/** Every answered write is there, every answered delete is not; what the kill cut is settled by what is there. */
async function verify(url: string, ledger: Ledger): Promise<void> {
  const list = (await (await fetch(`${url}${configMaps}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { items: { metadata: { name: string } }[] };
  const names = new Set(list.items.map((i) => i.metadata.name));
  const lost = [...ledger.present].filter((n) => !ledger.uncertain.has(n) && !names.has(n));
  const revived = [...ledger.absent].filter((n) => !ledger.uncertain.has(n) && names.has(n));
  expect({ lost, revived, problems: ledger.problems }).toEqual({ lost: [], revived: [], problems: [] });
  for (const n of ledger.uncertain) {
    if (names.has(n)) (ledger.present.add(n), ledger.absent.delete(n));
    else (ledger.present.delete(n), ledger.absent.add(n));
  }
  ledger.uncertain.clear();
}

describe('SIGKILL under load', () => {
  it('loses no acknowledged write and never leaves a corrupt file, twenty kills over', async () => {
    const stateFile = fresh('state.json');
    const ledger: Ledger = { present: new Set(), absent: new Set(), uncertain: new Set(), problems: [] };
    let random = 20261126;
    const next = (): number => (random = (random * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let torn = 0;
    for (let round = 0; round < 20; round++) {
      const server = await start(stateFile);
      await verify(server.url, ledger);
      const writers = [0, 1, 2].map((w) => writer(server.url, `r${round}-w${w}`, ledger));
      await sleep(30 + Math.floor(next() * 150));
      server.process.kill('SIGKILL');
      await server.exited;
      await Promise.all(writers);
      // The files read back (a torn last line allowed), whatever moment the kill came at.
      expect(() => loadState(stateFile)).not.toThrow();
      if (!readFileSync(journalPath(stateFile), 'utf8').endsWith('\n') && statSync(journalPath(stateFile)).size > 0) torn++;
    }
    const last = await start(stateFile);
    await verify(last.url, ledger);
    const hashOf = async (url: string): Promise<string> => ((await (await fetch(`${url}/sim/v1/hash`, { headers: { authorization: `Bearer ${token}` } })).json()) as { hash: string }).hash;
    const hash = await hashOf(last.url);
    last.process.kill('SIGTERM');
    expect(await last.exited).toBe(0);
    const again = await start(stateFile);
    expect(await hashOf(again.url)).toBe(hash);
    await verify(again.url, ledger);
    again.process.kill('SIGTERM');
    expect(await again.exited).toBe(0);
    expect([mode(stateFile), mode(journalPath(stateFile))]).toEqual(['600', '600']);
    console.log(`20 kills: ${ledger.present.size} objects acknowledged and present, ${ledger.absent.size} deleted, ${torn} torn journal tails`);
  });
});
