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
    if (request.method !== 'GET' || (request.body !== undefined && request.body.length > 0)) return null;
    // NUL separates unambiguously: HTTP forbids it in paths and headers, and an in-process
    // request carrying one is simply not kept.
    if (request.path.includes('\0')) return null;
    let key = request.path;
    for (const name in request.headers) {
      const value = request.headers[name]!;
      const text = typeof value === 'string' ? value : value.join('\0\0');
      if (name.includes('\0') || (typeof value === 'string' ? value : value.join('')).includes('\0')) return null;
      key += `\0${name}\0${text}`;
    }
    return `${key}\0\0\0${request.identity === undefined ? '' : JSON.stringify(request.identity)}\0\0\0${request.clientCertificate ?? ''}`;
  }

  get(world: World, key: string): StepResult | undefined {
    return world === this.#world ? this.#answers.get(key) : undefined;
  }

  /** Keeps `result`, the complete step of the read `key` on `world`, when it can stand for another. */
  keep(world: World, key: string, result: StepResult): void {
    const out = result.output;
    const standsAgain = result.world === world && result.instants.length === 0 && result.rejections.length === 0 && !result.replaced && result.effects.length === 0 && out !== undefined && out.watch === undefined && out.fill === undefined;
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
