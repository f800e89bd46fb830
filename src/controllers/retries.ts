/**
 * Retries of refused work, as a controller's rate-limited work queue: when the API refuses a write
 * a controller expected might fail (a pod its template makes invalid, a name taken by someone
 * else), the work item waits 5 ms × 2^(attempts−1), at most 1000 s (client-go's default
 * per-item exponential limiter), then is tried again. A retry is due on `advance`, never within
 * the same settle (CONTRACT.md: backoff is how a test lives through retries). A sync of the item
 * that is refused nothing forgets its failures. A write an injected fault refuses is retried the
 * same way (sim/controllerWrites.ts).
 */
import type { Instant } from '../core/duration.ts';
import { worldWith, type Retry, type World } from '../store/world.ts';

const baseDelayMs = 5;
const maxDelayMs = 1000 * 1000;

export function backoffMs(attempts: number): number {
  return Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(attempts - 1, 40));
}

const slot = (controller: string, key: string): string => `${controller}/${key}`;

/** Whether the item's last attempt was refused and its backoff has not passed. */
export function isBackingOff(world: World, controller: string, key: string): boolean {
  const r = world.retries?.[slot(controller, key)];
  return r !== undefined && r.notBefore > world.now;
}

/** The item's failures so far (0 when none). */
export function failuresOf(world: World, controller: string, key: string): number {
  return world.retries?.[slot(controller, key)]?.attempts ?? 0;
}

/** One more refusal: the next attempt waits longer. */
export function recordFailure(world: World, controller: string, key: string): World {
  const attempts = failuresOf(world, controller, key) + 1;
  const retry: Retry = { attempts, notBefore: world.now + backoffMs(attempts) };
  return worldWith(world, { retries: { ...world.retries, [slot(controller, key)]: retry } });
}

/** The item went through: its backoff starts over. */
export function forget(world: World, controller: string, key: string): World {
  const s = slot(controller, key);
  if (world.retries?.[s] === undefined) return world;
  const { [s]: _gone, ...rest } = world.retries;
  return Object.keys(rest).length === 0 ? withoutRetries(world) : worldWith(world, { retries: rest });
}

function withoutRetries(world: World): World {
  const { retries: _none, ...rest } = world;
  return rest;
}

/**
 * Forgets the controller's items under `prefix` whose retry is due but that its sync did not need
 * again (not in `issued`): as client-go forgets an item whose sync succeeds, whatever it did.
 */
export function forgetDue(world: World, controller: string, prefix: string, issued: ReadonlySet<string>): World {
  if (world.retries === undefined) return world;
  const start = slot(controller, prefix);
  let w = world;
  for (const [s, r] of Object.entries(world.retries)) {
    if (!s.startsWith(start) || r.notBefore > world.now) continue;
    const key = s.slice(controller.length + 1);
    if (!issued.has(key)) w = forget(w, controller, key);
  }
  return w;
}

/** The earliest retry still to come, or null; retries of the controllers in `except` are not waited for. */
export function nextRetry(world: World, except: ReadonlySet<string> = new Set()): Instant | null {
  let next: Instant | null = null;
  for (const [s, r] of Object.entries(world.retries ?? {})) {
    if (r.notBefore <= world.now || (next !== null && r.notBefore >= next)) continue;
    if (except.size > 0 && [...except].some((c) => s.startsWith(slot(c, '')))) continue;
    next = r.notBefore;
  }
  return next;
}
