/**
 * `step(world, input, env) → { world, effects, output }`: the one entry point that changes a
 * world. Inputs are facts, named `<area>/<pastTense>`: an API request arrived, time moved, a
 * settle was asked for. Effects are work for the edge: the crypto facts a pass needed but did
 * not have (see api/crypto.ts). A step that returns effects is incomplete — the driver
 * establishes the facts and runs the same step again; only a step without effects counts.
 */
import type { Instant } from '../core/duration.ts';
import type { ApiEnv } from '../endpoints/env.ts';
import type { WatchOpen } from '../endpoints/handleResource.ts';
import { serveRequest } from '../endpoints/pipeline.ts';
import type { ApiRequest, ApiResponse } from '../endpoints/types.ts';
import type { World } from '../store/world.ts';
import { FactBook, type Need } from './factBook.ts';
import { advanceWorld, settleWorld } from './scheduler.ts';

export type Input =
  | { readonly type: 'api/requestArrived'; readonly request: ApiRequest; readonly settle: boolean }
  | { readonly type: 'clock/advanced'; readonly to: Instant }
  | { readonly type: 'controllers/settleRequested' };

/** Work for the edge; results come back as facts for the next pass of the same step. */
export type Effect = { readonly type: 'crypto/factNeeded'; readonly need: Need };

export interface StepResult {
  readonly world: World;
  readonly effects: readonly Effect[];
  readonly output?: { readonly response: ApiResponse; readonly watch?: WatchOpen };
}

const mutating = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The environment of a step: the API's, with crypto answered from known facts. */
export type StepEnv = Omit<ApiEnv, 'crypto'> & { readonly facts: ReadonlyMap<string, unknown> };

export function step(world: World, input: Input, env: StepEnv, onInstant?: (w: World) => void): StepResult {
  const book = new FactBook(env.facts);
  const api: ApiEnv = { table: env.table, identity: env.identity, crypto: book };
  const effects = (): Effect[] => book.needs.map((need) => ({ type: 'crypto/factNeeded', need }));
  switch (input.type) {
    case 'api/requestArrived': {
      const handled = serveRequest(world, api, input.request);
      let next = handled.world;
      if (next !== world && input.settle && mutating.has(input.request.method)) next = settleWorld(next, env.table);
      const output = handled.watch === undefined ? { response: handled.response } : { response: handled.response, watch: handled.watch };
      return { world: next, effects: effects(), output };
    }
    case 'clock/advanced':
      return { world: advanceWorld(world, env.table, input.to, onInstant), effects: effects() };
    case 'controllers/settleRequested':
      return { world: settleWorld(world, env.table), effects: effects() };
  }
}
