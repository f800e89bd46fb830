/**
 * Swarm exploration: random workloads (the model-based commands: StatefulSets, pods, tokens,
 * CSRs) under random fault profiles, each run on a fresh simulation — a safety phase with the
 * invariant checkers after every step and the controllers' order in each settle round drawn from
 * the seed, then a liveness phase (faults cleared, the world must come to rest within bounded
 * virtual time, the invariants still holding). Everything is drawn from one seed through the
 * caller's fast-check, which shrinks a failure to a few commands; the counterexample comes back as
 * a ready-to-run scenario and the seed replays the whole exploration.
 */
import type * as FastCheck from 'fast-check';
import { createSimulation } from '../edges/simulation/create.ts';
import type { Simulation } from '../edges/simulation/simulation.ts';
import type { Controller } from '../controllers/types.ts';
import type { ServiceAccountTokenValidator } from '../auth/tokenValidator.ts';
import type { FaultRule } from '../sim/faults.ts';
import type { Scenario } from '../scenario/format.ts';
import { counterexampleScenario, emptyModel, rerunCommands, simulationCommands, type SimCommand } from './commands.ts';
import { checkInvariants, eventuallyStable } from './invariants.ts';

/** The part of fast-check the explorer uses (on top of what the commands use). */
type ExploreFc = Pick<typeof FastCheck, 'array' | 'asyncModelRun' | 'asyncProperty' | 'boolean' | 'check' | 'commands' | 'constant' | 'constantFrom' | 'dictionary' | 'integer' | 'oneof' | 'option' | 'record' | 'string' | 'tuple' | 'uniqueArray'>;

export interface ExploreOptions {
  readonly seed: number;
  readonly runs: number;
  /** Stop drawing new runs after this much wall time (fast-check's own clock), in ms. */
  readonly budgetMs?: number;
  readonly maxCommands?: number;
  /** Base64 PEM PKCS#10 requests for the CSR commands (`sim.createCertificateRequest`). */
  readonly requests?: readonly string[];
  /** Controllers under test (one named like a built-in takes its place). */
  readonly controllers?: readonly Controller[];
  /** A service-account token validator under test (the simulation option of that name). */
  readonly serviceAccountTokenValidator?: ServiceAccountTokenValidator;
  /** Called after each run with the number of runs done. */
  readonly onProgress?: (runs: number) => void;
}

export interface ExploreResult {
  readonly failed: boolean;
  readonly runs: number;
  /** Commands carried out across every run (shrinking included): the steps explored. */
  readonly steps: number;
  readonly seed: number;
  /** For a failure: what broke, the shrunk commands, the fault profile and the run as a scenario. */
  readonly failure?: { readonly error: string; readonly commands: readonly string[]; readonly faults: readonly FaultRule[]; readonly schedule: 'fixed' | 'seeded'; readonly scenario: Scenario };
}

/**
 * Fault profiles: none, or up to three rules of the kinds that act on what the commands drive —
 * a flaky API server (users' and controllers' writes failing now and then: 409, 429, 500, 503),
 * one controller's writes failing, a controller paused or crashed for a while, the node agent
 * failing (pods never ready, pods failing, the node lost). Watch and stale-read rules are left
 * out: the commands are clients without watches or retries, so they would only test themselves.
 */
function faultProfiles(fc: ExploreFc): FastCheck.Arbitrary<FaultRule[]> {
  const probability = fc.constantFrom(0.1, 0.3);
  const code = fc.constantFrom(409, 429, 500, 503);
  const flakyApi = fc.record({
    verbs: fc.constantFrom(['create'], ['update', 'patch'], ['create', 'update', 'patch']),
    resources: fc.constantFrom(['statefulsets'], ['statefulsets/scale'], ['pods/status'], ['certificatesigningrequests/approval'], ['serviceaccounts/token'], ['*']),
    code,
    probability,
  });
  const controllerWrites = fc.record({
    controllers: fc.constantFrom(['statefulset'], ['node-agent'], ['scheduler'], ['csrsigning'], ['csrapproving'], ['garbagecollector']),
    code,
    probability,
  });
  const stoppedController = fc.record({
    kind: fc.constant('controller' as const),
    controller: fc.constantFrom('statefulset', 'node-agent', 'scheduler', 'csrsigning', 'csrapproving', 'garbagecollector'),
    action: fc.constantFrom('pause' as const, 'crash' as const),
    from: fc.constantFrom('0s', '10s', '1m'),
    for: fc.constantFrom('5s', '30s', '2m'),
  });
  const failingNode = fc.oneof(
    fc.record({ kind: fc.constant('node' as const), action: fc.constant('podNeverReady' as const), probability }),
    fc.record({ kind: fc.constant('node' as const), action: fc.constant('podFails' as const), probability, times: fc.constantFrom(1, 2) }),
    fc.record({ kind: fc.constant('node' as const), action: fc.constant('nodeLost' as const), from: fc.constantFrom('0s', '30s') }),
  );
  const rule: FastCheck.Arbitrary<FaultRule> = fc.oneof(flakyApi, controllerWrites, stoppedController, failingNode);
  const named = (r: FaultRule, i: number): FaultRule => {
    const name = `explore-${i}`;
    return r.kind === undefined || r.kind === 'error' ? { ...r, name, message: `injected fault ${name}` } : { ...r, name };
  };
  return fc.oneof(fc.constant([]), fc.array(rule, { minLength: 1, maxLength: 3 })).map((rules) => rules.map(named));
}

