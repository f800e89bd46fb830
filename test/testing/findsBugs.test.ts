/**
 * Proof that the kit finds bugs: each deliberately broken controller (test/fixtures) takes the
 * real one's place, and model-based runs of the kit's commands catch it within a bounded budget,
 * shrinking to a counterexample of a few commands (printed), written as a scenario file that
 * fails against the variant and passes against the real controllers. The real controllers pass
 * the same model runs (test/unit/testing/commands.test.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSimulation, type Controller } from '../../src/index.ts';
import { stringify } from 'yaml';
import { counterexampleScenario, emptyModel, InProcessDriver, loadScenario, runScenario, simulationCommands, type Scenario, type SimCommand } from '../../src/testing.ts';
import { brokenControllers } from '../fixtures/brokenControllers.ts';

let requests: string[] | undefined;
async function csrRequests(): Promise<string[]> {
  const maker = await createSimulation({ seed: 1 });
  requests ??= (await Promise.all(['app-a', 'app-b'].map((cn) => maker.createCertificateRequest({ commonName: cn, organizations: ['dev'] })))).map((m) => btoa(m.request));
  return requests;
}

async function counterexample(variant: string, broken: Controller): Promise<SimCommand[]> {
  const arbitraries = simulationCommands(fc, { requests: await csrRequests() });
  const result = await fc.check(
    fc.asyncProperty(fc.commands(arbitraries, { maxCommands: 25 }), async (cmds) => {
      const sim = await createSimulation({ seed: 1, checkInvariants: true, controllers: [broken] });
      await fc.asyncModelRun(() => ({ model: emptyModel(), real: { sim } }), cmds);
    }),
    { numRuns: 1000, seed: 11 },
  );
  expect(result.failed, `${variant} was not caught in 1,000 runs`).toBe(true);
  // The shrunk run: the commands up to the one that failed.
  const commands = [...(result.counterexample?.[0] ?? [])] as unknown as { cmd: SimCommand; hasRan: boolean }[];
  const ran = commands.filter((c) => c.hasRan).map((c) => c.cmd);
  console.log(`${variant}: caught after ${result.numRuns} runs; counterexample: ${ran.map(String).join(' → ')}\n  ${String(result.errorInstance).split('\n')[0]}`);
  return ran;
}

describe('the testing kit catches broken controllers', () => {
  it.each(Object.entries(brokenControllers))('%s, and writes the counterexample as a scenario that fails the same way', async (variant, broken) => {
    const commands = await counterexample(variant, broken);
    expect(commands.length).toBeGreaterThan(0);
    expect(commands.length).toBeLessThanOrEqual(6);
    // The counterexample as a file: it loads (schema and all), and run against the broken variant it fails;
    // against the real controllers it passes.
    const text = stringify(counterexampleScenario(`counterexample-${variant.toLowerCase()}`, commands, { seed: 1 }));
    const loaded = loadScenario(text, `${variant}.yaml`);
    if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('\n'));
    const withBroken = await runScenario(loaded.scenario, { driver: (sc, seed) => InProcessDriver.start({ ...sc, options: { ...sc.options, controllers: [broken] } as NonNullable<Scenario['options']> }, seed) });
    expect(withBroken.outcome, text).toBe('failed');
    expect((await runScenario(loaded.scenario)).outcome, text).toBe('passed');
  });
});
