/**
 * The HTTP edge: a node:http server that turns each request into a `sim.request` (transport
 * `http`, so a request without credentials is never the in-process admin; the /sim/v1 control
 * endpoints are requests like any other), streams watches as one JSON event per line, and in
 * `wall` clock mode moves virtual time with the wall clock. Stops cleanly: open watches end, the socket closes.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';
import { writeFileSync } from 'node:fs';
import { servingMaterial, type ServingMaterial } from '../crypto/servingCertificates.ts';
import { kubeconfigYaml } from './kubeconfig.ts';
import { parseInstant } from '../../core/duration.ts';
import { limits } from '../../core/limits.ts';
import { errors } from '../../core/status.ts';
import { defaultStartTime } from '../../sim/options.ts';
import type { AddressInfo } from 'node:net';
import type { Simulation } from '../../edges/simulation/simulation.ts';
import { createSimulation, restoreSimulation } from '../simulation/create.ts';
import { readStateFile, writeStateFile } from '../fs/stateFile.ts';
import type { SimulationOptions } from '../../sim/options.ts';
import type { WatchStream } from '../../edges/simulation/watchStream.ts';
import { readBody } from './readBody.ts';

export interface ServeOptions extends SimulationOptions {
  readonly host?: string;
  readonly port?: number;
  readonly clock?: 'wall' | 'manual';
  /** Bearer token of an admin in system:masters (default: derived from the seed). */
  readonly adminToken?: string;
  /** HTTPS with a serving certificate from the simulation's CA (default), or plain HTTP. */
  readonly tls?: boolean;
  /** Write a kubeconfig (server, CA data, admin token) to this path. */
  readonly kubeconfig?: string;
  /** Persist the world here after every change, and resume from it at start. */
  readonly stateFile?: string;
}

export interface RunningServer {
  readonly url: string;
  readonly sim: Simulation;
  readonly adminToken: string;
  /** PEM of the CA that signed the serving certificate (TLS only). */
  readonly caPem?: string;
  close(): Promise<void>;
}

function defaultAdminToken(seed: string): string {
  // Derived from the seed so that a seeded server is reproducible; printed at start.
  let h = 2166136261;
  for (const c of `admin-token:${seed}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return `psim-${(h >>> 0).toString(16).padStart(8, '0')}${seed.length.toString(16)}`;
}

export async function serve(options: ServeOptions = {}): Promise<RunningServer> {
  const adminToken = options.adminToken ?? defaultAdminToken(String(options.seed ?? 1));
  const users = [...(options.users ?? []), { token: adminToken, user: 'system:admin', groups: ['system:masters'] }];
  const simOptions = { ...options, users };
  const saved = options.stateFile === undefined ? null : readStateFile(options.stateFile);
  const sim = saved === null ? await createSimulation(simOptions) : await restoreSimulation({ ...saved, options: simOptions });
  let lastSaved = '';
  const persist = (): void => {
    if (options.stateFile === undefined) return;
    const h = sim.hash();
    if (h === lastSaved) return;
    writeStateFile(options.stateFile, sim.snapshot());
    lastSaved = h;
  };
  persist();
  const watches = new Set<WatchStream>();
  const tls = options.tls ?? true;
  const host0 = options.host ?? '127.0.0.1';
  const material: ServingMaterial | undefined = tls
    ? await servingMaterial(String(options.seed ?? 1), parseInstant(options.startTime ?? defaultStartTime) ?? 0, [...new Set(['localhost', '127.0.0.1', '::1', host0])])
    : undefined;
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    void handle(sim, watches, req, res, persist).catch((err: unknown) => {
      // Our bug, never the client's: report it as a 500 Status and keep serving.
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify(errors.internalBug(String(err)).status));
    });
  };
  // Client certificates are asked for and accepted whatever they are: the simulation verifies
  // them at virtual time. The CA list tells clients which certificates the server trusts.
  const clientCas = material === undefined ? [] : [material.caPem, ...(options.clientCA === undefined ? [] : [options.clientCA]), ...(options.requestHeader === undefined ? [] : [options.requestHeader.clientCA])];
  const server: Server =
    material === undefined
      ? createServer(listener)
      : createTlsServer({ key: material.keyPem, cert: material.certPem, requestCert: true, rejectUnauthorized: false, ca: clientCas }, listener);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(options.port ?? 6443, host0, resolve));
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  let timer: NodeJS.Timeout | undefined;
  if ((options.clock ?? 'wall') === 'wall') {
    let last = Date.now();
    timer = setInterval(() => {
      const now = Date.now();
      const elapsed = now - last;
      last = now;
      if (elapsed > 0) void sim.advance(elapsed).then(persist);
    }, 100);
    timer.unref();
  }
  const url = `${tls ? 'https' : 'http'}://${host}:${addr.port}`;
  if (options.kubeconfig !== undefined) writeFileSync(options.kubeconfig, kubeconfigYaml(url, adminToken, material?.caPem));
  return {
    url,
    sim,
    adminToken,
    ...(material === undefined ? {} : { caPem: material.caPem }),
    close: async () => {
      if (timer !== undefined) clearInterval(timer);
      persist();
      for (const w of watches) w.close();
      sim.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function handle(sim: Simulation, watches: Set<WatchStream>, req: IncomingMessage, res: ServerResponse, persist: () => void): Promise<void> {
  const body = await readBody(req);
  const path = req.url ?? '/';
  if (!body.ok) {
    res.writeHead(413, { 'content-type': 'application/json' });
    res.end(`${JSON.stringify(errors.requestBodyTooLarge(limits.requestBodyBytesMax).status)}\n`);
    return;
  }
  const headers: Record<string, string | string[]> = {};
  // Per occurrence: two X-Remote-Group headers are two groups, one `a,b` is one group.
  for (const [k, v] of Object.entries(req.headersDistinct)) if (v !== undefined) headers[k] = v.length === 1 ? v[0]! : v;
  const clientCertificate = peerCertificateChain(req);
  const credentials = { headers, ...(clientCertificate === undefined ? {} : { clientCertificate }) };
  const answer = await sim.respond({ method: req.method ?? 'GET', path, ...credentials, body: body.bytes, transport: 'http' });
  persist();
  if (answer.watch === undefined) {
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
    return;
  }
  const stream = answer.watch;
  watches.add(stream);
  res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked', 'cache-control': 'no-cache, private' });
  res.flushHeaders();
  req.on('close', () => stream.close());
  for await (const event of stream) res.write(`${JSON.stringify(event)}\n`);
  watches.delete(stream);
  res.end();
}

/** The client certificate chain presented over mTLS, as PEM (verified by the simulation at virtual time). */
function peerCertificateChain(req: IncomingMessage): string | undefined {
  const socket = req.socket as TLSSocket;
  if (typeof socket.getPeerCertificate !== 'function') return undefined;
  const pems: string[] = [];
  let cert = socket.getPeerCertificate(true) as DetailedPeerCertificate | undefined;
  for (let depth = 0; cert !== undefined && cert.raw !== undefined && depth < limits.peerCertificatesMax; depth++) {
    pems.push(`-----BEGIN CERTIFICATE-----\n${cert.raw.toString('base64').replace(/.{64}/g, '$&\n')}\n-----END CERTIFICATE-----\n`.replace('\n\n-----END', '\n-----END'));
    if (cert.issuerCertificate === undefined || cert.issuerCertificate === cert) break;
    cert = cert.issuerCertificate;
  }
  return pems.length === 0 ? undefined : pems.join('');
}
