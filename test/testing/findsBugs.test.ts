/**
 * Proof that the kit finds bugs: each deliberately broken controller (test/fixtures) takes the
 * real one's place, and model-based runs of the kit's commands catch it within a bounded budget,
 * shrinking to a counterexample of a few commands (printed). The real controllers pass the same
 * runs (test/unit/testing/commands.test.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSimulation, type Controller } from '../../src/index.ts';
import { emptyModel, simulationCommands } from '../../src/testing.ts';
import { brokenControllers } from '../fixtures/brokenControllers.ts';

let requests: string[] | undefined;
async function csrRequests(): Promise<string[]> {
  const maker = await createSimulation({ seed: 1 });
  requests ??= (await Promise.all(['app-a', 'app-b'].map((cn) => maker.createCertificateRequest({ commonName: cn, organizations: ['dev'] })))).map((m) => btoa(m.request));
  return requests;
}

async function counterexample(variant: string, broken: Controller): Promise<string[]> {
  const commands = simulationCommands(fc, { requests: await csrRequests() });
  const result = await fc.check(
    fc.asyncProperty(fc.commands(commands, { maxCommands: 25 }), async (cmds) => {
      const sim = await createSimulation({ seed: 1, checkInvariants: true, controllers: [broken] });
      await fc.asyncModelRun(() => ({ model: emptyModel(), real: { sim } }), cmds);
    }),
    { numRuns: 1000, seed: 11 },
  );
  expect(result.failed, `${variant} was not caught in 1,000 runs`).toBe(true);
  // The shrunk run: the commands that ran, up to the one that failed.
  const steps = String(result.counterexample?.[0] ?? '').split(',').map((c) => c.trim()).filter((c) => c !== '');
  console.log(`${variant}: caught after ${result.numRuns} runs; counterexample: ${steps.join(' → ')}\n  ${String(result.errorInstance).split('\n')[0]}`);
  return steps;
}

describe('the testing kit catches broken controllers', () => {
  it.each(Object.entries(brokenControllers))('%s', async (variant, broken) => {
    const steps = await counterexample(variant, broken);
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.length).toBeLessThanOrEqual(6);
  });
});
