/**
 * simulationFetch: code written against WHATWG fetch talks to a simulation in process — the
 * server's status, headers and bytes, identities, streamed watches that end on abort, and the
 * same seed giving the same bytes.
 */
import { describe, expect, it } from 'vitest';
import { simulationFetch } from '../../src/testing/fetch.ts';
import { sim as newSim } from '../helpers.ts';
import { spyWatches } from './spyWatches.ts';

const json = { 'content-type': 'application/json' };
const cms = '/api/v1/namespaces/default/configmaps';


/** Reads newline-delimited JSON events off a watch body until `n` have come. */
async function readEvents(reader: ReadableStreamDefaultReader<Uint8Array>, n: number): Promise<{ type: string; object: any }[]> {
  const decoder = new TextDecoder();
  const events: { type: string; object: any }[] = [];
  let buffered = '';
  for (let i = 0; i < 100 && events.length < n; i++) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const l of lines) events.push(JSON.parse(l));
  }
  return events;
}

describe('simulationFetch', () => {
  it('creates, gets, lists and patches with any base URL, bodies and content types as sent', async () => {
    const s = await newSim();
    const fetch = simulationFetch(s);
    const created = await fetch(`https://example.test:6443${cms}`, { method: 'POST', headers: json, body: JSON.stringify({ metadata: { name: 'a' }, data: { k: 'v' } }) });
    expect([created.status, created.statusText, created.headers.get('content-type')]).toEqual([201, 'Created', 'application/json']);
    const body = await created.text();
    expect(created.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
    expect(JSON.parse(body).metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    // YAML bytes read by their content type, a relative path and a URL object.
    const yaml = new TextEncoder().encode('metadata:\n  name: b\ndata:\n  k: w\n');
    expect((await fetch(cms, { method: 'POST', headers: { 'content-type': 'application/yaml' }, body: yaml })).status).toBe(201);
    const got = await fetch(new URL(`${cms}/b`, 'http://anything.invalid'));
    expect((await got.json()).data).toEqual({ k: 'w' });
    const list = await (await fetch(`http://x${cms}?labelSelector=&limit=1`)).json();
    expect([list.kind, list.items.map((i: any) => i.metadata.name), typeof list.metadata.continue]).toEqual(['ConfigMapList', ['a'], 'string']);
    const patched = await fetch(new Request(`http://x${cms}/a`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: '{"data":{"k":"patched"}}' }));
    expect([patched.status, (await patched.json()).data.k]).toEqual([200, 'patched']);
    // The same bytes as sim.request answers (what the HTTP server sends).
    const direct = await s.respond({ method: 'GET', path: `${cms}/a` });
    expect(await (await fetch(`${cms}/a`)).text()).toBe(direct.body);
  });

  it('surfaces a Status error with its code, reason and message', async () => {
    const fetch = simulationFetch(await newSim());
    const missing = await fetch(`${cms}/nope`);
    expect([missing.status, missing.statusText, missing.ok]).toEqual([404, 'Not Found', false]);
    expect(await missing.json()).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404, message: 'configmaps "nope" not found' });
    const bad = await fetch(cms, { method: 'POST', headers: json, body: '{"metadata":{"name":"Bad_Name"}}' });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({ reason: 'Invalid', code: 422 });
    const huge = await fetch(cms, { method: 'POST', headers: json, body: new Uint8Array(4 * 1024 * 1024) });
    expect([huge.status, (await huge.json()).reason]).toEqual([413, 'RequestEntityTooLarge']);
    // A string body without a content type is text/plain, as fetch sends it: 415.
    expect((await fetch(cms, { method: 'POST', body: '{"metadata":{"name":"c"}}' })).status).toBe(415);
  });

  it('acts as the admin by default, as `as` without credentials, and as the bearer of an Authorization header', async () => {
    const s = await newSim({ users: [{ token: 'bob-token', user: 'bob', uid: 'b1', groups: [] }] });
    expect((await simulationFetch(s)('/api/v1/secrets')).status).toBe(200);
    const alice = simulationFetch(s, { as: { user: 'alice', groups: ['dev'] } });
    const denied = await alice('/api/v1/secrets');
    expect([denied.status, (await denied.json()).message]).toEqual([403, 'secrets is forbidden: User "alice" cannot list resource "secrets" in API group "" at the cluster scope']);
    const asBob = await alice('/api/v1/secrets', { headers: { authorization: 'Bearer bob-token' } });
    expect((await asBob.json()).message).toMatch(/^secrets is forbidden: User "bob" /);
    expect((await alice('/api/v1/secrets', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
  });

  it('streams ADDED, MODIFIED, DELETED in order for writes after the watch starts, and ends on abort', async () => {
    const s = await newSim();
    const opened = spyWatches(s);
    const fetch = simulationFetch(s);
    const rv = (await (await fetch(cms)).json()).metadata.resourceVersion;
    const abort = new AbortController();
    const res = await fetch(`${cms}?watch=1&resourceVersion=${rv}`, { signal: abort.signal });
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'application/json']);
    await fetch(cms, { method: 'POST', headers: json, body: '{"metadata":{"name":"w"}}' });
    await fetch(`${cms}/w`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: '{"data":{"a":"b"}}' });
    await fetch(`${cms}/w`, { method: 'DELETE' });
    const reader = res.body!.getReader();
    const events = await readEvents(reader, 3);
    expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED w', 'MODIFIED w', 'DELETED w']);
    expect(Number(events[2]!.object.metadata.resourceVersion)).toBeGreaterThan(Number(events[0]!.object.metadata.resourceVersion));
    expect(opened[0]!.closed).toBe(false);
    abort.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
    expect(opened[0]!.closed).toBe(true);
    // Aborted before it is sent: rejected as fetch does.
    await expect(fetch(cms, { signal: abort.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('ends a watch body when the watch ends, and when the body is cancelled', async () => {
    const s = await newSim();
    const opened = spyWatches(s);
    const fetch = simulationFetch(s);
    const ended = await fetch(`${cms}?watch=true`);
    const cancelled = await fetch(`${cms}?watch=true`);
    await cancelled.body!.cancel();
    expect(opened[1]!.closed).toBe(true);
    s.close();
    expect(await ended.body!.getReader().read()).toEqual({ done: true, value: undefined });
  });

  it('gives byte-identical answers, watch lines and worlds for the same seed', async () => {
    const run = async (): Promise<string[]> => {
      const s = await newSim({ seed: 9 });
      const fetch = simulationFetch(s);
      const watch = await fetch(`${cms}?watch=true`);
      const out: string[] = [];
      for (const name of ['x', 'y']) out.push(await (await fetch(cms, { method: 'POST', headers: json, body: JSON.stringify({ metadata: { generateName: `${name}-` } }) })).text());
      out.push(await (await fetch('/api/v1/namespaces/default/serviceaccounts/default')).text());
      await s.advance('1h');
      s.close(); // ends the watch: its body is then read to the end
      const lines = await readEvents(watch.body!.getReader(), 100);
      out.push(JSON.stringify(lines), s.hash());
      return out;
    };
    const [a, b] = [await run(), await run()];
    expect(a).toEqual(b);
    expect(a).toHaveLength(5);
    expect(JSON.parse(a[3]!).map((e: { type: string }) => e.type)).toEqual(['ADDED', 'ADDED']);
  });
});