export async function explore(fc: ExploreFc, options: ExploreOptions): Promise<ExploreResult> {
  const commands = fc.commands(simulationCommands(fc, { requests: options.requests ?? [] }), { maxCommands: options.maxCommands ?? 30 });
  let done = 0;
  let steps = 0;
  const underTest = { ...(options.controllers === undefined ? {} : { controllers: options.controllers }), ...(options.serviceAccountTokenValidator === undefined ? {} : { serviceAccountTokenValidator: options.serviceAccountTokenValidator }) };
  const simulation = (seeded: boolean): Promise<Simulation> => createSimulation({ seed: options.seed, checkInvariants: true, schedule: seeded ? 'seeded' : 'fixed', ...underTest });
  const property = fc.asyncProperty(commands, faultProfiles(fc), fc.boolean(), async (cmds, faults, seeded) => {
    const sim = await simulation(seeded);
    try {
      if (faults.length > 0) sim.injectFaults(faults);
      // Safety: the model and the invariants after every command, faults firing.
      await fc.asyncModelRun(() => ({ model: emptyModel(), real: { sim, faults: faults.length > 0 } }), cmds);
      // Liveness: with the faults gone the world comes to rest, the invariants holding.
      await eventuallyStable(sim);
      checkInvariants(sim, { since: null });
    } finally {
      steps += ([...cmds] as unknown as { hasRan: boolean }[]).filter((c) => c.hasRan).length;
      sim.close();
      options.onProgress?.(++done);
    }
  });
  const result = await fc.check(property, { seed: options.seed, numRuns: options.runs, ...(options.budgetMs === undefined ? {} : { interruptAfterTimeLimit: options.budgetMs }) });
  if (!result.failed || result.counterexample === null) return { failed: false, runs: result.numRuns, steps, seed: options.seed };
  const [cmds, faults, seeded] = result.counterexample;
  // fast-check keeps its own wrappers around the commands: the ones that ran, up to the failure.
  const ran = ([...cmds] as unknown as { cmd: SimCommand; hasRan: boolean }[]).filter((c) => c.hasRan);
  // Once more on a fresh simulation under the same faults, so that each command's steps replay the shrunk run itself (rerunCommands).
  const again = await simulation(seeded);
  if (faults.length > 0) again.injectFaults(faults);
  await rerunCommands(ran, { sim: again, faults: faults.length > 0 }).finally(() => again.close());
  const scenario = counterexampleScenario(`explore-${options.seed}`, ran, {
    seed: options.seed,
    description: `A counterexample found by platform-sim explore --seed ${options.seed} (shrunk). Replay the exploration with that command; this file replays the failing run.`,
  });
  // The run as the explorer ran it: its faults first; then, as the liveness phase, faults cleared
  // and ten minutes of virtual time with the invariant checkers on.
  const withFaults: Scenario = {
    ...scenario,
    options: { ...scenario.options, ...(seeded ? { schedule: 'seeded' as const } : {}) },
    steps: [
      ...(faults.length === 0 ? [] : [{ name: 'the fault profile of the run', fault: faults }]),
      ...scenario.steps,
      ...(faults.length === 0 ? [] : [{ fault: 'clear' as const }]),
      { name: 'liveness: time passes without faults', advance: '10m' },
    ],
  };
  return {
    failed: true,
    runs: result.numRuns,
    steps,
    seed: options.seed,
    failure: { error: String(result.errorInstance instanceof Error ? result.errorInstance.message : result.errorInstance), commands: ran.map((c) => String(c.cmd)), faults, schedule: seeded ? 'seeded' : 'fixed', scenario: withFaults },
  };
}
