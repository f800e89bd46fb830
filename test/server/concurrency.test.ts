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
import { Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/server.ts';
import { call, eachCountOnce, expectedEvents, lostUpdates, seenEvents, until, watch, writer, type Ack, type Answer, type Endpoint } from './readModifyWrite.ts';

const writers = 50;
const watchers = 4;
const counters = 4;
/** Acknowledged increments each writer aims at; the deadline stops the retrying sooner on a slow machine. */
const incrementsPerWriter = 6;
const writeDeadlineMs = 8_000;
const ns = 'concurrency';
const collection = `/api/v1/namespaces/${ns}/configmaps`;

let server: RunningServer;
let to: Endpoint;
const agent = new Agent({ keepAlive: true, maxSockets: writers + watchers + 4 });

beforeAll(async () => {
  server = await serve({ port: 0, clock: 'manual', seed: 17, tls: false });
  to = { url: server.url, token: server.adminToken, agent };
});
afterAll(async () => {
  agent.destroy();
  await server.close();
});

describe('50 read-modify-write clients and 4 watchers over HTTP', () => {
  it('loses no update, answers every conflict with a real Conflict, and shows every write to every watcher once, in order', async () => {
    expect((await call(to, 'POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
    const names = Array.from({ length: counters }, (_, i) => `counter-${i}`);
    for (const name of names) expect((await call(to, 'POST', collection, { metadata: { name }, data: { count: '0' } })).status).toBe(201);
    const listed = await call(to, 'GET', collection);
    const streams = Array.from({ length: watchers }, () => watch(to, collection, listed.body.metadata.resourceVersion as string));

    const acks: Ack[] = [];
    const conflicts = { n: 0, wrong: [] as Answer[] };
    const started = Date.now();
    await Promise.all(Array.from({ length: writers }, (_, i) => writer(to, collection, names[i % counters]!, incrementsPerWriter, acks, conflicts, started + writeDeadlineMs)));
    const seconds = (Date.now() - started) / 1000;

    expect(conflicts.wrong).toEqual([]);
    expect(acks.length).toBeGreaterThan(counters);
    const finals = new Map<string, number>();
    for (const name of names) {
      // 1, 2, 3, …: each acknowledged write built on the one before it.
      expect(eachCountOnce(acks, name)).toBe(true);
      finals.set(name, Number((await call(to, 'GET', `${collection}/${name}`)).body.data.count));
    }
    expect(lostUpdates(acks, finals)).toBe(0);

    const lastRv = Math.max(...acks.map((a) => Number(a.rv)));
    const seenAll = () => streams.every((w) => w.events.some((e) => Number(e.object.metadata.resourceVersion) >= lastRv));
    await until(seenAll, 5_000);
    const expected = expectedEvents(acks);
    for (const w of streams) {
      w.close();
      const seen = seenEvents(w);
      expect(seen.others).toEqual([]);
      expect(seen.ordered).toBe(true);
      // Each write once, with the value written.
      expect(seen.modified).toEqual(expected);
    }

    console.log(
      `concurrency: ${writers} writers on ${counters} ConfigMaps, ${watchers} watchers: ${acks.length} writes in ${seconds.toFixed(2)} s ` +
        `(${(acks.length / seconds).toFixed(0)} writes/s), ${conflicts.n} conflicts (${(conflicts.n / (acks.length + conflicts.n) * 100).toFixed(0)}% of PUTs), ` +
        `${watchers} × ${acks.length} events delivered`,
    );
  }, 30_000);
});
