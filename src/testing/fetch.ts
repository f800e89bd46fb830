/**
 * `simulationFetch(sim)`: a WHATWG `fetch` answered by a simulation in the same process — no
 * socket, no port, no TLS. Code written against `fetch` takes it in place of the global one and
 * sees what it would see over HTTP: the status, headers and body bytes of the server, and watches
 * as a streamed body of one JSON event per line. Nothing here waits on a clock: a watch body
 * yields an event as soon as the simulation commits it, and ends when the watch ends or on abort.
 */
import { STATUS_CODES } from 'node:http';
import { limits } from '../core/limits.ts';
import { errors } from '../core/status.ts';
import type { Simulation } from '../edges/simulation/simulation.ts';
import type { AsIdentity } from '../edges/simulation/authenticate.ts';
import type { WatchStream } from '../edges/simulation/watchStream.ts';

export interface SimulationFetchOptions {
  /**
   * The identity of requests that carry no `Authorization` header (default: the simulation's
   * admin, as `sim.request`). A request with its own credentials is authenticated by them.
   */
  readonly as?: AsIdentity;
}

export type SimulationFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** The base of paths given without one; any other base works as well (only path and query are read). */
export const simulationBaseUrl = 'http://platform-sim.invalid';

/**
 * Go's net/http sends a Content-Length with a body it did not have to flush (under 2048 bytes, as
 * the HTTP edge does), and chunks otherwise: mirrored so headers read as over HTTP.
 */
const goChunkingBufferBytes = 2048;

export function simulationFetch(sim: Simulation, options: SimulationFetchOptions = {}): SimulationFetch {
  return async (input, init) => {
    // A Request does what an HTTP client does to the body: strings are UTF-8, a string body
    // without a content type gets `text/plain;charset=UTF-8`, and so on.
    const request = new Request(typeof input === 'string' && input.startsWith('/') ? `${simulationBaseUrl}${input}` : input, init);
    const signal = request.signal;
    signal.throwIfAborted();
    const url = new URL(request.url);
    // Without a prototype: a header named `__proto__` is a header like any other (as on the edge).
    const headers = Object.create(null) as Record<string, string>;
    request.headers.forEach((value, name) => (headers[name] = value));
    const body = new Uint8Array(await request.arrayBuffer());
    // The HTTP edge's answer to a body over the API server's 3 MiB limit (it never reaches the API).
    if (body.length > limits.requestBodyBytesMax) return jsonResponse(413, errors.requestBodyTooLarge(limits.requestBodyBytesMax).status);
    const as = options.as !== undefined && headers['authorization'] === undefined ? { as: options.as } : {};
    const answer = await sim.respond({ method: request.method, path: `${url.pathname}${url.search}`, headers, body, ...as });
    if (signal.aborted) {
      answer.watch?.close();
      throw signal.reason;
    }
    const status = answer.status;
    const statusLine = { status, statusText: STATUS_CODES[status] ?? '' };
    if (answer.watch !== undefined) {
      // The headers the HTTP edge writes for a watch (transfer-encoding is framing, not content).
      const watchHeaders = { 'content-type': 'application/json', 'cache-control': 'no-cache, private' };
      return new Response(watchBody(answer.watch, signal), { ...statusLine, headers: watchHeaders });
    }
    const out = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) for (const v of typeof value === 'string' ? [value] : value) out.append(name, v);
    const bytes = new TextEncoder().encode(answer.body);
    if (bytes.length < goChunkingBufferBytes && !out.has('content-length')) out.set('content-length', String(bytes.length));
    const noBody = request.method === 'HEAD' || status === 204 || status === 205 || status === 304;
    return new Response(noBody ? null : bytes, { ...statusLine, headers: out });
  };
}

function jsonResponse(status: number, body: unknown): Response {
  return new Response(`${JSON.stringify(body)}\n`, { status, statusText: STATUS_CODES[status] ?? '', headers: { 'content-type': 'application/json' } });
}

/**
 * A watch as a byte stream: one event per chunk, `JSON.stringify(event)` and a newline, exactly
 * the lines the HTTP edge writes. Aborting the request's signal ends the watch and errors the
 * body with the signal's reason (as fetch does); cancelling the body ends the watch.
 */
function watchBody(stream: WatchStream, signal: AbortSignal): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let onAbort = (): void => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      onAbort = () => {
        controller.error(signal.reason);
        stream.close();
      };
      signal.addEventListener('abort', onAbort, { once: true });
    },
    async pull(controller) {
      const next = await stream.next();
      if (signal.aborted) return; // already errored by onAbort
      if (next.done === true) {
        signal.removeEventListener('abort', onAbort);
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(`${JSON.stringify(next.value)}\n`));
    },
    cancel() {
      signal.removeEventListener('abort', onAbort);
      stream.close();
    },
  });
}
