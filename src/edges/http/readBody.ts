/**
 * Reads a request body with the API server's 3 MiB limit; a larger body is reported as soon as
 * it passes the limit, without buffering the rest.
 */
import type { IncomingMessage } from 'node:http';
import { limits } from '../../core/limits.ts';

export function readBody(req: IncomingMessage): Promise<{ ok: true; text: string } | { ok: false }> {
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
      if (!done) resolve({ ok: true, text: Buffer.concat(chunks).toString('utf8') });
    });
    req.on('error', () => {
      if (!done) resolve({ ok: false });
    });
  });
}
