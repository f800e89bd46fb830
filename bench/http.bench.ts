/**
 * GET of one ServiceAccount over HTTP keep-alive with 50 connections against a bare node:http
 * server answering the same headers and JSON bytes, both measured in this run, alternating rounds per side and
 * taking medians. Issue 13: with a separate load generator process (autocannon, installed by the
 * bench into node_modules/.cache the first time) at least 0.5 of the bare server. Issue 3: with 50
 * keep-alive loops in this process (sharing the machine's two cores with the servers) at least 40%.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { serve } from './package.ts';
import { fmt } from './measure.ts';
import type { Row } from './store.bench.ts';

/** `distinct`: each request carries its own `x-bench-request` header, so no answer is kept for another (readAnswers.ts). */
async function load(url: string, headers: Record<string, string>, seconds: number, connections: number, distinct = false): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  let done = 0;
  const end = performance.now() + seconds * 1000;
  const one = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const req = request(url, { agent, headers: distinct ? { ...headers, 'x-bench-request': String(done) } : headers }, (res) => {
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

const autocannonVersion = '8.0.0';
const tools = join(import.meta.dirname, '..', 'node_modules', '.cache', 'platform-sim-bench');

/** The load generator's entry point, installed (pinned) on first use. */
function autocannon(progress: (msg: string) => void): string {
  const bin = join(tools, 'node_modules', 'autocannon', 'autocannon.js');
  if (!existsSync(bin)) {
    progress(`HTTP: installing autocannon@${autocannonVersion} (load generator) into ${tools}`);
    execFileSync('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', tools, `autocannon@${autocannonVersion}`], { stdio: 'ignore' });
  }
  return bin;
}

/** Requests per second a separate autocannon process gets from `url` (this process keeps serving meanwhile). */
function externalAsync(bin: string, url: string, headers: Record<string, string>, seconds: number, connections: number): Promise<number> {
  const args = [bin, '--json', '-c', String(connections), '-d', String(seconds), ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]), url];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 }, (err, stdout) => {
      if (err !== null) return reject(err);
      const out = JSON.parse(stdout) as { requests: { total: number }; duration: number; non2xx: number; errors: number };
      if (out.non2xx > 0 || out.errors > 0) return reject(new Error(`HTTP bench: ${out.non2xx} non-2xx answers and ${out.errors} errors from ${url}`));
      resolve(out.requests.total / out.duration);
    });
  });
}

export async function httpBench(progress: (msg: string) => void): Promise<Row[]> {
  const generator = autocannon(progress);
  const sim = await serve({ port: 0, clock: 'manual', tls: false });
  const headers = { authorization: `Bearer ${sim.adminToken}` };
  const path = '/api/v1/namespaces/default/serviceaccounts/default';
  const answer = sim.sim.requestRaw({ method: 'GET', path });
  const bytes = answer.body;
  // The same status line, headers and body as platform-sim's answer (Content-Length included: a
  // small answer carries one, as Go's net/http sends it).
  const sameHeaders = { ...answer.headers, 'content-length': String(Buffer.byteLength(bytes)) };
  const bare = createServer((_req, res) => {
    res.writeHead(200, sameHeaders);
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
  progress('HTTP: every request different (no kept answer), alternating');
  const bareDistinct: number[] = [];
  const simDistinct: number[] = [];
  for (let round = 0; round < 3; round++) {
    bareDistinct.push(await load(bareUrl, headers, 1, 50, true));
    simDistinct.push(await load(`${sim.url}${path}`, headers, 1, 50, true));
  }
  progress('HTTP: the same with autocannon in its own process, alternating');
  // autocannon's event loop runs while this one serves: the servers must not be blocked by a
  // synchronous child, so it runs through a promise-returning exec.
  const bareExt: number[] = [];
  const simExt: number[] = [];
  for (let round = 0; round < 5; round++) {
    bareExt.push(await externalAsync(generator, bareUrl, headers, 2, 50));
    simExt.push(await externalAsync(generator, `${sim.url}${path}`, headers, 2, 50));
  }
  const bareExtRate = median(bareExt);
  const simExtRate = median(simExt);
  bare.close();
  await sim.close();
  const share = simRate / bareRate;
  const extShare = simExtRate / bareExtRate;
  return [
    { what: 'GET one ServiceAccount over HTTP keep-alive, 50 connections, autocannon in its own process (req/s)', value: `${fmt(simExtRate)} (${extShare.toFixed(2)} of bare)`, baseline: `${fmt(bareExtRate)} (bare node:http, same bytes)`, target: '≥ 0.5 of baseline', ok: extShare >= 0.5 },
    { what: 'GET one ServiceAccount over HTTP keep-alive, 50 connections (req/s)', value: fmt(simRate), baseline: `${fmt(bareRate)} (bare node:http, same bytes)`, target: '≥ 40% of baseline', ok: share >= 0.4 },
    { what: 'share of the bare server', value: `${(share * 100).toFixed(0)}%`, baseline: '100%', target: '≥ 40%', ok: share >= 0.4 },
    {
      what: 'the same, each request with its own header: every answer worked out, none kept (req/s)',
      value: `${fmt(median(simDistinct))} (${(median(simDistinct) / median(bareDistinct)).toFixed(2)} of bare)`,
      baseline: `${fmt(median(bareDistinct))} (bare node:http, same bytes)`,
      target: '',
      ok: null,
    },
  ];
}
