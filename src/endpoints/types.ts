/**
 * Requests and responses as the API sees them, transport-neutral: the in-process `sim.request`
 * and the HTTP server both build an `ApiRequest` and send back the `ApiResponse`.
 */
import type { UserInfo } from '../api/userInfo.ts';

export type { UserInfo };

export type HeaderMap = Readonly<Record<string, string | readonly string[] | undefined>>;

export interface ApiRequest {
  readonly method: string;
  /** Path with optional query string. */
  readonly path: string;
  /** Header names in lower case. */
  readonly headers: HeaderMap;
  /** Raw body text ('' or undefined when none). */
  readonly body?: string;
  readonly user: UserInfo;
}

export interface ApiResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[]>>;
  readonly body: string;
}

export function header(headers: HeaderMap, name: string): string | undefined {
  const v = headers[name];
  if (v === undefined) return undefined;
  return typeof v === 'string' ? v : v.join(', ');
}
