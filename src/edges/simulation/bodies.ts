/**
 * Request bodies as `sim.request` takes them (an object sent as JSON, or the exact text or bytes
 * a client would send) and response bodies as it returns them (parsed JSON when the content type
 * is JSON, else the text).
 */
import type { ApiResponse } from '../../endpoints/types.ts';
import type { JsonValue } from '../../core/json.ts';
import { plainJsonCopy } from '../../core/plainJson.ts';

type Headers = Record<string, string | readonly string[]>;

/**
 * Request headers as `sim.request` takes them, as the server reads header lines: names in lower
 * case, names that differ only in case combined in order like repeated lines (`X-Remote-Group: a`
 * and `x-remote-group: b` are two groups), in a map without a prototype (a header named
 * `__proto__` or `constructor` is a header like any other).
 */
export function requestHeaders(h: Readonly<Headers>): Headers {
  const out = Object.create(null) as Headers;
  for (const k of Object.keys(h)) {
    const v = h[k];
    if (v === undefined) continue;
    const name = k.toLowerCase();
    const before = Object.prototype.hasOwnProperty.call(out, name) ? out[name] : undefined;
    out[name] = before === undefined ? v : [...(typeof before === 'string' ? [before] : before), ...(typeof v === 'string' ? [v] : v)];
  }
  return out;
}

export function encodeBody(body: unknown, headers: Headers): { body?: string | Uint8Array; json?: JsonValue; headers: Headers } {
  if (body === undefined || body === null) return { body: '', headers };
  if (typeof body === 'string') return { body, headers };
  // Bytes stay bytes: protobuf bodies are binary.
  if (body instanceof Uint8Array) return { body, headers };
  const given = headers['content-type'];
  const typed = given === undefined ? Object.assign(Object.create(null) as Headers, headers, { 'content-type': 'application/json' }) : headers;
  // Sent as JSON: the value itself when it is plain JSON data and the API reads it as JSON.
  const json = given === undefined || (typeof given === 'string' && isJsonMediaType(given)) ? plainJsonCopy(body) : undefined;
  return json === undefined ? { body: JSON.stringify(body), headers: typed } : { json, headers: typed };
}

/** JSON media types: `application/json` and every `application/*+json` (`application/jwk-set+json`, …). */
export function isJsonMediaType(contentType: string): boolean {
  // The types in-process callers send, without splitting and matching (every request asks).
  if (contentType === 'application/json' || contentType === 'application/merge-patch+json') return true;
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return type === 'application/json' || /^application\/[^/\s]+\+json$/.test(type);
}

export function decodeResponseBody(r: ApiResponse): unknown {
  const type = String(r.headers['content-type'] ?? '');
  if (isJsonMediaType(type) && r.body !== '') {
    try {
      return JSON.parse(r.body);
    } catch {
      return r.body;
    }
  }
  return r.body;
}
