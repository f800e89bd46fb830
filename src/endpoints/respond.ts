/**
 * Turning results into responses: objects and Status errors content-negotiated, error headers
 * (Retry-After, Allow) and warnings attached. A response to a request whose Accept cannot be
 * satisfied is still written, as indented JSON.
 */
import type { ApiError, Status } from '../core/status.ts';
import { contentTypeOf, encode, warningHeaders } from './encode.ts';
import type { Output } from './negotiate.ts';
import type { ApiResponse } from './types.ts';

export interface Rendering {
  readonly output: Output | null;
  readonly pretty: boolean;
}

/**
 * The response; its body is encoded when first read. An in-process caller that only looks at the
 * status (a test filling a store, a benchmark) never pays for the text; the server and every
 * reader get the same text as before. `body` must not change afterwards: it never does (stored
 * objects, Status and lists built for this answer).
 */
export function respond(code: number, body: unknown, r: Rendering, warnings: readonly string[] = [], extra: Record<string, string> = {}): ApiResponse {
  const output = r.output === null || r.output.type === 'table' ? { type: 'json' as const } : r.output;
  const pretty = r.output === null ? true : r.pretty;
  const headers: Record<string, string | string[]> = { 'content-type': contentTypeOf(output), 'cache-control': 'no-cache, private', ...extra };
  const w = warningHeaders(warnings);
  if (w.length > 0) headers['warning'] = w;
  return new EncodedOnRead(code, headers, body, output, pretty);
}

type EncodeOutput = Parameters<typeof encode>[1];

/** The property `body` of every EncodedOnRead: one getter for all (see there). */
let encodedBody: PropertyDescriptor;

/**
 * A response whose body is encoded when first read: own `status`, `headers` and `body` (an
 * enumerable getter), as an object literal with a getter would have them — spreads, JSON and
 * equality see the same. The getter is defined on each instance from one shared descriptor:
 * a literal with a getter is built on V8's slow path, about three quarters of a microsecond for
 * every request, five times what this costs.
 */
class EncodedOnRead implements ApiResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[]>>;
  declare readonly body: string;
  readonly #value: unknown;
  readonly #output: EncodeOutput;
  readonly #pretty: boolean;
  #text: string | undefined;

  constructor(status: number, headers: Readonly<Record<string, string | string[]>>, value: unknown, output: EncodeOutput, pretty: boolean) {
    this.status = status;
    this.headers = headers;
    this.#value = value;
    this.#output = output;
    this.#pretty = pretty;
    Object.defineProperty(this, 'body', encodedBody);
  }

  static {
    encodedBody = {
      get(this: EncodedOnRead): string {
        return (this.#text ??= encode(this.#value, this.#output, this.#pretty).text);
      },
      enumerable: true,
      configurable: true,
    };
  }
}

export function respondError(error: ApiError, r: Rendering, warnings: readonly string[] = []): ApiResponse {
  const status: Status = error.status;
  return respond(status.code ?? 500, status, r, warnings, { ...(error.headers ?? {}) });
}

export function plainNotFound(): ApiResponse {
  return { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' }, body: '404 page not found\n' };
}
