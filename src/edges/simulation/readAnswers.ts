/**
 * The answers of reads on a world that has not moved since: a step is a function of the world and
 * its input (facts are functions of theirs), so the same read of the same world — a client
 * polling, a load generator — answers the same bytes, and the step need not run again. The trace
 * and the watchers still hear of every request (the driver commits the kept result). Only steps
 * that left the world as it was are kept: not a read that stored something (a fault's count),
 * opened a watch, answered from outside the world (trace, report, snapshot), or left work for
 * the edge.
 */
import type { ApiRequest } from '../../endpoints/types.ts';
import type { StepResult } from '../../sim/step.ts';
import type { World } from '../../store/world.ts';

/** Enough for every distinct read a few clients poll with; cleared whenever the world moves. */
const answersKeptMax = 256;

export class ReadAnswers {
  #world: World | null = null;
  #answers = new Map<string, StepResult>();

  /** The request's identity as a read: null for anything with a body or another method. */
  key(request: ApiRequest): string | null {
    if (request.method !== 'GET' || (request.body !== undefined && request.body.length > 0) || request.json !== undefined) return null;
    // JSON keeps every part apart whatever it contains (header order as the client sent them).
    return JSON.stringify([request.path, request.headers, request.identity ?? null, request.clientCertificate ?? null]);
  }

  get(world: World, key: string): StepResult | undefined {
    return world === this.#world ? this.#answers.get(key) : undefined;
  }

  /** Keeps `result`, the complete step of the read `key`, when it can stand for another on its world. */
  keep(key: string, result: StepResult): void {
    const out = result.output;
    const world = result.world;
    // No instants: the step left the world it ran on as it was.
    const standsAgain = result.instants.length === 0 && result.rejections.length === 0 && !result.replaced && result.effects.length === 0 && out !== undefined && out.watch === undefined && out.fill === undefined;
    if (!standsAgain) return;
    if (world !== this.#world) {
      this.#world = world;
      this.#answers = new Map();
    }
    if (this.#answers.size >= answersKeptMax) this.#answers.delete(this.#answers.keys().next().value!);
    // The answer is handed to every caller of this read: none may change it for the next.
    Object.freeze(out.response.headers);
    Object.freeze(out.response);
    this.#answers.set(key, result);
  }
}
