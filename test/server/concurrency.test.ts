/**
 * Concurrency over HTTP, with node's own HTTP client against `serve` in process: 50 clients
 * increment counters in the same few ConfigMaps by read-modify-write (GET, change, PUT with the
 * resourceVersion read; on 409 read again), while 4 watchers follow the collection.
 *
 * What must hold: every 409 is a real Conflict Status; no acknowledged update is lost (each
 * counter ends at the number of PUTs answered 200 for it, and the 200s of one counter carry
 * 1, 2, 3, … exactly once); every watcher sees every write exactly once, in resourceVersion
 * order. The figures (writes/s, conflicts) are printed.
 */
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/server.ts';

const writers = 50;
const watchers = 4;
const counters = 4;
/** Acknowledged increments each writer aims at; the deadline stops the retrying sooner on a slow machine. */
const incrementsPerWriter = 6;
const writeDeadlineMs = 8_000;
const ns = 'concurrency';
const collection = `/api/v1/namespaces/${ns}/configmaps`;

let server: RunningServer;
const agent = new Agent({ keepAlive: true, maxSockets: writers + watchers + 4 });

beforeAll(async () => {
  server = await serve({ port: 0, clock: 'manual', seed: 17, tls: false });
});
afterAll(async () => {
  agent.destroy();
  await server.close();
});

interface Answer {
  readonly status: number;
  readonly body: any;
}

function call(method: string, path: string, body?: unknown): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.url}${path}`,
      {
        method,
        agent,
        headers: { authorization: `Bearer ${server.adminToken}`, accept: 'application/json', ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

interface WatchEvent {
  readonly type: string;
  readonly object: { metadata: { name: string; resourceVersion: string }; data?: { count?: string } };
}

/** A watch of the collection from `rv`: its events as they arrive (one JSON object per line). */
function watch(rv: string): { events: WatchEvent[]; close: () => void } {
  const events: WatchEvent[] = [];
  let pending = '';
  const req = request(`${server.url}${collection}?watch=true&resourceVersion=${rv}`, { agent, headers: { authorization: `Bearer ${server.adminToken}` } }, (res) => {
    res.setEncoding('utf8');
    res.on('data', (text: string) => {
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) if (line !== '') events.push(JSON.parse(line) as WatchEvent);
    });
  });
  req.on('error', () => undefined);
  req.end();
  return { events, close: () => req.destroy() };
}

const conflictStatus = (name: string) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: `Operation cannot be fulfilled on configmaps "${name}": the object has been modified; please apply your changes to the latest version and try again`,
  reason: 'Conflict',
  details: { name, kind: 'configmaps' },
  code: 409,
});

interface Ack {
  readonly name: string;
  readonly count: number;
  readonly rv: string;
}

/** One client: read, add one, write back with the version read; again on a conflict. */
async function writer(name: string, deadline: number, acks: Ack[], conflicts: { n: number; wrong: Answer[] }): Promise<void> {
  let done = 0;
  while (done < incrementsPerWriter && Date.now() < deadline) {
    const read = await call('GET', `${collection}/${name}`);
    expect(read.status).toBe(200);
    const count = Number(read.body.data.count) + 1;
    const put = await call('PUT', `${collection}/${name}`, { ...read.body, data: { count: String(count) } });
    if (put.status === 200) {
      acks.push({ name, count, rv: put.body.metadata.resourceVersion as string });
      done++;
    } else if (put.status === 409) {
      conflicts.n++;
      if (JSON.stringify(put.body) !== JSON.stringify(conflictStatus(name))) conflicts.wrong.push(put);
    } else throw new Error(`PUT ${name}: ${put.status} ${JSON.stringify(put.body)}`);
  }
}

async function until(ok: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
}

describe('50 read-modify-write clients and 4 watchers over HTTP', () => {
  it('loses no update, answers every conflict with a real Conflict, and shows every write to every watcher once, in order', async () => {
    expect((await call('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
    const names = Array.from({ length: counters }, (_, i) => `counter-${i}`);
    for (const name of names) expect((await call('POST', collection, { metadata: { name }, data: { count: '0' } })).status).toBe(201);
    const listed = await call('GET', collection);
    const streams = Array.from({ length: watchers }, () => watch(listed.body.metadata.resourceVersion as string));

    const acks: Ack[] = [];
    const conflicts = { n: 0, wrong: [] as Answer[] };
    const started = Date.now();
    await Promise.all(Array.from({ length: writers }, (_, i) => writer(names[i % counters]!, started + writeDeadlineMs, acks, conflicts)));
    const seconds = (Date.now() - started) / 1000;

    expect(conflicts.wrong).toEqual([]);
    expect(acks.length).toBeGreaterThan(counters);
    for (const name of names) {
      const mine = acks.filter((a) => a.name === name);
      // 1, 2, 3, …: each acknowledged write built on the one before it.
      expect(mine.map((a) => a.count).sort((x, y) => x - y)).toEqual(mine.map((_, i) => i + 1));
      const final = await call('GET', `${collection}/${name}`);
      expect(Number(final.body.data.count)).toBe(mine.length);
    }

    const lastRv = Math.max(...acks.map((a) => Number(a.rv)));
    const seenAll = () => streams.every((w) => w.events.some((e) => Number(e.object.metadata.resourceVersion) >= lastRv));
    await until(seenAll, 5_000);
    const expected = [...acks].sort((a, b) => Number(a.rv) - Number(b.rv)).map((a) => `${a.name}@${a.rv}=${a.count}`);
    for (const w of streams) {
      w.close();
      const modified = w.events.filter((e) => e.type === 'MODIFIED');
      expect(w.events.filter((e) => e.type !== 'MODIFIED' && e.type !== 'BOOKMARK')).toEqual([]);
      const rvs = modified.map((e) => Number(e.object.metadata.resourceVersion));
      expect(rvs.every((rv, i) => i === 0 || rv > rvs[i - 1]!)).toBe(true);
      expect(modified.map((e) => `${e.object.metadata.name}@${e.object.metadata.resourceVersion}=${e.object.data?.count}`)).toEqual(expected);
    }

    console.log(
      `concurrency: ${writers} writers on ${counters} ConfigMaps, ${watchers} watchers: ${acks.length} writes in ${seconds.toFixed(2)} s ` +
        `(${(acks.length / seconds).toFixed(0)} writes/s), ${conflicts.n} conflicts (${(conflicts.n / (acks.length + conflicts.n) * 100).toFixed(0)}% of PUTs), ` +
        `${watchers} × ${acks.length} events delivered`,
    );
  }, 30_000);
});
