/**
 * What every model-based command shares (commands.ts, boundTokenCommands.ts): the model, the
 * real side, how an answer is held against what the model expects (an injected fault may stand
 * in for the server under fault rules), the invariant checkers after each command, and the base
 * class that remembers the answer seen so that a command can be written as scenario steps.
 */
import type * as FastCheck from 'fast-check';
import type { Simulation } from '../edges/simulation/simulation.ts';
import { checkAll } from '../sim/checkers/all.ts';
import type { Step } from '../scenario/format.ts';

/** A token bound to a pod, as the model remembers it: what a review of it must say depends on that pod. */
export interface BoundTokenRecord {
  /** Its name in scenario steps (`token1`: the captured token; `token1.pod`: the pod's uid at issue). */
  readonly name: string;
  readonly token: string;
  readonly pod: string;
  /** The uid of the pod the token was bound to. */
  readonly podUid: string;
  /** `exp` of the token, epoch ms. */
  readonly expiresMs: number;
}

/** What the commands remember of the world they made. */
export interface SimModel {
  readonly sets: Map<string, { replicas: number; partition: number; image: string }>;
  readonly csrs: Map<string, 'Pending' | 'Approved' | 'Denied'>;
  /** Pod-bound tokens issued so far, in order. */
  readonly tokens: BoundTokenRecord[];
}

export interface SimReal {
  readonly sim: Simulation;
  /**
   * Fault rules are installed (the explorer's fault profiles): an injected fault may answer a
   * command's request instead of the server, and then the command changed nothing.
   */
  readonly faults?: boolean;
}

/** A command, which can also be written as scenario steps. */
export type SimCommand = FastCheck.AsyncCommand<SimModel, SimReal> & { toSteps(): Step[] };

export const emptyModel = (): SimModel => ({ sets: new Map(), csrs: new Map(), tokens: [] });

export const ns = '/api/v1/namespaces/default';
export type Body = Record<string, any>;

export const authGroup = (sim: Simulation): string => `authentication.${sim.resources.names.domain === 'k8s.io' ? 'k8s.io' : 'platform.io'}`;

/** An answer made by a fault rule (sim/faults.ts) rather than by the server. */
function injected(res: { status: number; body: unknown }): boolean {
  const b = res.body as { reason?: string; message?: string } | undefined;
  return (res.status === 429 && b?.reason === 'TooManyRequests') || (res.status === 504 && b?.reason === 'Timeout') || ([409, 500, 503].includes(res.status) && (b?.message ?? '').includes('injected fault'));
}

/**
 * A command's request must have answered `want` (true), or, under fault rules, an injected fault
 * (false: the command changed nothing); anything else means the model and the simulation disagree.
 */
export function answered(what: string, res: { status: number; body: unknown }, want: number, faults: boolean): boolean {
  if (res.status === want) return true;
  if (faults && injected(res)) return false;
  throw new Error(`${what}: expected ${want}, got ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
}

/** The invariants after a command (the world alone: the step-to-step checks run under `checkInvariants`). */
function invariantsHold(sim: Simulation, what: string): void {
  const problems = checkAll(null, sim.world);
  if (problems.length > 0) throw new Error(`after ${what}: ${problems.join('; ')}`);
}

export abstract class Base implements SimCommand {
  abstract check(m: Readonly<SimModel>): boolean;
  protected abstract apply(m: SimModel, sim: Simulation, faults: boolean): Promise<void>;
  abstract toString(): string;
  /** The command as scenario steps (names in platform.io mode), for a counterexample file. */
  abstract toSteps(): Step[];
  /** The status the command's request was answered with when it ran: a replay expects the same. */
  protected observed: number | undefined;
  protected note<T extends { readonly status: number }>(res: T): T {
    this.observed = res.status;
    return res;
  }
  /** `expect: { status }` of what was seen, for a step that replays the request. */
  protected seen(): { expect?: { status: number } } {
    return this.observed === undefined ? {} : { expect: { status: this.observed } };
  }
  async run(m: SimModel, r: SimReal): Promise<void> {
    await this.apply(m, r.sim, r.faults === true);
    invariantsHold(r.sim, this.toString());
  }
}
