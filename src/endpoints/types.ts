/**
 * Requests and responses as the API sees them, transport-neutral: the in-process `sim.request`
 * and the HTTP server both build an `ApiRequest` and send back the `ApiResponse`.
 */
import type { UserInfo } from '../api/userInfo.ts';
import type { JsonValue } from '../core/json.ts';
import { jsonBytesAtMost } from '../core/jsonSizeBound.ts';

export type { UserInfo };

import { header, type HeaderMap } from '../api/headers.ts';

export { header, type HeaderMap };

export interface ApiRequest {
  readonly method: string;
  /** Path with optional query string. */
  readonly path: string;
  /** Header names in lower case. */
  readonly headers: HeaderMap;
  /** The body: text, or the exact bytes when the transport had them (protobuf is binary). */
  readonly body?: string | Uint8Array | undefined;
  /**
   * The body as its JSON value, given instead of `body` by an in-process caller whose object is
   * plain JSON data (core/plainJson.ts): the text is `JSON.stringify(json)`, made only for a reader
   * that needs text. The value is the request's own (a copy), as a parse of the text would be.
   */
  readonly json?: JsonValue | undefined;
  /**
   * An identity established outside the API (the in-process default admin, `as`): no
   * authenticator runs. Otherwise the request's credentials are authenticated.
   */
  readonly identity?: UserInfo | undefined;
  /** PEM chain of the client certificate (mTLS). */
  readonly clientCertificate?: string | undefined;
}

/** A request after authentication and impersonation: the user it runs as. */
export interface AuthenticatedRequest extends ApiRequest {
  readonly user: UserInfo;
}

export interface ApiResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[]>>;
  readonly body: string;
}

/** The body as text (UTF-8). */
export function bodyText(req: ApiRequest): string {
  const b = req.body;
  if (b === undefined) return req.json === undefined ? '' : JSON.stringify(req.json);
  return typeof b === 'string' ? b : new TextDecoder().decode(b);
}

/**
 * Whether the body is longer than `limit` bytes, without encoding a text body too short to be:
 * UTF-8 takes at most three bytes per UTF-16 code unit.
 */
export function bodyExceeds(req: ApiRequest, limit: number): boolean {
  const b = req.body;
  if (b === undefined) return req.json !== undefined && !jsonBytesAtMost(req.json, limit) && bodyExceeds({ ...req, body: bodyText(req) }, limit);
  if (typeof b !== 'string') return b.length > limit;
  return b.length * 3 > limit && new TextEncoder().encode(b).length > limit;
}

/** The body as bytes. */
export function bodyBytes(req: ApiRequest): Uint8Array {
  const b = req.body;
  return b === undefined ? new TextEncoder().encode(bodyText(req)) : typeof b === 'string' ? new TextEncoder().encode(b) : b;
}
