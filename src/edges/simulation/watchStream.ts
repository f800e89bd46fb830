/**
 * One open watch as an async iterator of events. Events are queued as the simulation produces
 * them; `close()` (or a timeout, or an ERROR event) ends the iteration cleanly.
 */
import type { KubeObject } from '../../api/meta.ts';
import type { Status } from '../../core/status.ts';

export type WatchEvent =
  | { readonly type: 'ADDED' | 'MODIFIED' | 'DELETED'; readonly object: KubeObject }
  | { readonly type: 'BOOKMARK'; readonly object: KubeObject }
  | { readonly type: 'ERROR'; readonly object: Status };

export class WatchStream implements AsyncIterableIterator<WatchEvent> {
  readonly #queue: WatchEvent[] = [];
  readonly #waiting: ((r: IteratorResult<WatchEvent>) => void)[] = [];
  #closed = false;
  readonly #onClose: () => void;

  constructor(onClose: () => void) {
    this.#onClose = onClose;
  }

  get closed(): boolean {
    return this.#closed;
  }

  push(event: WatchEvent): void {
    if (this.#closed) return;
    const waiter = this.#waiting.shift();
    if (waiter !== undefined) waiter({ value: event, done: false });
    else this.#queue.push(event);
  }

  /** Ends the stream; events already queued are still delivered. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#onClose();
    for (const w of this.#waiting.splice(0)) w({ value: undefined, done: true });
  }

  /** Events queued and not yet read (for tests that do not want to await). */
  drain(): WatchEvent[] {
    return this.#queue.splice(0);
  }

  next(): Promise<IteratorResult<WatchEvent>> {
    const e = this.#queue.shift();
    if (e !== undefined) return Promise.resolve({ value: e, done: false });
    if (this.#closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  return(): Promise<IteratorResult<WatchEvent>> {
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<WatchEvent> {
    return this;
  }
}
