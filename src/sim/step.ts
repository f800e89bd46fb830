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
import { injectFault } from './faults.ts';
import type { SigningConfig } from '../controllers/types.ts';
import { advanceWorld, settleWorld, type WriteObserver } from './scheduler.ts';

export type Input =
  | { readonly type: 'api/requestArrived'; readonly request: ApiRequest; readonly settle: boolean }
  | { readonly type: 'clock/advanced'; readonly to: Instant }
  | { readonly type: 'controllers/settleRequested' };

/**
 * Work for the edge. `crypto/factNeeded`: establish the fact and run the step again.
 * `crypto/tokenToSign`: sign these claims and put the token where tokenPlaceholder(index) stands
 * in the response; the step itself is complete.
 */
export type Effect =
  | { readonly type: 'crypto/factNeeded'; readonly need: Need }
  | { readonly type: 'crypto/tokenToSign'; readonly index: number; readonly claims: string };

export interface StepResult {
  readonly world: World;
  readonly effects: readonly Effect[];
  readonly output?: { readonly response: ApiResponse; readonly watch?: WatchOpen; readonly user?: string };
}

const mutating = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The environment of a step: the API's, with crypto answered from known facts. */
export type StepEnv = Omit<ApiEnv, 'crypto'> & { readonly facts: ReadonlyMap<string, unknown>; readonly signing: SigningConfig };

/** Side channels of a step: each instant `advance` visits, and which controller wrote what. */
export interface StepObservers {
  readonly onInstant?: (w: World) => void;
  readonly onControllerWrites?: WriteObserver;
}

export function step(world: World, input: Input, env: StepEnv, observers: StepObservers = {}): StepResult {
  const book = new FactBook(env.facts);
  const api: ApiEnv = { table: env.table, identity: env.identity, crypto: book, faults: injectFault };
  const services = { crypto: book, signing: env.signing };
  const effects = (): Effect[] => [
    ...book.needs.map((need): Effect => ({ type: 'crypto/factNeeded', need })),
    ...book.pendingTokens.map((claims, index): Effect => ({ type: 'crypto/tokenToSign', index, claims })),
  ];
  switch (input.type) {
    case 'api/requestArrived': {
      const handled = serveRequest(world, api, input.request);
      let next = handled.world;
      // Controllers react to stored objects: a request that wrote none (a token's jti, a fault's
      // count) gives them nothing to do.
      if (next.revision !== world.revision && input.settle && mutating.has(input.request.method)) next = settleWorld(next, env.table, observers.onControllerWrites, services);
      const output = { response: handled.response, ...(handled.watch === undefined ? {} : { watch: handled.watch }), ...(handled.user === undefined ? {} : { user: handled.user }) };
      return { world: next, effects: effects(), output };
    }
    case 'clock/advanced':
      return { world: advanceWorld(world, env.table, input.to, observers.onInstant, observers.onControllerWrites, services), effects: effects() };
    case 'controllers/settleRequested':
      return { world: settleWorld(world, env.table, observers.onControllerWrites, services), effects: effects() };
  }
}
