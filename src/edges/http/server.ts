/**
 * The HTTP edge: a node:http server that turns each request into a `sim.request` (transport
 * `http`, so a request without credentials is never the in-process admin; the /sim/v1 control
 * endpoints are requests like any other), streams watches as one JSON event per line, and in
 * `wall` clock mode moves virtual time with the wall clock. With a state file every change is on
 * disk before its answer (edges/fs/durableState.ts), and no other server runs on the same file
 * (edges/fs/stateLock.ts); a watch client that stops reading is cut off
 * (limits.watchQueuedBytesMax); credentials are not computable from the seed unless asked for
 * (edges/crypto/serveCredentials.ts). Stops cleanly: open watches end, the socket closes.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { answerClientError, httpServerOptions, withWatchLimits } from './limits.ts';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';
import { servingMaterial, type ServingMaterial } from '../crypto/servingCertificates.ts';
import { kubeconfigYaml } from './kubeconfig.ts';
import { parseInstant } from '../../core/duration.ts';
import { limits } from '../../core/limits.ts';
import { errors } from '../../core/status.ts';
import { checkOptions, defaultStartTime, optionChecks, PlatformSimError, resolveOptions, type OptionCheck } from '../../sim/options.ts';
import type { AddressInfo } from 'node:net';
import type { Simulation } from '../../edges/simulation/simulation.ts';
import { createSimulation, restoreSimulation } from '../simulation/create.ts';
import { loadState, StateStore } from '../fs/durableState.ts';
import { writePrivateFile } from '../fs/privateFile.ts';
import { adminTokenFor, chooseKeySecret, exposureWarning } from '../crypto/serveCredentials.ts';
import type { SimulationOptions } from '../../sim/options.ts';
import type { WatchStream } from '../../edges/simulation/watchStream.ts';
import { bodyBytesMaxFor, readBody } from './readBody.ts';
import { answerStatus, continueOrRefuse, expectationFailed, refusalBeforeBody } from './framing.ts';
import { lockStateFile, type StateFileLock } from '../fs/stateLock.ts';
import { adminAtEdge } from './adminAtEdge.ts';
import type { ApiResponse } from '../../endpoints/types.ts';
import { headersOf } from './requestHeaders.ts';

export interface ServeOptions extends SimulationOptions {
  readonly host?: string;
  readonly port?: number;
  readonly clock?: 'wall' | 'manual';
  /**
   * Bearer token of an admin in system:masters (default: derived from the seed and the key
   * secret, or from the seed alone with seed-only keys).
   */
  readonly adminToken?: string;
  /**
   * Derive the admin token and every key from the seed alone (replayable across starts). Without
   * it and without an explicit `seed` (or `keySecret`), a secret drawn at the first start (kept
   * in the state file) is mixed in, so credentials cannot be computed from the public seed.
   */
  readonly deterministicKeys?: boolean;
  /** HTTPS with a serving certificate from the simulation's CA (default), or plain HTTP. */
  readonly tls?: boolean;
  /** Write a kubeconfig (server, CA data, admin token) to this path. */
  readonly kubeconfig?: string;
  /**
   * Persist every change here before it is answered (a snapshot and a journal beside it,
   * `<path>.journal`; edges/fs/durableState.ts), and resume from it at start. One server at a
   * time: `<path>.lock` names the process holding it (edges/fs/stateLock.ts).
   */
  readonly stateFile?: string;
}

export interface RunningServer {
  readonly url: string;
  readonly sim: Simulation;
  readonly adminToken: string;
  /** PEM of the CA that signed the serving certificate (TLS only). */
  readonly caPem?: string;
  /** What the operator should know, one line each (the CLI prints them on stderr). */
  readonly warnings: readonly string[];
  /** Open watch responses, the bytes queued for their clients, and the watches cut off for not reading. */
  watchBacklog(): { readonly open: number; readonly queuedBytes: number; readonly cutOff: number };
  close(): Promise<void>;
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
  deterministicKeys: aBoolean,
};

