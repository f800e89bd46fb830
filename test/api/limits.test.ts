/**
 * Named limits (src/core/limits.ts), each checked before the work it bounds and answered with
 * the real wording where Kubernetes has one: request body size (413, while the body is read),
 * body nesting (400, while parsing), stored object size (etcd's `request is too large`), list
 * `limit` (not clamped; beyond int64 a 400), objects per kind (403, as an exceeded quota), open
 * watches per client and in total (429 with Retry-After), request header size (431).
 */
import { request as httpRequest, createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulation, type Simulation } from '../../src/index.ts';
import { serve, type RunningServer } from '../../src/server.ts';
import { limits } from '../../src/core/limits.ts';
import { answerClientError, httpServerOptions, withWatchLimits } from '../../src/edges/http/limits.ts';
import { emptyTrie, trieGet, trieKeys, trieSet, type Trie } from '../../src/store/trie.ts';
import type { KubeObject } from '../../src/api/meta.ts';

const cms = '/api/v1/namespaces/default/configmaps';
const sas = '/api/v1/namespaces/default/serviceaccounts';

describe('request body size (3 MiB, kube-apiserver)', () => {
  it('is a 413 with the real message in process', async () => {
    const s = await createSimulation();
    const body = JSON.stringify({ metadata: { name: 'big' }, data: { a: 'x'.repeat(limits.requestBodyBytesMax) } });
    const res = await s.request({ method: 'POST', path: cms, headers: { 'content-type': 'application/json' }, body });
    expect(res.body).toMatchObject({ code: 413, reason: 'RequestEntityTooLarge', message: 'Request entity too large: limit is 3145728' });
  });

  describe('over HTTP', () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await serve({ port: 0, clock: 'manual', tls: false });
    });
    afterAll(async () => {
      await server.close();
    });

    it('is answered while the body is still being sent', async () => {
      const url = new URL(server.url);
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest({ host: url.hostname, port: url.port, method: 'POST', path: cms, headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => {
            req.destroy();
            resolve({ status: res.statusCode ?? 0, body });
          });
        });
        req.on('error', reject);
        // More than the limit, and the request never ends: only a check while reading can answer.
        const chunk = Buffer.alloc(256 * 1024, 'x');
        for (let sent = 0; sent <= limits.requestBodyBytesMax; sent += chunk.length) req.write(chunk);
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({ reason: 'RequestEntityTooLarge', message: 'Request entity too large: limit is 3145728' });
      const after = await fetch(`${server.url}/version`, { headers: { authorization: `Bearer ${server.adminToken}` } });
      expect(after.status).toBe(200);
    });
  });
});

describe('body nesting (limits.jsonDepthMax), checked while parsing', () => {
  const nest = (k: number): string => '['.repeat(k) + ']'.repeat(k);
  it.each([
    ['application/json', (k: number, name: string) => `{"metadata":{"name":"${name}"},"extra":${nest(k)}}`],
    ['application/yaml', (k: number, name: string) => `metadata:\n  name: ${name}\nextra: ${nest(k)}\n`],
  ])('%s: 100 levels are read, 101 are a 400', async (type, body) => {
    const s = await createSimulation();
    const ok = await s.request({ method: 'POST', path: cms, headers: { 'content-type': type }, body: body(limits.jsonDepthMax, 'deep') });
    expect(ok.status).toBe(201);
    const deeper = await s.request({ method: 'POST', path: cms, headers: { 'content-type': type }, body: body(limits.jsonDepthMax + 1, 'deeper') });
    expect(deeper.body).toMatchObject({ code: 400, reason: 'BadRequest', message: expect.stringContaining('exceeded max depth of 100') });
    // Millions of levels are refused as fast: the parser stops at the limit, the stack never fills.
    const huge = await s.request({ method: 'POST', path: cms, headers: { 'content-type': type }, body: '['.repeat(3_000_000) });
    expect(huge.status).toBe(400);
  });
});

