/**
 * Request bodies as `sim.request` takes them (an object sent as JSON, or the exact text or bytes
 * a client would send) and response bodies as it returns them (parsed JSON when the content type
 * is JSON, else the text).
 */
import type { ApiResponse } from '../../endpoints/types.ts';

export function encodeBody(body: unknown, headers: Record<string, string | readonly string[]>): { body: string | Uint8Array; headers: Record<string, string | readonly string[]> } {
  if (body === undefined || body === null) return { body: '', headers };
  if (typeof body === 'string') return { body, headers };
  // Bytes stay bytes: protobuf bodies are binary.
  if (body instanceof Uint8Array) return { body, headers };
  const out = { ...headers };
  if (out['content-type'] === undefined) out['content-type'] = 'application/json';
  return { body: JSON.stringify(body), headers: out };
}

export function decodeResponseBody(r: ApiResponse): unknown {
  const type = String(r.headers['content-type'] ?? '');
  if (type.startsWith('application/json') && r.body !== '') {
    try {
      return JSON.parse(r.body);
    } catch {
      return r.body;
    }
  }
  return r.body;
}
