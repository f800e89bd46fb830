/**
 * The clock port. Inside the simulation, time is part of the world (`world.now`) and moves only
 * through `advance`; edges (the HTTP server in `--clock wall` mode) supply a `Clock` that reads
 * the wall clock. Nothing in the pure rooms reads time any other way.
 */
import type { Instant } from '../core/duration.ts';

export interface Clock {
  now(): Instant;
}

/** A clock that only moves when told to (tests, scenarios). */
export class ManualClock implements Clock {
  #now: Instant;
  constructor(start: Instant) {
    this.#now = start;
  }
  now(): Instant {
    return this.#now;
  }
  set(t: Instant): void {
    if (t < this.#now) throw new Error('time never moves backwards');
    this.#now = t;
  }
}
