/**
 * Issue 15: model-based runs of the testing kit — 1,000 runs of 30 commands each, every run on a
 * fresh simulation (`checkInvariants` on, as the kit's users run them): runs per second and the
 * time of a fresh simulation after the first; beside them fast-check's own cost of drawing the
 * 1,000 command sequences. And the explorer: runs per second of `explore` (each run also lives
 * through its liveness phase).
 */
import fc from 'fast-check';
import { performance } from 'node:perf_hooks';
import { createSimulation, testingKit } from './package.ts';
import { fmt, medianMs } from './measure.ts';
import type { Row } from './store.bench.ts';

export async function testingBench(progress: (msg: string) => void): Promise<Row[]> {
  const { emptyModel, simulationCommands } = testingKit;
  const maker = await createSimulation({ seed: 1 });
  const requests = (await Promise.all(['a', 'b'].map((cn) => maker.createCertificateRequest({ commonName: cn })))).map((m) => btoa(m.request));
  const commands = fc.commands(simulationCommands(fc, { requests }), { size: 'max', maxCommands: 30 });
  const t = performance.now();
  const sequences = fc.sample(commands, { seed: 7, numRuns: 1000 });
  const drawMs = performance.now() - t;
  const fresh = await medianMs(async () => {
    await createSimulation({ seed: 1, checkInvariants: true });
  }, 50);
  progress('testing: 1,000 model-based runs of up to 30 commands');
  let steps = 0;
  const t0 = performance.now();
  for (const [i, cmds] of sequences.entries()) {
    const sim = await createSimulation({ seed: 1, checkInvariants: true });
    await fc.asyncModelRun(() => ({ model: emptyModel(), real: { sim } }), cmds);
    steps += [...cmds].length;
    if (i % 250 === 249) progress(`  ${i + 1} runs`);
  }
  const ms = performance.now() - t0;
  progress('testing: platform-sim explore, 200 runs');
  const t2 = performance.now();
  const explored = await testingKit.explore(fc, { seed: 1, runs: 200, requests });
  const exploreMs = performance.now() - t2;
  return [
    { what: '1,000 model-based runs of up to 30 commands, fresh simulation each, invariants on (runs/s)', value: `${fmt(1000 / (ms / 1000))} (${fmt(ms / 1000)} s, ${fmt(steps / (ms / 1000))} commands/s)`, baseline: `${fmt(drawMs)} ms (fast-check drawing the 1,000 sequences)`, target: '', ok: null },
    { what: 'platform-sim explore: runs of up to 30 commands under fault profiles, safety then liveness (runs/s)', value: `${fmt(explored.runs / (exploreMs / 1000))} (${explored.runs} runs in ${fmt(exploreMs / 1000)} s${explored.failed ? ', a counterexample found' : ''})`, baseline: '', target: '', ok: null },
    { what: 'platform-sim explore: steps (commands carried out, invariants after each) per second', value: `${fmt(explored.steps / (exploreMs / 1000))} (${explored.steps.toLocaleString('en-US')} steps)`, baseline: '', target: '', ok: null },
    { what: 'a fresh simulation after the first, invariants on (ms)', value: fmt(fresh), baseline: '', target: '< 2 ms', ok: fresh < 2 },
  ];
}
