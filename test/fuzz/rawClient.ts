/**
 * A raw HTTP/1.1 client over one socket per request, for hostile input: header names fetch and
 * node:http refuse or rewrite (`__proto__`, repeated names in any case), exact bytes of the
 * request line and body, a Content-Length that lies, and a deadline on every answer. Each
 * request is `Connection: close`, so an answer ends when the server closes; a watch (a stream
 * that never ends) is answered by its status line and headers.
 */
import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

export interface Target {
  readonly host: string;
  readonly port: number;
  /** TLS with this CA and, for mTLS, a client certificate chain and key (PEM). */
  readonly tls?: { readonly ca: string; readonly cert?: string; readonly key?: string };
}

export interface RawRequest {
  readonly method: string;
  /** The request target exactly as sent (path and query). */
  readonly path: string;
  /** Header lines in order; names are sent as given, repeats are repeated lines. */
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: Uint8Array;
  /**
   * `exact` (default): a Content-Length of the body's size when there is a body; `none`: no
   * Content-Length at all; a number: that Content-Length whatever the body (a larger one
   * leaves the body truncated: the client then half-closes).
   */
  readonly framing?: 'exact' | 'none' | number;
}

export type RawAnswer =
  | { readonly kind: 'answer'; readonly status: number; readonly headers: readonly (readonly [string, string])[]; readonly body: string; readonly ms: number }
  /** The server closed or reset the connection without a status line. */
  | { readonly kind: 'closed'; readonly ms: number }
  | { readonly kind: 'timeout'; readonly ms: number; readonly received: string };

export const headerOf = (a: RawAnswer, name: string): string | undefined => (a.kind === 'answer' ? a.headers.find(([k]) => k.toLowerCase() === name)?.[1] : undefined);

const encoder = new TextEncoder();

function requestBytes(host: string, req: RawRequest): Uint8Array {
  const body = req.body ?? new Uint8Array(0);
  const framing = req.framing ?? 'exact';
  const lines = [`${req.method} ${req.path} HTTP/1.1`, `Host: ${host}`, ...req.headers.map(([k, v]) => `${k}: ${v}`)];
  if (framing === 'exact' && (body.length > 0 || ['POST', 'PUT', 'PATCH'].includes(req.method))) lines.push(`Content-Length: ${body.length}`);
  if (typeof framing === 'number') lines.push(`Content-Length: ${framing}`);
  lines.push('Connection: close', '', '');
  const head = encoder.encode(lines.join('\r\n'));
  const out = new Uint8Array(head.length + body.length);
  out.set(head);
  out.set(body, head.length);
  return out;
}

/** The Content-Length the request declares (by `framing` or a header of its own), or null. */
export function declaredLength(req: RawRequest): number | null {
  if (typeof req.framing === 'number') return req.framing;
  const header = req.headers.find(([k]) => k.toLowerCase() === 'content-length');
  return header === undefined || !/^\d+$/.test(header[1].trim()) ? null : Number(header[1].trim());
}

/** Whether the body is shorter than the Content-Length declared: the server waits for the rest. */
export const truncated = (req: RawRequest): boolean => (declaredLength(req) ?? 0) > (req.body?.length ?? 0);

/**
 * Whether body bytes go beyond the Content-Length declared (or none is): they are a second,
 * malformed request after the first, and Node may answer that one's 400 first.
 */
export function pipelined(req: RawRequest): boolean {
  const size = req.body?.length ?? 0;
  if (size === 0) return false;
  if (req.framing === 'none') return (declaredLength(req) ?? 0) < size;
  return typeof req.framing === 'number' ? req.framing < size : (declaredLength(req) ?? size) < size;
}

const watchQuery = /[?&]watch=[^&]*/i;

/** Status line and headers of a response head, or null when it is not one. */
function parseHead(head: string): { status: number; headers: [string, string][] } | null {
  const [statusLine = '', ...lines] = head.split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (m === null) return null;
  const headers = lines.map((l): [string, string] => {
    const i = l.indexOf(':');
    return i < 0 ? [l, ''] : [l.slice(0, i), l.slice(i + 1).trim()];
  });
  return { status: Number(m[1]), headers };
}

function dechunk(bytes: Buffer): string {
  const parts: Buffer[] = [];
  let at = 0;
  for (let guard = 0; guard < 1_000_000 && at < bytes.length; guard++) {
    const eol = bytes.indexOf('\r\n', at);
    if (eol < 0) break;
    const size = parseInt(bytes.subarray(at, eol).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(bytes.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts).toString('utf8');
}

/** Sends one request and reads its answer, within `timeoutMs`. */
export function send(target: Target, req: RawRequest, timeoutMs: number): Promise<RawAnswer> {
  const started = performance.now();
  const elapsed = (): number => performance.now() - started;
  return new Promise((resolve) => {
    const socket: Socket = target.tls === undefined ? tcpConnect(target.port, target.host) : tlsConnect({ host: target.host, port: target.port, ca: target.tls.ca, ...(target.tls.cert === undefined ? {} : { cert: target.tls.cert, key: target.tls.key }), servername: 'localhost' });
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (a: RawAnswer): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(a);
    };
    const timer = setTimeout(() => finish({ kind: 'timeout', ms: elapsed(), received: Buffer.concat(chunks).toString('latin1').slice(0, 300) }), timeoutMs);
    const answer = (received: Buffer, complete: boolean): boolean => {
      let all = received;
      let end = all.indexOf('\r\n\r\n');
      let head = end < 0 ? null : parseHead(all.subarray(0, end).toString('latin1'));
      // Interim answers (100 Continue) come before the answer.
      for (let i = 0; head !== null && head.status >= 100 && head.status < 200 && i < 10; i++) {
        all = all.subarray(end + 4);
        end = all.indexOf('\r\n\r\n');
        head = end < 0 ? null : parseHead(all.subarray(0, end).toString('latin1'));
      }
      if (head === null) return false;
      const rest = all.subarray(end + 4);
      const chunked = head.headers.some(([k, v]) => k.toLowerCase() === 'transfer-encoding' && v.toLowerCase() === 'chunked');
      // A watch never ends: its head is the answer.
      const streaming = head.status === 200 && chunked && (watchQuery.test(req.path) || /\/watch\//.test(req.path));
      if (!complete && !streaming) return false;
      finish({ kind: 'answer', status: head.status, headers: head.headers, body: chunked ? dechunk(rest) : rest.toString('utf8'), ms: elapsed() });
      return true;
    };
    const connected = (): void => {
      socket.write(requestBytes(target.host, req));
      // A Content-Length larger than the body: the body is truncated, and nothing more comes.
      if (truncated(req)) socket.end();
    };
    socket.once(target.tls === undefined ? 'connect' : 'secureConnect', connected);
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      answer(Buffer.concat(chunks), false);
    });
    const ended = (): void => {
      if (!answer(Buffer.concat(chunks), true)) finish({ kind: 'closed', ms: elapsed() });
    };
    socket.on('end', ended);
    socket.on('close', ended);
    socket.on('error', () => ended());
  });
}
