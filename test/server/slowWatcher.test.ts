/**
 * A watch client that never reads (issue 16): its events queue at the server until the bound
 * (limits.watchQueuedBytesMax), then the watch is cut off, as kube-apiserver drops a watcher whose
 * buffer is full. The queue never grows past the bound and the server keeps serving.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { serve } from '../../src/server.ts';
import { limits } from '../../src/core/limits.ts';

const tick = () => new Promise((r) => setImmediate(r));

describe('a watch client that never reads', () => {
  it('is cut off once its queue passes the bound; the server keeps serving', async () => {
    const server = await serve({ port: 0, clock: 'manual', tls: false });
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
    try {
      await new Promise<void>((r) => socket.once('connect', () => r()));
      socket.write(`GET /api/v1/namespaces/default/configmaps?watch=true HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${server.adminToken}\r\n\r\n`);
      socket.pause(); // never reads: the kernel's buffers fill, then the server's queue grows
      socket.on('error', () => {});
      for (let i = 0; i < 200 && server.watchBacklog().open === 0; i++) await tick();
      expect(server.watchBacklog().open).toBe(1);

      // 3,000 events of 10 KB: 30 MB, far past the kernel's socket buffers and the bound.
      const value = 'x'.repeat(10_000);
      let peak = 0;
      let created = 0;
      for (; created < 3000 && server.watchBacklog().cutOff === 0; created++) {
        const res = await server.sim.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: { metadata: { name: `cm-${created}` }, data: { value } } });
        expect(res.status).toBe(201);
        if (created % 10 === 0) await tick(); // lets the socket flush into the kernel
        peak = Math.max(peak, server.watchBacklog().queuedBytes);
      }
      const backlog = server.watchBacklog();
      console.log(`cut off after ${created} events of 10 KB; peak queue ${(peak / 2 ** 20).toFixed(1)} MiB (bound ${limits.watchQueuedBytesMax / 2 ** 20} MiB)`);
      expect(backlog).toEqual({ open: 0, queuedBytes: 0, cutOff: 1 });
      expect(peak).toBeLessThanOrEqual(limits.watchQueuedBytesMax + 64 * 1024);

      // Still serving: a read, and a new watch that hears the next write.
      const headers = { authorization: `Bearer ${server.adminToken}` };
      expect((await fetch(`${server.url}/api/v1/namespaces/default/configmaps?limit=1`, { headers })).status).toBe(200);
      const watch = await fetch(`${server.url}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0&fieldSelector=metadata.name%3Dlast`, { headers });
      const reader = watch.body!.getReader();
      await server.sim.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: { metadata: { name: 'last' } } });
      const first = new TextDecoder().decode((await reader.read()).value);
      expect(JSON.parse(first.split('\n')[0]!)).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'last' } } });
      await reader.cancel();
    } finally {
      socket.destroy();
      await server.close();
    }
  });
});
