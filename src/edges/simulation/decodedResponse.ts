/**
 * What `sim.request` returns: the API's response with its body decoded when first read, so that a
 * caller that only looks at the status pays nothing for it. Own `status`, `headers`, `body` (an
 * enumerable getter) and, for an accepted watch, `watch` — the properties an object literal with a
 * getter has, so spreads, JSON and `toEqual` see the same. The getter is defined on each instance
 * from one shared descriptor: a literal with a getter is built on V8's slow path, about three
 * quarters of a microsecond for every request, five times what this costs.
 */
import type { ApiResponse } from '../../endpoints/types.ts';
import { decodeResponseBody } from './bodies.ts';
import type { WatchStream } from './watchStream.ts';

/** The property `body` of every DecodedOnRead. */
let decodedBody: PropertyDescriptor;

export class DecodedOnRead<T> {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[]>>;
  declare readonly body: T;
  declare readonly watch?: WatchStream;
  readonly #raw: ApiResponse;
  #decoded: { readonly value: T } | undefined;

  constructor(raw: ApiResponse, watch: WatchStream | undefined) {
    this.status = raw.status;
    this.headers = raw.headers;
    this.#raw = raw;
    Object.defineProperty(this, 'body', decodedBody);
    if (watch !== undefined) (this as { watch?: WatchStream }).watch = watch;
  }

  static {
    decodedBody = {
      get(this: DecodedOnRead<unknown>): unknown {
        return (this.#decoded ??= { value: decodeResponseBody(this.#raw) }).value;
      },
      enumerable: true,
      configurable: true,
    };
  }
}
