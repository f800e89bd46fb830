/**
 * `step(world, input, env) → StepResult`: the one door through which a world changes. Inputs are
 * facts, named `<area>/<pastTense>`: an API request arrived, time moved, a settle was asked for,
 * fault rules were installed or cleared, the world was replaced by a snapshot. The result says
 * what happened as data: the new world, each instant visited with the controller writes made
 * there, the controller writes the API refused, the response, and effects — work for the edge:
 * crypto facts the pass needed but did not have (see api/crypto.ts). A step that needed facts is
 * incomplete: the driver establishes them and runs the same step again on the same world; only a
 * step without `crypto/factNeeded` effects counts. Sans-IO: nothing here waits or reads a clock.
 */
import type { Instant } from '../core/duration.ts';
import type { ApiEnv } from '../endpoints/env.ts';
import type { WatchOpen } from '../endpoints/handleResource.ts';
import { serveRequest } from '../endpoints/pipeline.ts';
import type { Handled } from '../endpoints/handleResource.ts';
import type { ApiRequest, ApiResponse } from '../endpoints/types.ts';
import type { World } from '../store/world.ts';
import { FactBook, type Need } from './factBook.ts';
import { staleRead } from './staleReads.ts';
import { clearFaults, injectFault, installFaults, type FaultRule } from './faults.ts';
import { requestObject } from './requestObject.ts';
import type { Controller, ControllerServices, SigningConfig } from '../controllers/types.ts';
import { builtInControllers } from './controllers.ts';
import { advanceWorld, settleWorld, type Progress, type Visit, type WriteAttribution } from './scheduler.ts';
import type { Rejection } from './intents.ts';
import { serveControl, type ControlFill } from './control.ts';

export type { Visit, WriteAttribution, Rejection, ControlFill };

export type Input =
  /** `settle`: run the controllers after a mutating request that stored something (`settle: 'auto'`). */
  | { readonly type: 'api/requestArrived'; readonly request: ApiRequest; readonly settle: boolean }
  | { readonly type: 'clock/advanced'; readonly to: Instant }
  | { readonly type: 'controllers/settleRequested' }
  /** Rules already checked with validateFaultRules and, against the step's controllers, checkFaultsFor. */
  | { readonly type: 'faults/installed'; readonly rules: readonly FaultRule[] }
  | { readonly type: 'faults/cleared' }
  | { readonly type: 'world/replaced'; readonly world: World };

/**
 * Work for the edge. `crypto/factNeeded`: establish the fact and run the step again.
 * `crypto/tokenToSign`: sign these claims and put the token where tokenPlaceholder(index) stands
 * in the response; the step itself is complete.
 */
export type Effect =
  | { readonly type: 'crypto/factNeeded'; readonly need: Need }
  | { readonly type: 'crypto/tokenToSign'; readonly index: number; readonly claims: string };

/** The answer to an `api/requestArrived`. */
export interface RequestOutput {
  readonly response: ApiResponse;
  /** An accepted watch: the driver opens the stream. */
  readonly watch?: WatchOpen;
  /** Who the request ran as, when it got that far. */
  readonly user?: string;
  /** A control answer whose body the driver writes (the trace, the report, the snapshot). */
  readonly fill?: ControlFill;
}

export interface StepResult {
  readonly world: World;
  readonly effects: readonly Effect[];
  readonly output?: RequestOutput;
  /**
   * Each instant the step visited, in order, with the world at its end and the controller writes
   * made there; the last world is `world`. Writes not attributed to a controller are the request's.
   * Empty when nothing was visited (a read, a replaced world).
   */
  readonly instants: readonly Visit[];
  /** Controller writes the API refused: bugs to report, never dropped silently. */
  readonly rejections: readonly Rejection[];
  /** The world was replaced wholesale (a snapshot): open watches end. */
  readonly replaced: boolean;
}

/** Everything a step needs besides the world and the input. */
export type StepEnv = Omit<ApiEnv, 'crypto' | 'faults' | 'staleReads'> & {
  /** Crypto facts known so far (established by the edge), by factKey. */
  readonly facts: ReadonlyMap<string, unknown>;
  readonly signing: SigningConfig;
  /** The controllers settle runs, in order (default: the built-in ones). */
  readonly controllers?: readonly Controller[];
  /** Verify every controller the scheduler skips would have had nothing to do (slow; `checkInvariants`). */
  readonly checkSkips?: boolean;
};

const mutating = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const noExtra: { readonly output?: RequestOutput; readonly replaced?: boolean } = Object.freeze({});

/** The answer of a handled request: one literal per case rather than spreads of optional parts. */
function requestOutput(handled: Handled): RequestOutput {
  if (handled.watch !== undefined) return handled.user === undefined ? { response: handled.response, watch: handled.watch } : { response: handled.response, user: handled.user, watch: handled.watch };
  return handled.user === undefined ? { response: handled.response } : { response: handled.response, user: handled.user };
}
const noEffects: readonly Effect[] = Object.freeze([]);