describe('stored object size (1.5 MiB, etcd --max-request-bytes)', () => {
  const labels = (n: number, from = 0) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`key-${String(from + i).padStart(6, '0')}`, 'v'.repeat(50)]));

  it('a write whose object would be larger is a 400 with etcd wording, and nothing is stored', async () => {
    const s = await createSimulation();
    expect((await s.request({ method: 'POST', path: sas, body: { metadata: { name: 'fits', labels: labels(10_000) } } })).status).toBe(201);
    const before = s.hash();
    const big = await s.request({ method: 'POST', path: sas, body: { metadata: { name: 'big', labels: labels(20_000) } } });
    expect(big.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'etcdserver: request is too large', reason: 'BadRequest', code: 400 });
    expect(s.hash()).toBe(before);
    expect((await s.request({ method: 'GET', path: `${sas}/big` })).status).toBe(404);
    // A dry run never reaches etcd.
    expect((await s.request({ method: 'POST', path: `${sas}?dryRun=All`, body: { metadata: { name: 'big', labels: labels(20_000) } } })).status).toBe(201);
  });

  it('a patch that grows an object past it is refused and leaves the object as it was', async () => {
    const s = await createSimulation();
    const made = await s.request({ method: 'POST', path: sas, body: { metadata: { name: 'grows', labels: labels(14_000) } } });
    const grown = await s.request({ method: 'PATCH', path: `${sas}/grows`, headers: { 'content-type': 'application/merge-patch+json' }, body: { metadata: { labels: labels(8_000, 14_000) } } });
    expect(grown.body).toMatchObject({ code: 400, message: 'etcdserver: request is too large' });
    expect((await s.request({ method: 'GET', path: `${sas}/grows` })).body.metadata.resourceVersion).toBe(made.body.metadata.resourceVersion);
  });
});

describe('list page size', () => {
  it('is not clamped (kube-apiserver serves any limit); beyond int64 it is a 400', async () => {
    const s = await createSimulation();
    for (let i = 0; i < 3; i++) await s.request({ method: 'POST', path: cms, body: { metadata: { name: `c${i}` } } });
    const all = await s.request({ method: 'GET', path: `${cms}?limit=9223372036854775807` });
    expect(all.body.items.map((o: KubeObject) => o.metadata.name)).toEqual(['c0', 'c1', 'c2']);
    expect(all.body.metadata.continue).toBeUndefined();
    const beyond = await s.request({ method: 'GET', path: `${cms}?limit=9223372036854775808` });
    expect(beyond.body).toMatchObject({ code: 400, reason: 'BadRequest', message: 'strconv.ParseInt: parsing "9223372036854775808": value out of range' });
    expect((await s.request({ method: 'GET', path: `${cms}?limit=%2B2` })).body.items).toHaveLength(2);
  });

  it('is read as apimachinery converts query parameters: the bare strconv error, an empty value included', async () => {
    const s = await createSimulation();
    for (const [query, value] of [['limit=x', 'x'], ['limit=', ''], ['limit=1.5', '1.5'], ['timeoutSeconds=soon', 'soon'], ['watch=1&timeoutSeconds=', '']]) {
      const r = await s.request({ method: 'GET', path: `${cms}?${query}` });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ kind: 'Status', code: 400, reason: 'BadRequest', message: `strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax` });
    }
  });
});

