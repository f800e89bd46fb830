/**
 * Options are checked before anything runs: an unknown key or a value of the wrong kind is a
 * PlatformSimError (PSIM_OPTION_INVALID) naming it; `advance` takes a Go duration or a number of
 * milliseconds and refuses anything else with PSIM_DURATION_INVALID.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation, type SimulationOptions } from '../../../src/index.ts';
import { PlatformSimError } from '../../../src/sim/options.ts';
import type { Controller } from '../../../src/controllers/types.ts';

async function refusal(options: unknown): Promise<PlatformSimError> {
  try {
    await createSimulation(options as SimulationOptions);
  } catch (e) {
    return e as PlatformSimError;
  }
  throw new Error(`accepted ${JSON.stringify(options)}`);
}

describe('createSimulation options', () => {
  it.each([
    [{ settle: 'sometimes' }, 'option settle: must be "auto" or "manual", not "sometimes"'],
    [{ schedule: 'x' }, 'option schedule: must be "fixed" or "seeded", not "x"'],
    [{ groupDomain: 'example.com' }, 'option groupDomain: must be "platform.io" or "k8s.io", not "example.com"'],
    [{ nodeAgent: 'yes' }, 'option nodeAgent: must be true or false, not "yes"'],
    [{ podReadyAfter: 5000 }, 'option podReadyAfter: must be a string, not 5000'],
    [{ seed: { n: 1 } }, 'option seed: must be a number or a string, not {"n":1}'],
    [{ apiAudiences: 'a,b' }, 'option apiAudiences: must be a list of strings, not "a,b"'],
    [{ users: [{ token: 't' }] }, 'option users[0].user: is required'],
    [{ users: [{ token: 't', user: 'u', group: ['g'] }] }, 'option users[0].group: unknown field'],
    [{ requestHeader: { clientCA: 'x', usernameHeader: ['X'] } }, 'option requestHeader.usernameHeader: unknown field'],
    [{ featureGates: { ServiceAccountTokenNodeBinding: 'on' } }, 'option featureGates: must be an object of Name: true|false'],
    [{ controllers: [{ name: 'mine' }] }, 'option controllers[0].actor: must be a function (controller mine)'],
    [{ sttle: 'auto' }, 'option sttle: unknown option (known: seed, startTime,'],
    [{ host: '127.0.0.1' }, 'option host: unknown option'],
  ])('refuses %j, naming it', async (options, message) => {
    const e = await refusal(options);
    expect(e).toBeInstanceOf(PlatformSimError);
    expect(e.code).toBe('PSIM_OPTION_INVALID');
    expect(e.message.startsWith(message)).toBe(true);
  });

  it('accepts every documented option, controllers as controller objects, and undefined as absent', async () => {
    const mine: Controller = { name: 'mine', actor: () => ({ manager: 'mine', user: { username: 'mine', groups: [] } }), reconcile: () => [], nextWakeup: () => null };
    const sim = await createSimulation({
      seed: 'abc',
      startTime: '2026-01-01T00:00:00Z',
      groupDomain: 'k8s.io',
      settle: 'manual',
      nodeAgent: false,
      podReadyAfter: '1s',
      compactionInterval: '10m',
      users: [{ token: 't', user: 'u', uid: '1', groups: ['g'] }],
      anonymousAuth: true,
      tokenIssuer: 'https://issuer.example',
      apiAudiences: ['a'],
      serviceAccountMaxTokenExpiration: '1h',
      serviceAccountExtendTokenExpiration: false,
      featureGates: { ServiceAccountTokenNodeBinding: true },
      clusterSigningDuration: '24h',
      faults: [],
      checkInvariants: true,
      controllers: [mine],
      schedule: 'seeded',
      // A spread of optional settings may leave keys undefined: they count as absent.
      ...({ clientCA: undefined } as object),
    });
    expect(sim.now()).toBe('2026-01-01T00:00:00Z');
  });
});

describe('advance', () => {
  it('takes a Go duration or a number of milliseconds', async () => {
    const sim = await createSimulation({ startTime: '2026-01-01T00:00:00Z' });
    await sim.advance('90s');
    expect(sim.now()).toBe('2026-01-01T00:01:30Z');
    await sim.advance(30_000);
    expect(sim.now()).toBe('2026-01-01T00:02:00Z');
    await sim.advance(0);
    expect(sim.now()).toBe('2026-01-01T00:02:00Z');
  });

  it.each([['soon'], ['-5s'], [-1], [Number.NaN], [Number.POSITIVE_INFINITY], [undefined], [{ seconds: 5 }]])('refuses %s', async (bad) => {
    const sim = await createSimulation();
    const before = sim.now();
    await expect(sim.advance(bad as string)).rejects.toMatchObject({ name: 'PlatformSimError', code: 'PSIM_DURATION_INVALID', message: expect.stringMatching(/^advance: .* is neither a non-negative Go duration .* nor a number of milliseconds$/) });
    expect(sim.now()).toBe(before);
  });
});
