/**
 * Proof that the kit finds bugs: each deliberately broken controller (test/fixtures) takes the
 * real one's place, and so does a broken check of bound service-account tokens (the option
 * `serviceAccountTokenValidator`); model-based runs of the kit's commands catch each within a
 * bounded budget, shrinking to a counterexample of a few commands (printed), written as a scenario
 * file that fails against the variant and passes against the real simulation; the explorer
 * catches the broken token check too. The real simulation passes the same model runs
 * (test/unit/testing/commands.test.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSimulation, type SimulationOptions } from '../../src/index.ts';
import { parse, stringify } from 'yaml';
import { counterexampleScenario, emptyModel, explore, InProcessDriver, loadScenario, rerunCommands, runScenario, simulationCommands, type Scenario, type SimCommand } from '../../src/testing.ts';
import { brokenControllers } from '../fixtures/brokenControllers.ts';
import { tokenReviewIgnoringPodUid } from '../fixtures/brokenTokenReview.ts';

/** What puts a broken variant in a simulation's place: a controller, or the token validator. */
type Under = Pick<SimulationOptions, 'controllers' | 'serviceAccountTokenValidator'>;

let requests: string[] | undefined;
async function csrRequests(): Promise<string[]> {
  const maker = await createSimulation({ seed: 1 });
  requests ??= (await Promise.all(['app-a', 'app-b'].map((cn) => maker.createCertificateRequest({ commonName: cn, organizations: ['dev'] })))).map((m) => btoa(m.request));
  return requests;
}

async function counterexample(variant: string, under: Under): Promise<{ commands: SimCommand[]; error: string }> {
  const arbitraries = simulationCommands(fc, { requests: await csrRequests() });
  const result = await fc.check(
    fc.asyncProperty(fc.commands(arbitraries, { maxCommands: 25 }), async (cmds) => {
      const sim = await createSimulation({ seed: 1, checkInvariants: true, ...under });
      await fc.asyncModelRun(() => ({ model: emptyModel(), real: { sim } }), cmds);
    }),
    { numRuns: 1000, seed: 11 },
  );
  expect(result.failed, `${variant} was not caught in 1,000 runs`).toBe(true);
  // The shrunk run: the commands up to the one that failed.
  const commands = [...(result.counterexample?.[0] ?? [])] as unknown as { cmd: SimCommand; hasRan: boolean }[];
  const ran = commands.filter((c) => c.hasRan).map((c) => c.cmd);
  // Once more, so that each command's steps are what it saw in the shrunk run; it fails the same way.
  const again = await rerunCommands(ran, { sim: await createSimulation({ seed: 1, checkInvariants: true, ...under }) });
  expect(String(again).split('\n')[0]).toBe(String(result.errorInstance).split('\n')[0]);
  const error = String(result.errorInstance).split('\n')[0]!;
  console.log(`${variant}: caught after ${result.numRuns} runs; counterexample: ${ran.map(String).join(' → ')}\n  ${error}`);
  return { commands: ran, error };
}

/** The counterexample as a file: it loads (schema and all), fails against the variant and passes against the real simulation. */
async function replaysAsScenario(name: string, commands: SimCommand[], under: Under): Promise<string> {
  const text = stringify(counterexampleScenario(`counterexample-${name.toLowerCase()}`, commands, { seed: 1 }));
  const loaded = loadScenario(text, `${name}.yaml`);
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('\n'));
  const withBroken = await runScenario(loaded.scenario, { driver: (sc, seed) => InProcessDriver.start({ ...sc, options: { ...sc.options, ...under } as NonNullable<Scenario['options']> }, seed) });
  expect(withBroken.outcome, text).toBe('failed');
  expect((await runScenario(loaded.scenario)).outcome, text).toBe('passed');
  return text;
}