describe('objects per kind (a simulation-wide quota)', () => {
  let s: Simulation;
  beforeAll(async () => {
    s = await createSimulation();
    // A world already holding the limit's worth of ConfigMaps, as many creates would leave it.
    const w = s.world;
    let byName: Trie<KubeObject> = emptyTrie;
    for (let i = 0; i < limits.objectsPerKindMax; i++) {
      const name = `cm-${String(i).padStart(6, '0')}`;
      byName = trieSet(byName, name, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', uid: `uid-${i}`, resourceVersion: String(w.revision + 1), creationTimestamp: '2025-01-01T00:00:00Z' } });
    }
    s.replaceWorld({ ...w, revision: w.revision + 1 + limits.objectsPerKindMax, objects: { ...w.objects, 'core/configmaps': trieSet(emptyTrie as Trie<Trie<KubeObject>>, 'default', byName) } });
  }, 120_000);

  it('a create beyond it is a 403 as an exceeded quota, dry run included; room made is room taken', async () => {
    const message = `configmaps "one-more" is forbidden: exceeded quota: objects-per-kind, requested: count/configmaps=1, used: count/configmaps=${limits.objectsPerKindMax}, limited: count/configmaps=${limits.objectsPerKindMax}`;
    const refused = await s.request({ method: 'POST', path: cms, body: { metadata: { name: 'one-more' } } });
    expect(refused.body).toMatchObject({ code: 403, reason: 'Forbidden', message, details: { name: 'one-more', kind: 'configmaps' } });
    expect((await s.request({ method: 'POST', path: `${cms}?dryRun=All`, body: { metadata: { name: 'one-more' } } })).status).toBe(403);
    // Other kinds are not concerned.
    expect((await s.request({ method: 'POST', path: sas, body: { metadata: { name: 'sa' } } })).status).toBe(201);
    expect((await s.request({ method: 'DELETE', path: `${cms}/cm-000000` })).status).toBe(200);
    expect((await s.request({ method: 'POST', path: cms, body: { metadata: { name: 'one-more' } } })).status).toBe(201);
    expect((await s.request({ method: 'POST', path: cms, body: { metadata: { name: 'two-more' } } })).status).toBe(403);
    // Updates are not creates.
    expect((await s.request({ method: 'PATCH', path: `${cms}/one-more`, headers: { 'content-type': 'application/merge-patch+json' }, body: { data: { a: 'b' } } })).status).toBe(200);
  });
});

describe('objects per kind, for the controllers', () => {
  it("bounds their creates too: a refused Event is the server's limit, retried, not a controller bug", async () => {
    const s = await createSimulation({ checkInvariants: true, startTime: '2026-01-01T00:00:00Z' });
    // A long-lived cluster whose Events reached the limit (nothing here expires them).
    const w = s.world;
    let byName: Trie<KubeObject> = emptyTrie;
    for (let i = 0; i < limits.objectsPerKindMax; i++) {
      const name = `old.${String(i).padStart(6, '0')}`;
      const event = { apiVersion: 'v1', kind: 'Event', metadata: { name, namespace: 'default', uid: `uid-${i}`, resourceVersion: String(w.revision + 1), creationTimestamp: '2025-01-01T00:00:00Z' }, involvedObject: { kind: 'Pod', name: 'gone' }, reason: 'Old', message: 'old', type: 'Normal' };
      byName = trieSet(byName, name, event as unknown as KubeObject);
    }
    s.replaceWorld({ ...w, revision: w.revision + 1 + limits.objectsPerKindMax, objects: { ...w.objects, 'core/events': trieSet(emptyTrie as Trie<Trie<KubeObject>>, 'default', byName) } });
    const made = await s.request({ method: 'POST', path: '/apis/apps/v1/namespaces/default/statefulsets', body: { metadata: { name: 'web' }, spec: { replicas: 1, serviceName: 'web', selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'a', image: 'x' }] } } } } });
    // The set's pod is made; its SuccessfulCreate Event is refused by the limit, and that is no
    // invariant broken (checkInvariants would throw on a refusal that is a controller's bug).
    expect(made.status).toBe(201);
    expect((await s.request({ method: 'GET', path: '/api/v1/namespaces/default/pods/web-0' })).status).toBe(200);
    const events = s.world.objects['core/events'];
    expect(events === undefined ? 0 : trieKeysCount(events)).toBe(limits.objectsPerKindMax);
    expect(s.trace().filter((e) => e.type === 'rejected')).toEqual([]);
  }, 120_000);
});

function trieKeysCount(byNs: Trie<Trie<KubeObject>>): number {
  return trieKeys(byNs).reduce((n, ns) => n + trieKeys(trieGet(byNs, ns)!).length, 0);
}

