/**
 * Requests the HTTP edge answers before reading their body, so that every request node hands it
 * gets an answer:
 *
 * - an unreadable transfer coding: node's parser decodes `chunked` alone. Any other
 *   Transfer-Encoding (`gzip`, `identity`, `gzip, chunked` — whose chunks would still be gzip)
 *   leaves a body the server cannot read, nor find the end of (RFC 9112 §6.3): 400 BadRequest as a
 *   Status, the connection closed. Go's net/http answers 501 in plain text; a client's mistake is
 *   never a 5xx here (docs/divergences.md). Node meets such a request either as a request or as a
 *   parse error (`answerClientError` in limits.ts): both get these bytes.
 * - `Expect: 100-continue`: node would send `100 Continue` before its parser has looked at the
 *   transfer coding, and then hang up on the parse error without an answer. So `100 Continue`
 *   goes only to a body the server will read; a request it would refuse — an unreadable transfer
 *   coding, a Content-Length over its body limit (readBody.ts) — gets the refusal at once, and the
 *   connection is closed rather than left waiting for a body the client holds back.
 * - any other expectation: Go's answer, `417 Expectation Failed` with no body, connection closed.
 */
import { STATUS_CODES, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { errors, type ApiError } from '../../core/status.ts';
import { bodyBytesMaxFor } from './readBody.ts';

/** The refusal of a body in a transfer coding the server cannot decode. */
export const unsupportedTransferCoding: ApiError = errors.badRequest('Unsupported transfer encoding: only chunked is read');

/** Whether node's parser hands over the body as sent: no Transfer-Encoding, or `chunked` alone (as Go's net/http). */
function transferCodingReadable(req: IncomingMessage): boolean {
  const coding = req.headers['transfer-encoding'];
  return coding === undefined || coding.trim().toLowerCase() === 'chunked';
}

/** A request's refusal before its body is read, or null to read it. */
export function refusalBeforeBody(req: IncomingMessage): ApiError | null {
  return transferCodingReadable(req) ? null : unsupportedTransferCoding;
}

/** The JSON of a Status answer, as the simulation writes one. */
const statusText = (error: ApiError): string => `${JSON.stringify(error.status)}\n`;

/**
 * Answers a Status. `close`: the connection ends with it, for a body left unread — unreadable, or
 * held back by a client waiting for `100 Continue` — that would otherwise be taken for the next request.
 */
export function answerStatus(res: ServerResponse, error: ApiError, close: boolean): void {
  const text = statusText(error);
  res.writeHead(error.status.code ?? 400, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...(close ? { connection: 'close' } : {}) });
  res.end(text);
}

/** The same answer as raw bytes, for a socket whose request node's parser refused. */
export function statusAnswerBytes(error: ApiError): string {
  const text = statusText(error);
  const code = error.status.code ?? 400;
  return `HTTP/1.1 ${code} ${STATUS_CODES[code] ?? ''}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`;
}

/** Whether the request announces a body: a Transfer-Encoding, or a Content-Length above 0. */
function announcesBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) > 0);
}

/**
 * The `checkContinue` listener: `100 Continue`, then `listener`, for a body the server will read;
 * otherwise its 400 or 413 before any of it is sent. No `100 Continue` for a request without a
 * body (as Go, which sends it on the first read of a body).
 */
export function continueOrRefuse(listener: RequestListener, mayPutWorld: (req: IncomingMessage) => boolean): RequestListener {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const limit = bodyBytesMaxFor(req, mayPutWorld);
    const refused = refusalBeforeBody(req) ?? (Number(req.headers['content-length'] ?? 0) > limit ? errors.requestBodyTooLarge(limit) : null);
    if (refused !== null) {
      answerStatus(res, refused, true);
      return;
    }
    if (announcesBody(req)) res.writeContinue();
    listener(req, res);
  };
}

/** The `checkExpectation` listener (an Expect other than `100-continue`): Go's 417. */
export function expectationFailed(_req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(417, { 'content-length': '0', connection: 'close' });
  res.end();
}