describe('the testing kit catches broken controllers', () => {
  it.each(Object.entries(brokenControllers))('%s, and writes the counterexample as a scenario that fails the same way', async (variant, broken) => {
    const { commands } = await counterexample(variant, { controllers: [broken] });
    expect(commands.length).toBeGreaterThan(0);
    expect(commands.length).toBeLessThanOrEqual(6);
    await replaysAsScenario(variant, commands, { controllers: [broken] });
  });
});

describe('the explorer catches the broken controllers, fault profiles and all', () => {
  it.each(Object.entries(brokenControllers))('%s: caught within 500 runs, shrunk to a few commands, written as a scenario that fails the same way', async (variant, broken) => {
    const result = await explore(fc, { seed: 2, runs: 500, requests: await csrRequests(), controllers: [broken] });
    expect(result.failed, `${variant} was not caught by the explorer in 500 runs`).toBe(true);
    const f = result.failure!;
    console.log(`${variant} (explore): caught after ${result.runs} runs; counterexample: ${f.commands.join(' → ')}`);
    expect(f.commands.length).toBeLessThanOrEqual(4);
    const loaded = loadScenario(stringify(f.scenario), `${variant}.yaml`);
    if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('\n'));
    const withBroken = await runScenario(loaded.scenario, { driver: (sc, seed) => InProcessDriver.start({ ...sc, options: { ...sc.options, controllers: [broken] } as NonNullable<Scenario['options']> }, seed) });
    expect(withBroken.outcome).toBe('failed');
    expect((await runScenario(loaded.scenario)).outcome).toBe('passed');
  });
});

describe('the testing kit catches a TokenReview that ignores the bound pod\'s uid', () => {
  const under: Under = { serviceAccountTokenValidator: tokenReviewIgnoringPodUid };

  it('model-based commands: a token bound to a pod that is deleted and made again must stop working', async () => {
    const { commands, error } = await counterexample('tokenReviewIgnoringPodUid', under);
    // Shrunk to its essence: a set, a token bound to its first pod, the pod deleted (the set makes it again, with a new uid).
    expect(commands.map(String)).toEqual([expect.stringMatching(/^create set (web|db) ×\d/), expect.stringMatching(/^token bound to pod (web|db)-0, \d+s$/), expect.stringMatching(/^delete pod (web|db)-0$/)]);
    expect(error).toMatch(/must be refused with "\[invalid bearer token, pod UID \(.+\) does not match service account pod ref claim \(.+\)\]", but the review says authenticated as system:serviceaccount:default:default$/);
    // The scenario captures both pod uids and expects the review's exact error.
    const text = await replaysAsScenario('tokenReviewIgnoringPodUid', commands, under);
    expect(parse(text).steps.at(-1).expect).toEqual({ token: '${token1}', authenticated: false, error: '[invalid bearer token, pod UID (${token1.podNow}) does not match service account pod ref claim (${token1.pod})]' });
  });

  it('the explorer: shrunk to a few commands, written as a scenario that fails the same way', async () => {
    const maker = await createSimulation({ seed: 1 });
    const requests = [btoa((await maker.createCertificateRequest({ commonName: 'x' })).request)];
    const result = await explore(fc, { seed: 6, runs: 1000, requests, ...under });
    expect(result.failed).toBe(true);
    const f = result.failure!;
    console.log(`tokenReviewIgnoringPodUid (explore): caught after ${result.runs} runs; counterexample: ${f.commands.join(' → ')}`);
    expect(f.commands.length).toBeLessThanOrEqual(4);
    expect(f.error).toMatch(/pod UID \(.+\) does not match service account pod ref claim .* but the review says authenticated/);
    const loaded = loadScenario(JSON.stringify(f.scenario), 'explored.json');
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
    const withBroken = await runScenario(loaded.scenario, { driver: (s, seed) => InProcessDriver.start({ ...s, options: { ...s.options, ...under } as NonNullable<Scenario['options']> }, seed) });
    expect(withBroken.outcome).toBe('failed');
    expect((await runScenario(loaded.scenario)).outcome).toBe('passed');
  });
});