/** Snapshot options: plain data only (functions are not kept in snapshots). */
function persistedOptions(o: SimulationOptions): SimulationOptions {
  const { controllers: _controllers, serviceAccountTokenValidator: _validator, ...rest } = o;
  return rest;
}

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
  if (options.deterministicKeys === true && options.keySecret !== undefined) throw new PlatformSimError('PSIM_OPTION_INVALID', 'option deterministicKeys: cannot go with keySecret');
  const simulationOptions = Object.fromEntries(Object.entries(options).filter(([k]) => !Object.hasOwn(serveChecks, k))) as SimulationOptions;
  // One server per state file, before its files are read (edges/fs/stateLock.ts); a start that
  // fails leaves no lock behind.
  const lock = options.stateFile === undefined ? undefined : await lockStateFile(options.stateFile);
  try {
    return await start(options, simulationOptions, lock);
  } catch (e) {
    lock?.release();
    throw e;
  }
}

async function start(options: ServeOptions, simulationOptions: SimulationOptions, lock: StateFileLock | undefined): Promise<RunningServer> {
  const clock = options.clock ?? 'wall';
  // Validated before anything is written: a file that is not a state file is left as it is.
  const saved = options.stateFile === undefined ? null : loadState(options.stateFile);
  // A resumed world keeps the seed, start time and key secret it was created with (the CA, the
  // keys and every certificate derive from them), unless flags name others. Under the wall clock
  // a fresh world starts at the wall clock's now (kubectl's AGE column compares timestamps with
  // the wall clock), unless a start time is given.
  const wallStart = Date.now();
  const seed = options.seed ?? saved?.options.seed;
  const seedOnly = options.deterministicKeys === true || options.seed !== undefined;
  const keySecret = chooseKeySecret(options.keySecret, seedOnly, saved === null ? null : saved.options);
  const createdWith = saved === null ? undefined : (saved.options.startTime ?? defaultStartTime);
  const startTime = options.startTime ?? createdWith ?? (clock === 'wall' ? new Date(wallStart).toISOString() : defaultStartTime);
  const adminToken = options.adminToken ?? adminTokenFor(String(seed ?? 1), keySecret);
  const users = [...(options.users ?? []), { token: adminToken, user: 'system:admin', groups: ['system:masters'] }];
  const simOptions: SimulationOptions = { ...simulationOptions, ...(seed === undefined ? {} : { seed }), ...(keySecret === undefined ? {} : { keySecret }), startTime, users };
  const sim = saved === null ? await createSimulation(simOptions) : await restoreSimulation({ format: 'platform-sim/snapshot@1', world: saved.world, options: simOptions });
  const store = options.stateFile === undefined ? undefined : new StateStore(options.stateFile, saved, sim.world, () => persistedOptions(simOptions));
  const persist = (tick = false): void => store?.record(sim.world, tick);
  const watches: Watches = { open: new Map(), cutOff: 0 };
  const tls = options.tls ?? true;
  const host0 = options.host ?? '127.0.0.1';
  const warnings = keySecret === undefined ? exposureWarning(host0) : [];
  const material: ServingMaterial | undefined = tls
    ? await servingMaterial(resolveOptions(simOptions).seed, parseInstant(startTime) ?? 0, [...new Set(['localhost', '127.0.0.1', '::1', host0])])
    : undefined;
  // Client certificates are asked for and accepted whatever they are: the simulation verifies
  // them at virtual time. The CA list tells clients which certificates the server trusts.
  const clientCas = material === undefined ? [] : [material.caPem, ...(options.clientCA === undefined ? [] : [options.clientCA]), ...(options.requestHeader === undefined ? [] : [options.requestHeader.clientCA])];
  const mayPutWorld = adminAtEdge(users, clientCas);
  // Open watches are counted per client and in total before the simulation sees a request (limits.ts).
  const listener = withWatchLimits((req: IncomingMessage, res: ServerResponse): void => {
    void handle(sim, watches, req, res, persist, mayPutWorld).catch((err: unknown) => {
      // Our bug, never the client's: report it as a 500 Status and keep serving.
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify(errors.internalBug(String(err)).status));
    });
  });
  const server: Server =
    material === undefined
      ? createServer(httpServerOptions, listener)
      : createTlsServer({ ...httpServerOptions, key: material.keyPem, cert: material.certPem, requestCert: true, rejectUnauthorized: false, ca: clientCas }, listener);
  server.keepAliveTimeout = 65_000;
  // Requests node cannot parse (headers over the limit, garbage) are answered as Go's server does.
  server.on('clientError', answerClientError);
  // Expect: 100-continue only for a body that will be read; another expectation is a 417 (framing.ts).
  server.on('checkContinue', continueOrRefuse(listener, mayPutWorld));
  server.on('checkExpectation', expectationFailed);
  try {
    await listen(server, options.port ?? 6443, host0);
  } catch (e) {
    sim.close();
    store?.close(sim.world);
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
      // Quiet: a tick that changed nothing adds nothing to the trace, nor to the state file.
      if (elapsed > 0) void sim.advance(elapsed, { quiet: true }).then(() => persistTick(persist));
    }, 100);
    timer.unref();
  }
  const url = `${tls ? 'https' : 'http'}://${host}:${addr.port}`;
  if (options.kubeconfig !== undefined) writePrivateFile(options.kubeconfig, kubeconfigYaml(url, adminToken, material?.caPem));
  return {
    url,
    sim,
    adminToken,
    ...(material === undefined ? {} : { caPem: material.caPem }),
    warnings,
    watchBacklog: () => ({ open: watches.open.size, queuedBytes: [...watches.open.values()].reduce((n, res) => n + res.writableLength, 0), cutOff: watches.cutOff }),
    close: async () => {
      if (timer !== undefined) clearInterval(timer);
      try {
        store?.close(sim.world);
      } finally {
        // After the last snapshot: the next server on the file starts from it.
        lock?.release();
      }
      for (const w of watches.open.keys()) w.close();
      sim.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A tick's change that cannot be saved (a full disk) stays in memory: the next request saves it
 * with its own, or answers 500 and acknowledges nothing.
 */
function persistTick(persist: (tick: boolean) => void): void {
  try {
    persist(true);
  } catch {
    // reported by the next request, as above
  }
}

/** The open watch responses, and how many were cut off for not reading. */
interface Watches {
  readonly open: Map<WatchStream, ServerResponse>;
  cutOff: number;
}

async function handle(sim: Simulation, watches: Watches, req: IncomingMessage, res: ServerResponse, persist: (timeIsTicks: boolean) => void, mayPutWorld: (req: IncomingMessage) => boolean): Promise<void> {
  // Answered before node's parser may hang up on the same request (framing.ts).
  const refused = refusalBeforeBody(req);
  if (refused !== null) {
    answerStatus(res, refused, true);
    return;
  }
  // Without Content-Length or Transfer-Encoding a request has no body (RFC 9112 §6.3).
  const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
  const bodyLimit = bodyBytesMaxFor(req, mayPutWorld);
  const body = hasBody ? await readBody(req, bodyLimit) : noBody;
  const path = req.url ?? '/';
  if (!body.ok) {
    answerStatus(res, errors.requestBodyTooLarge(bodyLimit), false);
    return;
  }
  const headers = headersOf(req);
  const clientCertificate = peerCertificateChain(req);
  const credentials = { headers, ...(clientCertificate === undefined ? {} : { clientCertificate }) };
  const answer = await sim.respond({ method: req.method ?? 'GET', path, ...credentials, body: body.bytes, transport: 'http' });
  // On disk before the answer leaves: whatever this request (and any before it) changed. A read
  // never moves virtual time: if time moved since the last line, the wall clock's ticks did.
  persist(req.method === 'GET' || req.method === 'HEAD');
  if (answer.watch === undefined) {
    res.writeHead(answer.status, headersToSend(answer));
    res.end(answer.body);
    return;
  }
  const stream = answer.watch;
  watches.open.set(stream, res);
  res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked', 'cache-control': 'no-cache, private' });
  res.flushHeaders();
  req.on('close', () => stream.close());
  try {
    for await (const event of stream) {
      res.write(`${JSON.stringify(event)}\n`);
      // A client that does not read would have its events queued here without bound. As
      // kube-apiserver drops a watcher whose buffer is full, the watch is cut off (the socket
      // closed, which frees what was queued); the client sees it end, and lists and watches again.
      if (res.writableLength > limits.watchQueuedBytesMax) {
        watches.cutOff++;
        stream.close();
        res.destroy();
        break;
      }
    }
  } finally {
    watches.open.delete(stream);
  }
  if (!res.destroyed) res.end();
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
