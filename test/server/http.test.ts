/**
 * The HTTP edge over loopback: bearer-token admin, 401 without credentials, the same Status
 * bodies as in process, a chunked watch of one JSON event per line, and the /sim/v1 control
 * endpoints.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/server.ts';

let server: RunningServer;
const auth = () => ({ authorization: `Bearer ${server.adminToken}` });

beforeAll(async () => {
  server = await serve({ port: 0, clock: 'manual', seed: 5, tls: false });
});
afterAll(async () => {
  await server.close();
});

describe('HTTP server', () => {
  it('serves the API to the admin token and refuses anonymous callers', async () => {
    const anon = await fetch(`${server.url}/api/v1/namespaces/default/serviceaccounts`);
    expect(anon.status).toBe(401);
    expect(await anon.json()).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
    const created = await fetch(`${server.url}/api/v1/namespaces/default/serviceaccounts`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ metadata: { name: 'web' } }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toBe('application/json');
    const text = await created.text();
    expect(text.endsWith('\n')).toBe(true);
    expect(JSON.parse(text).metadata.name).toBe('web');
    const missing = await fetch(`${server.url}/api/v1/namespaces/default/serviceaccounts/ghost`, { headers: auth() });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ message: 'serviceaccounts "ghost" not found' });
  });

  it("frames answers as Go's net/http does: Content-Length under 2048 bytes, chunked from there", async () => {
    const small = await fetch(`${server.url}/api/v1/namespaces/default/serviceaccounts/default`, { headers: auth() });
    const smallText = await small.text();
    expect(Buffer.byteLength(smallText)).toBeLessThan(2048);
    expect(small.headers.get('content-length')).toBe(String(Buffer.byteLength(smallText)));
    expect(small.headers.get('transfer-encoding')).toBeNull();
    // The same read again (an answer kept for the unchanged world) is framed the same.
    const again = await fetch(`${server.url}/api/v1/namespaces/default/serviceaccounts/default`, { headers: auth() });
    expect(again.headers.get('content-length')).toBe(small.headers.get('content-length'));
    expect(await again.text()).toBe(smallText);
    const large = await fetch(`${server.url}/api/v1/namespaces`, { headers: auth() });
    const largeText = await large.text();
    expect(Buffer.byteLength(largeText)).toBeGreaterThanOrEqual(2048);
    expect(large.headers.get('content-length')).toBeNull();
    expect(large.headers.get('transfer-encoding')).toBe('chunked');
  });

  it('takes every kind of fault rule through /sim/v1/faults: a watch ended with 410, a stale read, a refused controller name', async () => {
    const post = (rules: unknown) => fetch(`${server.url}/sim/v1/faults`, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json' }, body: JSON.stringify({ rules }) });
    const bad = await post([{ kind: 'controller', controller: 'nobody', action: 'pause' }]);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/^rules\[0\]\.controller: no controller "nobody" in this simulation/);
    const list = (await (await fetch(`${server.url}/api/v1/namespaces/default/configmaps`, { headers: auth() })).json()) as { metadata: { resourceVersion: string } };
    expect((await post([{ kind: 'watch', action: 'expire', resources: ['configmaps'], times: 1 }, { kind: 'staleRead', resources: ['configmaps'], names: ['stale'], revisions: 1, times: 1 }])).status).toBe(200);
    const res = await fetch(`${server.url}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${list.metadata.resourceVersion}`, { headers: auth() });
    const reader = res.body!.getReader();
    await fetch(`${server.url}/api/v1/namespaces/default/configmaps`, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json' }, body: JSON.stringify({ metadata: { name: 'stale' } }) });
    let text = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += new TextDecoder().decode(chunk.value);
    const events = text.trim().split('\n').map((l) => JSON.parse(l) as { type: string; object: { code?: number; reason?: string } });
    expect(events).toMatchObject([{ type: 'ERROR', object: { code: 410, reason: 'Expired' } }]);
    // One revision ago the ConfigMap did not exist yet; the next read is fresh.
    expect((await fetch(`${server.url}/api/v1/namespaces/default/configmaps/stale`, { headers: auth() })).status).toBe(404);
    expect((await fetch(`${server.url}/api/v1/namespaces/default/configmaps/stale`, { headers: auth() })).status).toBe(200);
    const faults = (await (await fetch(`${server.url}/sim/v1/faults`, { headers: auth() })).json()) as { faults: { fired: number }[] };
    expect(faults.faults.map((f) => f.fired)).toEqual([0, 1]);
    await fetch(`${server.url}/sim/v1/faults`, { method: 'DELETE', headers: auth() });
  });

  it('streams a watch as one JSON event per line', async () => {
    const hash = (await (await fetch(`${server.url}/sim/v1/hash`, { headers: auth() })).json()) as { hash: string };
    expect(hash.hash).toMatch(/^[0-9a-f]{64}$/);
    const list = (await (await fetch(`${server.url}/api/v1/namespaces/default/serviceaccounts`, { headers: auth() })).json()) as { metadata: { resourceVersion: string } };
    const res = await fetch(`${server.url}/api/v1/namespaces/default/serviceaccounts?watch=true&resourceVersion=${list.metadata.resourceVersion}&timeoutSeconds=10`, { headers: auth() });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    await fetch(`${server.url}/api/v1/namespaces/default/serviceaccounts`, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json' }, body: JSON.stringify({ metadata: { name: 'watched' } }) });
    let text = '';
    for (let i = 0; i < 10 && !text.includes('\n'); i++) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += new TextDecoder().decode(chunk.value);
    }
    const event = JSON.parse(text.split('\n')[0]!);
    expect(event.type).toBe('ADDED');
    expect(event.object.metadata.name).toBe('watched');
    const advanced = await fetch(`${server.url}/sim/v1/clock/advance`, { method: 'POST', headers: auth(), body: JSON.stringify({ duration: '10s' }) });
    expect(await advanced.json()).toEqual({ now: '2025-01-01T00:00:10Z' });
    let ended = false;
    for (let i = 0; i < 10; i++) {
      const chunk = await reader.read();
      if (chunk.done) {
        ended = true;
        break;
      }
    }
    expect(ended).toBe(true);
  });

  it('keeps the control endpoints for admins', async () => {
    const res = await fetch(`${server.url}/sim/v1/clock`);
    expect(res.status).toBe(401);
    const ok = await fetch(`${server.url}/sim/v1/clock`, { headers: auth() });
    expect((await ok.json()) as object).toHaveProperty('now');
  });
});
