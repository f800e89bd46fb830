/**
 * Reads a request body within its limit — the API server's 3 MiB, or for `PUT /sim/v1/snapshot`
 * a whole world (`limits.snapshotBodyBytesMax`) — and reports a larger one as soon as it passes
 * the limit, without buffering the rest.
 */
import type { IncomingMessage } from 'node:http';
import { limits } from '../../core/limits.ts';

const snapshotPath = '/sim/v1/snapshot';

/**
 * The body limit of a request. Only the snapshot a `PUT /sim/v1/snapshot` puts back may be
 * larger than any API object: the world it replaces was never bounded by the request limit. The
 * body is read before the simulation authenticates the caller, so the larger limit is only for a
 * caller that looks like an admin at the edge already (`mayPutWorld`: a system:masters token, a
 * client certificate the server's CAs verified); anyone else is cut off at the request limit
 * instead of making the server hold a quarter of a GiB. Matched on the path as the control
 * endpoints are routed (without the query).
 */
export function bodyBytesMaxFor(req: IncomingMessage, mayPutWorld: (req: IncomingMessage) => boolean): number {
  const target = req.url ?? '/';
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  return req.method === 'PUT' && path === snapshotPath && mayPutWorld(req) ? limits.snapshotBodyBytesMax : limits.requestBodyBytesMax;
}

/** The body's bytes (kept binary: protobuf bodies are not text), or `ok: false` once past `limitBytes`. */
export function readBody(req: IncomingMessage, limitBytes: number): Promise<{ ok: true; bytes: Uint8Array } | { ok: false }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (c: Buffer) => {
      if (done) return;
      size += c.length;
      if (size > limitBytes) {
        done = true;
        chunks.length = 0;
        resolve({ ok: false });
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (done) return;
      // A plain Uint8Array viewing the joined bytes: a snapshot's hundreds of MiB are not copied again.
      const joined = Buffer.concat(chunks, size);
      resolve({ ok: true, bytes: new Uint8Array(joined.buffer, joined.byteOffset, joined.byteLength) });
    });
    req.on('error', () => {
      if (!done) resolve({ ok: false });
    });
  });
}
