/**
 * The bound-token commands agree with the real simulation: a token bound to a pod works while that
 * pod is there, and a review says exactly why it stopped (the pod replaced by a new one of the
 * same name, the pod gone, the token expired); the run written as a scenario passes against the
 * simulation and fails against a TokenReview that ignores the bound pod's uid.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { createSimulation } from '../../src/index.ts';
import { counterexampleScenario, emptyModel, InProcessDriver, loadScenario, rerunCommands, runScenario, simulationCommands, type Scenario, type SimCommand } from '../../src/testing.ts';
import { BoundToken } from '../../src/testing/boundTokenCommands.ts';
import { tokenReviewIgnoringPodUid } from '../fixtures/brokenTokenReview.ts';

/** The command that prints as `text`, drawn from the kit's own arbitraries. */
function command(text: string): SimCommand {
  for (const arb of simulationCommands(fc)) {
    const found = fc.sample(arb, { seed: 1, numRuns: 400 }).find((c) => String(c) === text);
    if (found !== undefined) return found;
  }
  throw new Error(`no command prints as "${text}"`);
}

const story = (): SimCommand[] =>
  [
    'create set web ×2',
    'token bound to pod web-0, 600s',
    'token bound to pod web-0, 3600s',
    'token bound to pod web-9, 600s', // no such pod (the arbitraries bind to a set's first pod only): 404, nothing remembered
    'review bound tokens',
    'delete pod web-0',
    'advance 120s',
    'advance 120s',
    'advance 120s',
    'advance 120s',
    'advance 120s',
    'advance 120s',
    'review bound tokens',
    'scale web to 0',
    'review bound tokens',
  ].map((text) => (text.includes('web-9') ? new BoundToken('web', 9, 600) : command(text)));

describe('bound-token commands', () => {
  it('hold against the simulation: valid, then replaced, expired and gone, each for its exact reason', async () => {
    const commands = story();
    const sim = await createSimulation({ seed: 1, checkInvariants: true });
    expect(await rerunCommands(commands, { sim })).toBeUndefined();
    const scenario = counterexampleScenario('bound-tokens', commands, { seed: 1 });
    const expectations = scenario.steps.flatMap((s) => ('expect' in s && s.expect !== undefined && 'token' in s.expect ? [s.expect] : []));
    expect(expectations).toEqual([
      { token: '${token1}', authenticated: true, user: { username: 'system:serviceaccount:default:default' } },
      { token: '${token2}', authenticated: true, user: { username: 'system:serviceaccount:default:default' } },
      { token: '${token1}', authenticated: true, user: { username: 'system:serviceaccount:default:default' } },
      { token: '${token2}', authenticated: true, user: { username: 'system:serviceaccount:default:default' } },
      // delete pod web-0: the set made it again at once, with a new uid.
      { token: '${token1}', authenticated: false, error: '[invalid bearer token, pod UID (${token1.podNow}) does not match service account pod ref claim (${token1.pod})]' },
      { token: '${token2}', authenticated: false, error: '[invalid bearer token, pod UID (${token2.podNow}) does not match service account pod ref claim (${token2.pod})]' },
      // 12 minutes later: the first token expired (600 s + 60 s of leeway).
      { token: '${token1}', authenticated: false, error: '[invalid bearer token, service account token has expired]' },
      { token: '${token2}', authenticated: false, error: '[invalid bearer token, pod UID (${token2.podNow}) does not match service account pod ref claim (${token2.pod})]' },
      // Scaled to 0: the pod is gone.
      { token: '${token1}', authenticated: false, error: '[invalid bearer token, service account token has expired]' },
      { token: '${token2}', authenticated: false, error: '[invalid bearer token, service account token has been invalidated]' },
    ]);
    expect(scenario.steps.find((s) => s.name === 'token bound to pod web-9, 600s')).toMatchObject({ expect: { status: 404 } });
    // As a file: it passes against the simulation, and fails against the broken TokenReview.
    const loaded = loadScenario(stringify(scenario), 'bound-tokens.yaml');
    if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('\n'));
    const real = await runScenario(loaded.scenario);
    expect(real.outcome, JSON.stringify(real.steps.find((s) => s.outcome !== 'passed'))).toBe('passed');
    const broken = await runScenario(loaded.scenario, { driver: (s, seed) => InProcessDriver.start({ ...s, options: { ...s.options, serviceAccountTokenValidator: tokenReviewIgnoringPodUid } as NonNullable<Scenario['options']> }, seed) });
    expect(broken.outcome).toBe('failed');
  });

  it('find nothing wrong in random runs on the real simulation, pods deleted under bound tokens included', async () => {
    let exercised = 0;
    await fc.assert(
      fc.asyncProperty(fc.commands(simulationCommands(fc), { maxCommands: 30, size: 'medium' }), async (cmds) => {
        const sim = await createSimulation({ seed: 1, checkInvariants: true });
        await fc.asyncModelRun(() => ({ model: emptyModel(), real: { sim } }), cmds);
        const ran = ([...cmds] as unknown as { cmd: SimCommand; hasRan: boolean }[]).filter((c) => c.hasRan).map((c) => String(c.cmd));
        const bound = ran.findIndex((c) => c.startsWith('token bound to pod'));
        if (bound >= 0 && ran.slice(bound + 1).some((c) => c.startsWith('delete pod') || c === 'review bound tokens')) exercised++;
      }),
      { numRuns: 150, seed: 3 },
    );
    // The runs did review tokens after they were bound, not only issue them.
    expect(exercised).toBeGreaterThan(10);
  });
});
