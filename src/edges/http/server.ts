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
import { checkOptions, defaultStartTime, optionChecks, PlatformSimError, type OptionCheck } from '../../sim/options.ts';
import type { AddressInfo } from 'node:net';
import type { Simulation } from '../../edges/simulation/simulation.ts';
import { createSimulation, restoreSimulation } from '../simulation/create.ts';
import { readStateFile, writeStateFile } from '../fs/stateFile.ts';
import type { SimulationOptions } from '../../sim/options.ts';
import type { WatchStream } from '../../edges/simulation/watchStream.ts';
import { readBody } from './readBody.ts';
import type { ApiResponse } from '../../endpoints/types.ts';
import { headersOf } from './requestHeaders.ts';

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

const aString: OptionCheck = (v) => (typeof v === 'string' ? null : `must be a string, not ${JSON.stringify(v)}`);
const aBoolean: OptionCheck = (v) => (typeof v === 'boolean' ? null : `must be true or false, not ${JSON.stringify(v)}`);

/** The options of `serve` beyond the simulation's, and the checks of their values. */
const serveChecks: { readonly [K in Exclude<keyof ServeOptions, keyof SimulationOptions>]-?: OptionCheck } = {
  host: aString,
  port: (v) => (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 65535 ? null : `must be a port number (0 picks a free one), not ${JSON.stringify(v)}`),
  clock: (v) => (v === 'wall' || v === 'manual' ? null : `must be "wall" or "manual", not ${JSON.stringify(v)}`),
  adminToken: aString,
  tls: aBoolean,
  kubeconfig: aString,
  stateFile: aString,
};

/** Why an address cannot be listened on, in a few words. */
function listenCause(e: NodeJS.ErrnoException): string {
  const causes: Record<string, string> = {
    EADDRINUSE: 'address already in use',
    EADDRNOTAVAIL: 'address not available on this machine',
    EACCES: 'permission denied',
    ENOTFOUND: 'host name not found',
    EAI_AGAIN: 'host name could not be resolved',
  };
  return e.code !== undefined && causes[e.code] !== undefined ? `${causes[e.code]} (${e.code})` : e.message;
}

/** Listens, or rejects with a PlatformSimError naming the address and the cause (never an unhandled error event). */
function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const failed = (e: NodeJS.ErrnoException): void => {
      const address = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
      reject(new PlatformSimError('PSIM_LISTEN_FAILED', `cannot listen on ${address}: ${listenCause(e)}`));
    };
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
}

export async function serve(options: ServeOptions = {}): Promise<RunningServer> {
  checkOptions(options, { ...optionChecks, ...serveChecks });
  const simulationOptions = Object.fromEntries(Object.entries(options).filter(([k]) => !Object.hasOwn(serveChecks, k))) as SimulationOptions;
  const clock = options.clock ?? 'wall';
  const adminToken = options.adminToken ?? defaultAdminToken(String(options.seed ?? 1));
  const users = [...(options.users ?? []), { token: adminToken, user: 'system:admin', groups: ['system:masters'] }];
  const saved = options.stateFile === undefined ? null : readStateFile(options.stateFile);
  // Under the wall clock virtual time starts at the wall clock's now (kubectl's AGE column
  // compares timestamps with the wall clock), unless a start time is given. A resumed world
  // keeps the start time it was created with (the CA and every certificate derive from it).
  const wallStart = Date.now();
  const createdWith = saved === null ? undefined : (saved.options?.startTime ?? defaultStartTime);
  const startTime = options.startTime ?? createdWith ?? (clock === 'wall' ? new Date(wallStart).toISOString() : defaultStartTime);
  const simOptions: SimulationOptions = { ...simulationOptions, startTime, users };
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
    ? await servingMaterial(String(options.seed ?? 1), parseInstant(startTime) ?? 0, [...new Set(['localhost', '127.0.0.1', '::1', host0])])
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
  try {
    await listen(server, options.port ?? 6443, host0);
  } catch (e) {
    sim.close();
    throw e;
  }
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  let timer: NodeJS.Timeout | undefined;
  if (clock === 'wall') {
    let last = saved === null ? wallStart : Date.now();
    timer = setInterval(() => {
      const now = Date.now();
      const elapsed = now - last;
      last = now;
      // Quiet: a tick that changed nothing adds nothing to the trace.
      if (elapsed > 0) void sim.advance(elapsed, { quiet: true }).then(persist);
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
  // Without Content-Length or Transfer-Encoding a request has no body (RFC 9112 §6.3).
  const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
  const body = hasBody ? await readBody(req) : noBody;
  const path = req.url ?? '/';
  if (!body.ok) {
    res.writeHead(413, { 'content-type': 'application/json' });
    res.end(`${JSON.stringify(errors.requestBodyTooLarge(limits.requestBodyBytesMax).status)}\n`);
    return;
  }
  const headers = headersOf(req);
  const clientCertificate = peerCertificateChain(req);
  const credentials = { headers, ...(clientCertificate === undefined ? {} : { clientCertificate }) };
  const answer = await sim.respond({ method: req.method ?? 'GET', path, ...credentials, body: body.bytes, transport: 'http' });
  persist();
  if (answer.watch === undefined) {
    res.writeHead(answer.status, headersToSend(answer));
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

const noBody = { ok: true, bytes: new Uint8Array(0) } as const;


/**
 * Go's net/http answers a handler that wrote less than its 2048-byte buffer and did not flush
 * with a Content-Length (so does kube-apiserver for small objects), and chunked otherwise.
 */
const goChunkingBufferBytes = 2048;

function withContentLength(headers: Readonly<Record<string, string | string[]>>, body: string | Uint8Array): Readonly<Record<string, string | string[]>> {
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  return length < goChunkingBufferBytes ? { ...headers, 'content-length': String(length) } : headers;
}

/** By answer: a read answered again on an unchanged world is the same answer (readAnswers.ts). */
const framedHeaders = new WeakMap<object, Readonly<Record<string, string | string[]>>>();

function headersToSend(answer: ApiResponse): Readonly<Record<string, string | string[]>> {
  let headers = framedHeaders.get(answer);
  if (headers === undefined) framedHeaders.set(answer, (headers = withContentLength(answer.headers, answer.body)));
  return headers;
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
