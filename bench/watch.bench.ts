/**
 * Issue 3 target: a watch with 100 clients receives 10,000 events with none lost or reordered;
 * events per second are reported beside the rate at which the same process parses JSON lines
 * from a bare stream (the physical limit of the client side here).
 */
import { request, Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import { serve } from './package.ts';
import { fmt } from './measure.ts';
import type { Row } from './store.bench.ts';

const clients = 100;
const events = 10_000;

function watchClient(url: string, token: string, agent: Agent): Promise<{ count: number; ordered: boolean }> {
  return new Promise((resolve, reject) => {
    let count = 0;
    let last = 0;
    let ordered = true;
    let buffer = '';
    const req = request(url, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let nl = buffer.indexOf('\n');
        while (nl >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          const rv = Number((JSON.parse(line) as { object: { metadata: { resourceVersion: string } } }).object.metadata.resourceVersion);
          if (rv <= last) ordered = false;
          last = rv;
          count++;
          if (count === events) {
            req.destroy();
            resolve({ count, ordered });
          }
          nl = buffer.indexOf('\n');
        }
      });
    });
    req.on('error', (e) => (count === events ? undefined : reject(e)));
    req.end();
  });
}

export async function watchBench(progress: (msg: string) => void): Promise<Row[]> {
  const server = await serve({ port: 0, clock: 'manual', tls: false, settle: 'manual' });
  const rv = server.sim.world.revision;
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const url = `${server.url}/api/v1/namespaces/default/serviceaccounts?watch=true&resourceVersion=${rv}`;
  const done = Array.from({ length: clients }, () => watchClient(url, server.adminToken, agent));
  await new Promise((r) => setTimeout(r, 300));
  progress(`watch: ${clients} clients, ${events.toLocaleString('en-US')} events`);
  const start = performance.now();
  for (let i = 0; i < events; i++) server.sim.requestSync({ method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts', body: { metadata: { name: `w-${i}` } } });
  const results = await Promise.all(done);
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  await server.close();
  const all = results.every((r) => r.count === events && r.ordered);
  const delivered = clients * events;
  const line = JSON.stringify({ type: 'ADDED', object: { metadata: { name: 'w-1', resourceVersion: '1' } } });
  const parseStart = performance.now();
  for (let i = 0; i < delivered; i++) JSON.parse(line);
  const parseRate = delivered / ((performance.now() - parseStart) / 1000);
  return [
    { what: `watch: ${clients} clients × ${events.toLocaleString('en-US')} events, none lost or reordered`, value: all ? 'yes' : '**no**', baseline: '', target: 'all delivered in order', ok: all },
    { what: 'watch events delivered per second (all clients)', value: fmt(delivered / seconds), baseline: `${fmt(parseRate)} (JSON.parse of an event line)`, target: '', ok: null },
  ];
}
