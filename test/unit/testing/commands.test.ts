/**
 * The kit's model-based commands run under fc.asyncModelRun against fresh simulations: the model
 * agrees with every answer and the invariants hold after every command. Replay a failure with
 * FC_SEED=<seed>.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSimulation } from '../../../src/index.ts';
import { stringify } from 'yaml';
import { counterexampleScenario, emptyModel, simulationCommands, type SimCommand } from '../../../src/testing/commands.ts';
import { loadScenario } from '../../../src/scenario/load.ts';
import { runScenario } from '../../../src/scenario/run.ts';

describe('model-based commands', () => {
  it('run 30-command sequences with the model and the invariants agreeing', async () => {
    const maker = await createSimulation({ seed: 1 });
    const requests = (await Promise.all(['a', 'b'].map((cn) => maker.createCertificateRequest({ commonName: cn })))).map((m) => btoa(m.request));
    await fc.assert(
      fc.asyncProperty(fc.commands(simulationCommands(fc, { requests }), { maxCommands: 30 }), async (cmds) => {
        const sim = await createSimulation({ seed: 1, checkInvariants: true });
        await fc.asyncModelRun(() => ({ model: emptyModel(), real: { sim } }), cmds);
      }),
      { numRuns: 40 },
    );
  });

  it('write what they ran as a scenario that passes against the same simulation', async () => {
    const maker = await createSimulation({ seed: 1 });
    const requests = [btoa((await maker.createCertificateRequest({ commonName: 'a' })).request)];
    let replayed = 0;
    for (const cmds of fc.sample(fc.commands(simulationCommands(fc, { requests }), { maxCommands: 20 }), { seed: 5, numRuns: 12 })) {
      const sim = await createSimulation({ seed: 1 });
      await fc.asyncModelRun(() => ({ model: emptyModel(), real: { sim } }), cmds);
      const wrapped = [...cmds] as unknown as { cmd: SimCommand; hasRan: boolean }[];
      if (!wrapped.some((c) => c.hasRan)) continue;
      const text = stringify(counterexampleScenario('replayed', wrapped, { seed: 1 }));
      const loaded = loadScenario(text, 'replayed.yaml');
      if (!loaded.ok) throw new Error(loaded.errors.map((e) => `${e.line}:${e.column} ${e.message}`).join('\n'));
      const r = await runScenario(loaded.scenario);
      expect(r.outcome, `${text}\n${JSON.stringify(r.steps.find((x) => x.outcome !== 'passed'))}`).toBe('passed');
      replayed++;
    }
    expect(replayed).toBeGreaterThanOrEqual(6);
  });

  it('catch a simulation that disagrees with the model', async () => {
    const sim = await createSimulation({ seed: 1 });
    const requests = [btoa((await sim.createCertificateRequest({ commonName: 'x' })).request)];
    const commands = fc.sample(fc.tuple(...simulationCommands(fc, { requests })), { numRuns: 1, seed: 3 })[0]! as SimCommand[];
    const create = commands[commands.length - 2]!;
    const model = emptyModel();
    await create.run(model, { sim });
    // The model says the request is pending; a second create of the same name is not a move the model allows.
    expect(create.check(model)).toBe(false);
    // A request created behind the model's back makes the next create disagree: 409, not 201.
    await expect(create.run(emptyModel(), { sim })).rejects.toThrow(/expected 201, got 409/);
  });
});
