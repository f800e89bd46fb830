/**
 * `step(world, input) → { world, effects, output }`: the one entry point that changes a world.
 * Inputs are facts, named `<area>/<pastTense>`: an API request arrived, time moved, a settle was
 * asked for. Effects are work for the edge (none of today's kinds needs any: signing joins with
 * identity and certificates); `output` is the answer to a request.
 */
import type { Instant } from '../core/duration.ts';
import type { ResourceTable } from '../endpoints/resourceTable.ts';
import { handle } from '../endpoints/handle.ts';
import type { WatchOpen } from '../endpoints/handleResource.ts';
import type { ApiRequest, ApiResponse } from '../endpoints/types.ts';
import type { World } from '../store/world.ts';
import { advanceWorld, settleWorld } from './scheduler.ts';

export type Input =
  | { readonly type: 'api/requestArrived'; readonly request: ApiRequest; readonly settle: boolean }
  | { readonly type: 'clock/advanced'; readonly to: Instant }
  | { readonly type: 'controllers/settleRequested' };

/** Work for the edge; results come back as inputs. */
export type Effect = never;

export interface StepResult {
  readonly world: World;
  readonly effects: readonly Effect[];
  readonly output?: { readonly response: ApiResponse; readonly watch?: WatchOpen };
}

const mutating = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function step(world: World, input: Input, table: ResourceTable, onInstant?: (w: World) => void): StepResult {
  switch (input.type) {
    case 'api/requestArrived': {
      const handled = handle(world, table, input.request);
      let next = handled.world;
      if (next !== world && input.settle && mutating.has(input.request.method)) next = settleWorld(next, table);
      const output = handled.watch === undefined ? { response: handled.response } : { response: handled.response, watch: handled.watch };
      return { world: next, effects: [], output };
    }
    case 'clock/advanced':
      return { world: advanceWorld(world, table, input.to, onInstant), effects: [] };
    case 'controllers/settleRequested':
      return { world: settleWorld(world, table), effects: [] };
  }
}
