/**
 * `watch` fault rules, as the watch hub applies them to every object event a watch would deliver
 * (initial ADDED events included): the event is dropped, the watch's stream is held back from it
 * on by `delay` of virtual time (order kept), or the watch ends with a 410 Expired ERROR.
 *
 * A rule selects events by the watch's resource and the event object's namespace and name, and by
 * the state of that object (`when`). Each delivery of an event to a watch is one occurrence; a rule
 * fires from its (after+1)-th matching occurrence, `times` times at most, with a `probability`
 * drawn from a stream of its own derived from the seed. Watches are edge state, so these counts
 * are too: they live here, not in the world (GET /sim/v1/faults shows watch rules with `fired` 0),
 * and start again for a rule installed anew. The hub hands events over in a fixed order (watches
 * in the order they were opened, events in revision order), so a run replays exactly.
 */
import { parseDuration, type Instant } from '../../core/duration.ts';
import type { KubeObject } from '../../api/meta.ts';
import { drawInts, type RngStreams } from '../../ports/rng.ts';
import { admits, kindOfRule, whenHolds, type FaultState, type WatchFault } from '../../sim/faultRules.ts';
import type { World } from '../../store/world.ts';
import type { WatchEvent, WatchStream } from './watchStream.ts';

export type WatchVerdict =
  | { readonly action: 'deliver' }
  | { readonly action: 'drop' }
  /** Hold the stream back from this event on until `until`. */
  | { readonly action: 'delay'; readonly until: Instant }
  | { readonly action: 'expire' };

const deliver: WatchVerdict = { action: 'deliver' };

/** What one installed rule counted so far. */
interface Count {
  passed: number;
  fired: number;
  rng: RngStreams;
}

function matches(rule: WatchFault, resource: string, object: KubeObject): boolean {
  return admits(rule.resources, resource) && admits(rule.namespaces, object.metadata.namespace ?? '') && admits(rule.names, object.metadata.name ?? '') && whenHolds(rule.when, () => object);
}

export class WatchFaults {
  /**
   * By the rule object, then its place in the world's list (the same rule may be installed twice):
   * a rule stays the same object while the world changes around it, and a rule cleared is forgotten.
   */
  readonly #counts = new WeakMap<object, Map<number, Count>>();

  #count(rule: WatchFault, index: number): Count {
    let byIndex = this.#counts.get(rule);
    if (byIndex === undefined) this.#counts.set(rule, (byIndex = new Map()));
    let count = byIndex.get(index);
    if (count === undefined) byIndex.set(index, (count = { passed: 0, fired: 0, rng: {} }));
    return count;
  }

  /** What the first rule that fires does with an event of a watch on `resource`; later rules do not see it. */
  decide(world: World, resource: string, object: KubeObject): WatchVerdict {
    const states = (world.faults ?? []) as readonly FaultState[];
    for (let i = 0; i < states.length; i++) {
      const state = states[i]!;
      if (kindOfRule(state.rule) !== 'watch') continue;
      const rule = state.rule as WatchFault;
      const count = this.#count(rule, i);
      if (rule.times !== undefined && count.fired >= rule.times) continue;
      if (!matches(rule, resource, object)) continue;
      if (rule.after !== undefined && count.passed < rule.after) {
        count.passed++;
        continue;
      }
      if (rule.probability !== undefined && rule.probability < 1) {
        const drawn = drawInts(world.seed, count.rng, `faults/watch/${i}`, 1, 1_000_000);
        count.rng = drawn.streams;
        if (drawn.values[0]! >= rule.probability * 1_000_000) continue;
      }
      count.fired++;
      if (rule.action === 'delay') return { action: 'delay', until: world.now + (parseDuration(rule.delay ?? '0s') ?? 0) };
      return { action: rule.action };
    }
    return deliver;
  }
}

/**
 * A watch's way out: events go straight to its stream, or, once a delay fault held it back, wait
 * in order until the clock reaches the time they were held until. `null` stands for the end of
 * the stream (an expired watch ends after its ERROR, which may be held too).
 */
export class Outbox {
  readonly #stream: WatchStream;
  #until: Instant | null = null;
  readonly #queue: { readonly at: Instant; readonly event: WatchEvent | null }[] = [];

  constructor(stream: WatchStream) {
    this.#stream = stream;
  }

  /** Holds this event and every later one until `until` (a later hold never shortens an earlier one). */
  holdUntil(until: Instant): void {
    this.#until = this.#until === null ? until : Math.max(this.#until, until);
  }

  send(event: WatchEvent | null, now: Instant): void {
    this.release(now);
    if (this.#until !== null) this.#queue.push({ at: this.#until, event });
    else if (event === null) this.#stream.close();
    else this.#stream.push(event);
  }

  /** Delivers, in order, what was held until `now` or earlier. */
  release(now: Instant): void {
    while (this.#queue.length > 0 && this.#queue[0]!.at <= now) {
      const { event } = this.#queue.shift()!;
      if (event === null) this.#stream.close();
      else this.#stream.push(event);
    }
    if (this.#queue.length === 0 && this.#until !== null && this.#until <= now) this.#until = null;
  }
}
