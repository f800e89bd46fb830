/**
 * The limits the HTTP edge applies before a request reaches the simulation, for server.ts to
 * wire in (the body limits are readBody.ts's, checked while the body is read, or before it with
 * `Expect: 100-continue`: framing.ts):
 *
 * - header size: Go's net/http, which kube-apiserver serves with, reads at most 1 MiB of request
 *   line and headers (`limits.requestHeaderBytesMax`; node's default is 16 KiB) and answers
 *   more with `431 Request Header Fields Too Large`, in plain text, closing the connection —
 *   `httpServerOptions` and `answerClientError`;
 * - open watches per client (remote address) and in total (`limits.watchesPerClientMax`,
 *   `limits.watchesTotalMax`): one more is answered as kube-apiserver's max-in-flight filter
 *   answers a request over its limit — 429 TooManyRequests, `Too many requests, please try again
 *   later.`, `Retry-After: 1` — as a Status (reference/apimachinery.md §2.3). Kubernetes itself
 *   counts no watches (long-running requests are exempt from max-in-flight): this is a
 *   simulation limit, bounding the memory and fan-out of open streams — `withWatchLimits`.
 */
import type { IncomingMessage, RequestListener, ServerOptions, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { limits } from '../../core/limits.ts';
import { errors } from '../../core/status.ts';
import { parseBool } from '../../endpoints/query.ts';
import { statusAnswerBytes, unsupportedTransferCoding } from './framing.ts';

/** Options for `createServer` (http and https alike). */
export const httpServerOptions: Pick<ServerOptions, 'maxHeaderSize'> = { maxHeaderSize: limits.requestHeaderBytesMax };

/** Go's plain-text error answer: status line, these headers, the status as the body. */
function goErrorAnswer(protocol: string, status: string): string {
  return `${protocol} ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${status}`;
}

/** What a request node could not parse is answered: Go's plain text, or framing.ts's Status for a transfer coding. */
function clientErrorAnswer(code: string | undefined): string {
  if (code === 'HPE_HEADER_OVERFLOW') return goErrorAnswer('HTTP/1.0', '431 Request Header Fields Too Large');
  if (code === 'HPE_INVALID_TRANSFER_ENCODING') return statusAnswerBytes(unsupportedTransferCoding);
  return goErrorAnswer('HTTP/1.1', '400 Bad Request');
}

/**
 * A request node could not parse (`clientError`): answered as Go's net/http answers one — 431
 * when its headers are over the limit, 400 otherwise — and the connection closed. A transfer
 * coding node cannot decode gets the 400 Status the request itself gets when node passed it on
 * first (framing.ts); an answer already written (that one) is left as it is.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (socket.writable && (socket as Duplex & { bytesWritten?: number }).bytesWritten === 0) socket.write(clientErrorAnswer(err.code));
  socket.destroy();
}

/** Whether a request asks for a watch (`?watch=true`, read as Go's ParseBool). */
function isWatch(req: IncomingMessage): boolean {
  if (req.method !== 'GET') return false;
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return q >= 0 && parseBool(new URLSearchParams(url.slice(q + 1)).get('watch')) === true;
}

/**
 * The listener with open watch requests counted per client and in total: a watch request over
 * either limit is answered 429 before the simulation sees it; one admitted counts until its
 * response closes (a watch that fails at once stops counting at once). `bounds` default to the
 * named limits (tests pass small ones).
 */
export function withWatchLimits(listener: RequestListener, bounds: { readonly perClient: number; readonly total: number } = { perClient: limits.watchesPerClientMax, total: limits.watchesTotalMax }): RequestListener {
  const byClient = new Map<string, number>();
  let total = 0;
  return (req: IncomingMessage, res: ServerResponse) => {
    if (!isWatch(req)) {
      listener(req, res);
      return;
    }
    const client = req.socket.remoteAddress ?? '';
    const held = byClient.get(client) ?? 0;
    if (held >= bounds.perClient || total >= bounds.total) {
      const status = errors.tooManyRequests(1);
      res.writeHead(429, { 'content-type': 'application/json', 'cache-control': 'no-cache, private', ...status.headers });
      res.end(`${JSON.stringify(status.status)}\n`);
      return;
    }
    byClient.set(client, held + 1);
    total++;
    res.once('close', () => {
      total--;
      const left = (byClient.get(client) ?? 1) - 1;
      if (left === 0) byClient.delete(client);
      else byClient.set(client, left);
    });
    listener(req, res);
  };
}
