/**
 * Reads a request body with the API server's 3 MiB limit; a larger body is reported as soon as
 * it passes the limit, without buffering the rest.
 */
import type { IncomingMessage } from 'node:http';
import { limits } from '../../core/limits.ts';

/** The body's bytes (kept binary: protobuf bodies are not text). */
export function readBody(req: IncomingMessage): Promise<{ ok: true; bytes: Uint8Array } | { ok: false }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (c: Buffer) => {
      if (done) return;
      size += c.length;
      if (size > limits.requestBodyBytesMax) {
        done = true;
        resolve({ ok: false });
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (!done) resolve({ ok: true, bytes: new Uint8Array(Buffer.concat(chunks)) });
    });
    req.on('error', () => {
      if (!done) resolve({ ok: false });
    });
  });
}
