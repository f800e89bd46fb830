/**
 * `platform-sim explore` and the library's `explore`: random workloads under random fault
 * profiles hold on the real simulation; against a broken controller a counterexample is found,
 * shrunk, and written as a scenario that fails the same way (and passes on the real controllers).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { createSimulation } from '../../src/index.ts';
import { explore, InProcessDriver, loadScenario, runScenario, type Scenario } from '../../src/testing.ts';
import { brokenControllers } from '../fixtures/brokenControllers.ts';
import { runCli } from '../cliRun.ts';
import { exploreCommand } from '../../src/cli/explore.ts';

describe('platform-sim explore', () => {
  it('explores with a seed, shows progress, and says the runs held (exit 0)', async () => {
    const r = await runCli('explore', '--seed', '3', '--runs', '10');
    expect(r.code).toBe(0);
    expect(r.out).toContain('exploring with seed 3: 10 runs');
    expect(r.out).toMatch(/^10 runs \([\d,]+ steps\) held: /m);
    expect(r.err.split('\n').at(-1)).toBe('[██████████] 10/10 runs');
  });

  it.each([
    [['explore', '--runs', '0'], 'platform-sim explore: --runs: "0" is not an integer ≥ 1 (see platform-sim explore --help)'],
    [['explore', '--budget', 'soon'], 'platform-sim explore: --budget: "soon" is not a positive Go duration such as 30s or 5m (see platform-sim explore --help)'],
    [['explore', '--frob'], 'platform-sim explore: unknown flag --frob (see platform-sim explore --help)'],
  ])('refuses bad usage %j (exit 2)', async (argv, message) => {
    expect(await runCli(...argv)).toEqual({ code: 2, out: '', err: message });
  });
});

describe('explore', () => {
  it('holds on the real simulation, faults included (seed 1 once caught a command checking a review a fault had answered)', async () => {
    const maker = await createSimulation({ seed: 1 });
    const requests = [btoa((await maker.createCertificateRequest({ commonName: 'x' })).request)];
    const result = await explore(fc, { seed: 1, runs: 20, requests });
    expect(result).toMatchObject({ failed: false, runs: 20, seed: 1 });
    expect(result.steps).toBeGreaterThan(20);
  });

  it('finds a broken controller, shrinks the run, and writes it as a scenario that fails the same way', async () => {
    const maker = await createSimulation({ seed: 1 });
    const requests = [btoa((await maker.createCertificateRequest({ commonName: 'x' })).request)];
    const broken = brokenControllers.orderedReadyWithoutWaiting;
    const result = await explore(fc, { seed: 5, runs: 200, requests, controllers: [broken] });
    expect(result.failed).toBe(true);
    const f = result.failure!;
    expect(f.commands.length).toBeLessThanOrEqual(4);
    expect(f.error).toMatch(/invariants broken/);
    // The scenario, through YAML and the loader, fails against the variant and passes against the real controllers.
    const dir = mkdtempSync(join(tmpdir(), 'psim-explore-'));
    const text = JSON.stringify(f.scenario);
    const loaded = loadScenario(text, join(dir, 'counterexample.json'));
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
    const withBroken = await runScenario(loaded.scenario, { driver: (s, seed) => InProcessDriver.start({ ...s, options: { ...s.options, controllers: [broken] } as NonNullable<Scenario['options']> }, seed) });
    expect(withBroken.outcome).toBe('failed');
    expect((await runScenario(loaded.scenario)).outcome).toBe('passed');
  });

  it('writes the counterexample as a scenario file from the command line, with the commands that replay it (exit 1)', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'psim-explore-')), 'found.yaml');
    const lines: string[] = [];
    const code = await exploreCommand(['--seed', '5', '--runs', '200', '--out', out], { out: (l) => lines.push(l), err: () => {} }, { controllers: [brokenControllers.orderedReadyWithoutWaiting] });
    expect(code).toBe(1);
    const text = lines.join('\n');
    expect(text).toMatch(/^counterexample after \d+ runs \(seed 5\), shrunk to \d+ commands/m);
    expect(text).toContain(`replay the run:         platform-sim run ${out}`);
    expect(text).toContain('replay the exploration: platform-sim explore --seed 5 --runs 200');
    const loaded = loadScenario(readFileSync(out, 'utf8'), out);
    expect(loaded.ok).toBe(true);
    expect(parse(readFileSync(out, 'utf8')).options).toMatchObject({ checkInvariants: true });
  });
});
