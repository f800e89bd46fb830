/**
 * An `http.Agent` whose connections are in-memory stream pairs to an HTTP server that never
 * listens: for clients that build their requests with node:http themselves and take no fetch
 * (client-node's `Watch` calls node-fetch directly; its only hook is the agent). Node's own HTTP
 * parser frames the bytes on both sides, so the client reads what it would read over TCP, and the
 * handler answers like the HTTP edge: `sim.respond` per request, watches one JSON line per event.
 *
 * Nothing here starts a timer: the pair's socket methods (`setTimeout`, `setKeepAlive`, …) are
 * accepted and do nothing, so Node's keep-alive and idle timeouts never arm, and the agent does
 * not keep connections alive (each request gets a fresh pair, destroyed after its response).
 */
import { Agent, createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Duplex } from 'node:stream';
import { limits } from '../../core/limits.ts';
import { errors } from '../../core/status.ts';
import type { Simulation } from '../../edges/simulation/simulation.ts';
import type { SimulationFetchOptions } from '../fetch.ts';
import { headersOf } from '../../edges/http/requestHeaders.ts';

function returnThis<T>(this: T): T {
  return this;
}

/** One end of an in-memory connection: what one side writes the other reads. */
class PairEnd extends Duplex {
  peer: PairEnd | undefined;

  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.peer?.push(chunk);
    callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.peer?.push(null);
    callback();
  }

  /** A closed connection is closed for both sides (an aborted watch must end on the server). */
  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (this.peer !== undefined && !this.peer.destroyed) this.peer.destroy();
    callback(error);
  }

  // The net.Socket methods HTTP code calls on a connection (client-node's Watch calls
  // setKeepAlive unguarded); accepted, and no timer behind any of them.
  readonly setTimeout = returnThis;
  readonly setKeepAlive = returnThis;
  readonly setNoDelay = returnThis;
  readonly ref = returnThis;
  readonly unref = returnThis;
}

/** An agent that connects every request to `sim` in memory, with the identity rules of `simulationFetch`. */
export function simulationAgent(sim: Simulation, options: SimulationFetchOptions = {}): Agent {
  const server = createServer((req, res) => {
    answer(sim, options, req, res).catch((err: unknown) => {
      // Our bug, never the client's: a 500 as the HTTP edge sends it.
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify(errors.internalBug(String(err)).status));
    });
  });
  const agent = new Agent({ keepAlive: false });
  agent.createConnection = () => {
    const client = new PairEnd();
    const peer = new PairEnd();
    client.peer = peer;
    peer.peer = client;
    server.emit('connection', peer);
    return client;
  };
  return agent;
}

async function answer(sim: Simulation, options: SimulationFetchOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    // Over the API server's 3 MiB limit: the HTTP edge's 413, without buffering more.
    if (size > limits.requestBodyBytesMax) {
      res.writeHead(413, { 'content-type': 'application/json' });
      res.end(`${JSON.stringify(errors.requestBodyTooLarge(limits.requestBodyBytesMax).status)}\n`);
      return;
    }
    chunks.push(chunk as Buffer);
  }
  const headers = headersOf(req);
  const as = options.as !== undefined && headers['authorization'] === undefined ? { as: options.as } : {};
  const out = await sim.respond({ method: req.method ?? 'GET', path: req.url ?? '/', headers, body: new Uint8Array(Buffer.concat(chunks)), ...as });
  if (out.watch === undefined) {
    res.writeHead(out.status, out.headers);
    res.end(out.body);
    return;
  }
  const stream = out.watch;
  res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked', 'cache-control': 'no-cache, private' });
  res.flushHeaders();
  // The client went away (an aborted watch): end the watch.
  res.on('close', () => stream.close());
  for await (const event of stream) res.write(`${JSON.stringify(event)}\n`);
  res.end();
}

