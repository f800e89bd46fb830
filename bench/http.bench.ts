/**
 * Issue 3 target: GET of one ServiceAccount over HTTP keep-alive with 50 connections, at least
 * 40% of the requests per second of a bare node:http server answering the same JSON bytes, both
 * measured in this run with the same load generator (50 keep-alive loops in this process),
 * alternating five 1 s rounds per side and taking medians.
 */
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { serve } from '../src/server.ts';
import { fmt } from './measure.ts';
import type { Row } from './store.bench.ts';

async function load(url: string, headers: Record<string, string>, seconds: number, connections: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  let done = 0;
  const end = performance.now() + seconds * 1000;
  const one = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const req = request(url, { agent, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve());
      });
      req.on('error', reject);
      req.end();
    });
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        await one();
        done++;
      }
    }),
  );
  agent.destroy();
  return done / seconds;
}

export async function httpBench(progress: (msg: string) => void): Promise<Row[]> {
  const sim = await serve({ port: 0, clock: 'manual', tls: false });
  const headers = { authorization: `Bearer ${sim.adminToken}` };
  const path = '/api/v1/namespaces/default/serviceaccounts/default';
  const bytes = sim.sim.requestRaw({ method: 'GET', path }).body;
  const bare = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(bytes);
  });
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}${path}`;
  // Alternate the two servers and take medians, so that a passing load on the shared machine
  // does not fall on one side only.
  progress('HTTP: bare node:http server and platform-sim, alternating');
  await load(bareUrl, headers, 0.5, 50);
  await load(`${sim.url}${path}`, headers, 0.5, 50);
  const bareRates: number[] = [];
  const simRates: number[] = [];
  for (let round = 0; round < 5; round++) {
    bareRates.push(await load(bareUrl, headers, 1, 50));
    simRates.push(await load(`${sim.url}${path}`, headers, 1, 50));
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const bareRate = median(bareRates);
  const simRate = median(simRates);
  bare.close();
  await sim.close();
  const share = simRate / bareRate;
  return [
    { what: 'GET one ServiceAccount over HTTP keep-alive, 50 connections (req/s)', value: fmt(simRate), baseline: `${fmt(bareRate)} (bare node:http, same bytes)`, target: '≥ 40% of baseline', ok: share >= 0.4 },
    { what: 'share of the bare server', value: `${(share * 100).toFixed(0)}%`, baseline: '100%', target: '≥ 40%', ok: share >= 0.4 },
  ];
}