/**
 * A request's handling, kept for the next pass of the same input on the same world when only the
 * settle after it stopped for facts: the handling needed no fact and left no token to sign, so it
 * would come out the same again (facts are functions of their inputs), and the pass starts at the
 * settle. (An approval whose signer needs a certificate: the update is not validated twice.)
 */
interface HandledBefore {
  readonly world: World;
  readonly table: StepEnv['table'];
  readonly identity: StepEnv['identity'];
  readonly handled: Handled;
}
const handledBefore = new WeakMap<Input, HandledBefore>();

function handleRequest(world: World, input: Input & { type: 'api/requestArrived' }, env: StepEnv, api: ApiEnv, book: FactBook): { handled: Handled; pure: boolean } {
  const before = handledBefore.get(input);
  if (before !== undefined && before.world === world && before.table === env.table && before.identity === env.identity) return { handled: before.handled, pure: true };
  const handled = serveRequest(world, api, input.request);
  return { handled, pure: book.needs.length === 0 && book.pendingTokens.length === 0 };
}

function progressed(p: Progress): Pick<StepResult, 'world' | 'instants' | 'rejections'> {
  return { world: p.world, instants: p.instants, rejections: p.rejections };
}

function only(world: World): Pick<StepResult, 'world' | 'instants' | 'rejections'> {
  return { world, instants: [{ world, writes: [] }], rejections: [] };
}

export function step(world: World, input: Input, env: StepEnv): StepResult {
  const book = new FactBook(env.facts);
  // Two literals rather than a spread of an optional part: every step makes one.
  const services: ControllerServices = env.checkSkips === true ? { crypto: book, signing: env.signing, checkSkips: true } : { crypto: book, signing: env.signing };
  const controllers = env.controllers ?? builtInControllers;
  const effects = (): readonly Effect[] =>
    book.needs.length === 0 && book.pendingTokens.length === 0
      ? noEffects
      : [...book.needs.map((need): Effect => ({ type: 'crypto/factNeeded', need })), ...book.pendingTokens.map((claims, index): Effect => ({ type: 'crypto/tokenToSign', index, claims }))];
  const done = (r: Pick<StepResult, 'world' | 'instants' | 'rejections'>, extra: { readonly output?: RequestOutput; readonly replaced?: boolean } = noExtra): StepResult =>
    // One literal either way (a spread of the first would copy it): every request makes one.
    extra.output === undefined
      ? { world: r.world, instants: r.instants, rejections: r.rejections, effects: effects(), replaced: extra.replaced ?? false }
      : { world: r.world, instants: r.instants, rejections: r.rejections, effects: effects(), replaced: extra.replaced ?? false, output: extra.output };
  switch (input.type) {
    case 'api/requestArrived': {
      // Fault rules see the request's user and, for `when`, the object it concerns.
      const faults: ApiEnv['faults'] = (w, attrs, user) => injectFault(w, { attrs, user, object: () => requestObject(w, env.table, attrs, input.request) });
      const api: ApiEnv = { table: env.table, identity: env.identity, crypto: book, faults, staleReads: staleRead };
      const { handled, pure } = handleRequest(world, input, env, api, book);
      if (handled.control !== undefined) {
        const user = handled.user === undefined ? {} : { user: handled.user };
        const answer = serveControl(handled.world, env.table, services, controllers, handled.control);
        const output: RequestOutput = { response: answer.response, ...user, ...(answer.fill === undefined ? {} : { fill: answer.fill }) };
        return done(progressed(answer.progress), { output, replaced: answer.replaced === true });
      }
      const output: RequestOutput = requestOutput(handled);
      // Controllers react to stored objects: a request that stored none (a read, a token's jti,
      // a fault's count) gives them nothing to do.
      const stored = handled.world.revision !== world.revision;
      if (stored && input.settle && mutating.has(input.request.method)) {
        const settled = done(progressed(settleWorld(handled.world, env.table, services, controllers)), { output });
        if (pure && book.needs.length > 0) handledBefore.set(input, { world, table: env.table, identity: env.identity, handled });
        return settled;
      }
      return done(handled.world === world ? { world, instants: [], rejections: [] } : only(handled.world), { output });
    }
    case 'clock/advanced':
      return done(progressed(advanceWorld(world, env.table, input.to, services, controllers)));
    case 'controllers/settleRequested':
      return done(progressed(settleWorld(world, env.table, services, controllers)));
    case 'faults/installed':
      return done(only(installFaults(world, input.rules)));
    case 'faults/cleared':
      return done(only(clearFaults(world)));
    case 'world/replaced':
      return done({ world: input.world, instants: [], rejections: [] }, { replaced: true });
  }
}