/** A bare HTTP server with the edge's limits, answering watches by holding them open. */
async function edgeServer(bounds?: { perClient: number; total: number }): Promise<{ server: Server; port: number }> {
  const server = createServer(
    httpServerOptions,
    withWatchLimits((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url?.includes('watch=true') !== true) res.end('{}');
      else res.flushHeaders();
    }, bounds),
  );
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** Opens a watch request from `localAddress`; resolves with its status and a way to end it. */
function openWatch(port: number, localAddress = '127.0.0.1'): Promise<{ status: number; body: Promise<string>; headers: Record<string, unknown>; end: () => void }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, localAddress, path: '/api/v1/pods?watch=true', agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      const done = new Promise<string>((r) => res.on('end', () => r(body)));
      resolve({ status: res.statusCode ?? 0, body: done, headers: res.headers, end: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('open watches (per client and in total)', () => {
  it(`past ${limits.watchesPerClientMax} from one client a watch is a 429 with Retry-After, until one ends`, async () => {
    const { server, port } = await edgeServer();
    const open = [];
    for (let i = 0; i < limits.watchesPerClientMax; i++) open.push(await openWatch(port));
    expect(open.every((w) => w.status === 200)).toBe(true);
    const refused = await openWatch(port);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(JSON.parse(await refused.body)).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Too many requests, please try again later.', reason: 'TooManyRequests', details: { retryAfterSeconds: 1 }, code: 429 });
    // Requests that are not watches are not counted.
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/pods`)).status).toBe(200);
    open.pop()!.end();
    await new Promise((r) => setTimeout(r, 50));
    expect((await openWatch(port)).status).toBe(200);
    for (const w of open) w.end();
    server.closeAllConnections();
    server.close();
  });

  it('counts every client toward the total', async () => {
    const { server, port } = await edgeServer({ perClient: 2, total: 3 });
    const a = [await openWatch(port, '127.0.0.1'), await openWatch(port, '127.0.0.1')];
    expect((await openWatch(port, '127.0.0.1')).status).toBe(429);
    const b = await openWatch(port, '127.0.0.2');
    expect(b.status).toBe(200);
    expect((await openWatch(port, '127.0.0.3')).status).toBe(429);
    for (const w of [...a, b]) w.end();
    server.closeAllConnections();
    server.close();
  });
});

/** Sends raw bytes and reads the answer until the server closes the connection. */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(text));
    let out = '';
    socket.on('data', (c: Buffer) => (out += c.toString()));
    socket.on('close', () => resolve(out));
    socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' || e.code === 'EPIPE' ? resolve(out) : reject(e)));
  });
}

describe('request header size (1 MiB, Go net/http)', () => {
  let edge: { server: Server; port: number };
  beforeAll(async () => {
    edge = await edgeServer();
  });
  afterAll(() => {
    edge.server.closeAllConnections();
    edge.server.close();
  });

  it('reads headers far beyond node’s 16 KiB default', async () => {
    const answer = await raw(edge.port, `GET /version HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100 * 1024)}\r\nConnection: close\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
  });

  it('answers more than the limit with Go’s 431 and closes', async () => {
    const answer = await raw(edge.port, `GET /version HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(limits.requestHeaderBytesMax + 1)}\r\n\r\n`);
    expect(answer).toBe('HTTP/1.0 431 Request Header Fields Too Large\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n431 Request Header Fields Too Large');
  });

  it('answers a request it cannot parse with Go’s 400', async () => {
    expect(await raw(edge.port, 'NOT HTTP AT ALL\r\n\r\n')).toBe('HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request');
  });
});

describe('the limits of the HTTP edge, wired into serve', () => {
  it('serve reads big headers, answers more than the limit with 431, and unparseable requests with 400', async () => {
    const server = await serve({ port: 0, clock: 'manual', tls: false });
    const port = Number(new URL(server.url).port);
    try {
      expect(await raw(port, `GET /version HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100 * 1024)}\r\nConnection: close\r\n\r\n`)).toMatch(/^HTTP\/1\.1 (200|401) /);
      expect(await raw(port, `GET /version HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(limits.requestHeaderBytesMax + 1)}\r\n\r\n`)).toMatch(/^HTTP\/1\.0 431 Request Header Fields Too Large\r\n/);
      expect(await raw(port, 'NOT HTTP AT ALL\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    } finally {
      await server.close();
    }
  });
});
