/**
 * checkReplay / checkDeterminism (src/testing/determinism.ts): a deterministic property passes for
 * every drawn input; one that keeps state between runs fails, naming the first differing trace
 * event, and fast-check shrinks the input.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Simulation } from '../../src/index.ts';
import { checkDeterminism, checkReplay, firstDifference } from '../../src/testing/determinism.ts';
import { serviceAccount } from '../../src/testing/arbitraries.ts';

const sas = '/api/v1/namespaces/default/serviceaccounts';

async function createAll(sim: Simulation, bodies: readonly object[]): Promise<void> {
  for (const body of bodies) await sim.create(sas, body);
  await sim.advance('90s');
}

describe('checkDeterminism', () => {
  it('passes a property that depends only on its input', async () => {
    await checkDeterminism(fc, fc.array(serviceAccount(fc), { maxLength: 4 }), createAll, { parameters: { numRuns: 8, seed: 42 } });
  });

  it('passes concurrent requests that need no crypto (their order is the call order)', async () => {
    await checkReplay(async (sim) => {
      await Promise.all(['a', 'b', 'c'].map((name) => sim.create(sas, { metadata: { name } })));
    });
  });

  it('fails a property that keeps state between runs, printing the first differing trace event', async () => {
    let runs = 0;
    const leaky = async (sim: Simulation, names: readonly string[]) => {
      runs++;
      for (const name of names) await sim.create(sas, { metadata: { name: `${name}-${runs % 2}` } });
    };
    let message = '';
    try {
      await checkDeterminism(fc, fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 3 }), leaky, { parameters: { numRuns: 20, seed: 7 } });
    } catch (e) {
      message = (e as Error).message;
    }
    // Shrunk to one name; the runs differ at its write (the request events before it are equal).
    expect(message).toContain('Counterexample: [["a"]]');
    expect(message).toMatch(/not deterministic \(seed 1\): trace event 2 of 2\/2 differs:\n {2}first run: {2}\{.*"type":"write".*"name":"a-1".*\}\n {2}second run: \{.*"type":"write".*"name":"a-0"/);
  });

  it('reports a world difference the trace does not show', () => {
    const trace = [{ seq: 1, at: '2026-01-01T00:00:00Z', type: 'clock' as const, to: '2026-01-01T00:00:00Z' }];
    expect(firstDifference({ hash: 'a', trace }, { hash: 'a', trace })).toBeNull();
    expect(firstDifference({ hash: 'a', trace }, { hash: 'b', trace })).toBe('the traces are equal but the world hashes differ: a vs b');
    expect(firstDifference({ hash: 'a', trace }, { hash: 'a', trace: [] })).toBe(`trace event 1 of 1/0 differs:\n  first run:  ${JSON.stringify(trace[0])}\n  second run: null`);
  });
});
