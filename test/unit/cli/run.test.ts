/**
 * `platform-sim run`: what it prints, its exit codes (0 passed, 1 a scenario failed or a file is
 * invalid — then nothing runs —, 2 bad usage), `--only`, `--seed`, and the failure report with
 * expected, seen and the replay command.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../cliRun.ts';
import { runUsage } from '../../../src/cli/run.ts';


const dir = mkdtempSync(join(tmpdir(), 'psim-run-'));
const file = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

const passing = file(
  'pass.yaml',
  `name: make-a-config-map
description: A ConfigMap is created and read back.
steps:
  - create: { apiVersion: v1, kind: ConfigMap, metadata: { name: settings }, data: { mode: fast } }
    capture: { uid: metadata.uid }
  - expect:
      object: { apiVersion: v1, kind: ConfigMap, name: settings }
      fields: [{ path: metadata.uid, equals: "\${uid}" }, { path: data.mode, equals: fast }]
`,
);
const failing = file(
  'fail.yaml',
  `name: wrong-expectation
steps:
  - create: { apiVersion: v1, kind: ConfigMap, metadata: { name: settings } }
  - create: { apiVersion: v1, kind: ConfigMap, metadata: { name: settings } }
    expect: { status: 422 }
  - settle: true
`,
);
const invalid = file('invalid.yaml', 'name: broken\nsteps:\n  - advance: soon\n');

describe('platform-sim run', () => {
  it('prints its flags with --help and `help run`', async () => {
    expect(await runCli('run', '--help')).toEqual({ code: 0, out: runUsage, err: '' });
    expect(await runCli('help', 'run')).toEqual({ code: 0, out: runUsage, err: '' });
  });

  it('runs a scenario and prints each step with its virtual time, then the summary', async () => {
    const r = await runCli('run', passing);
    expect(r.code).toBe(0);
    expect(r.out).toContain('● make-a-config-map');
    expect(r.out).toMatch(/\+00:00 +1 ✓ create ConfigMap settings\n/);
    expect(r.out).toMatch(/\+00:00 +2 ✓ expect ConfigMap settings\n/);
    expect(r.out.split('\n').at(-1)).toBe('1 passed, 0 failed');
  });

  it('shows a failure with expected, seen and the command that replays it; exit 1; later steps skipped', async () => {
    const r = await runCli('run', failing, '--seed', '5');
    expect(r.code).toBe(1);
    expect(r.out).toContain('2 ✗ create ConfigMap settings');
    expect(r.out).toContain('✗ expected status 422, saw 409 AlreadyExists: configmaps "settings" already exists');
    expect(r.out).toMatch(/replay: platform-sim run \S*fail\.yaml --only wrong-expectation --seed 5/);
    const json = JSON.parse((await runCli('run', failing, '--json')).out) as { failed: number; scenarios: { steps: { outcome: string; skipped?: string }[] }[] };
    expect(json.failed).toBe(1);
    expect(json.scenarios[0]!.steps[2]).toMatchObject({ outcome: 'skipped', skipped: 'an earlier step failed' });
  });

  it('runs nothing when a file has a mistake, and names file, line and column (exit 1)', async () => {
    const r = await runCli('run', passing, invalid);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/invalid\.yaml:3:14: steps\[0\]\.advance: is not a Go duration such as 500ms, 90s or 1h30m\n.*1 mistake in scenario files; nothing was run/);
  });

  it('runs only the scenarios named by --only, and refuses names that are not there', async () => {
    const r = await runCli('run', passing, failing, '--only', 'make-a-config-map');
    expect(r).toMatchObject({ code: 0 });
    expect(r.out).not.toContain('wrong-expectation');
    expect(await runCli('run', passing, '--only', 'nope')).toMatchObject({ code: 2, err: 'platform-sim run: --only: no scenario is named "nope"' });
  });

  it('refuses two scenarios with one name', async () => {
    const copy = file('copy.yaml', 'name: make-a-config-map\nsteps:\n  - settle: true\n');
    const r = await runCli('run', passing, copy);
    expect(r.code).toBe(1);
    expect(r.err).toContain('copy.yaml:1:1: scenario name "make-a-config-map" is also the name of');
  });

  it.each([
    [['run'], 'platform-sim run: no scenario files or folders given (see platform-sim run --help)'],
    [['run', 'x.yaml', '--seed', 'abc'], 'platform-sim run: --seed: "abc" is not a non-negative integer (see platform-sim run --help)'],
    [['run', 'x.yaml', '--frob'], 'platform-sim run: unknown flag --frob (see platform-sim run --help)'],
    [['run', 'x.yaml', '--token', 't'], 'platform-sim run: --token needs --target (see platform-sim run --help)'],
    [['run', 'x.yaml', '--target', 'localhost:1'], 'platform-sim run: --target: "localhost:1" is not an http:// or https:// URL (see platform-sim run --help)'],
    [['run', '/no/such/folder'], 'platform-sim run: no such file or folder: /no/such/folder'],
  ])('bad usage %j is one line and exit 2', async (argv, message) => {
    expect(await runCli(...argv)).toEqual({ code: 2, out: '', err: message });
  });

  it('prints byte-identical --json for the same inputs, and --seed changes what is drawn', async () => {
    const a = await runCli('run', passing, '--json');
    expect((await runCli('run', passing, '--json')).out).toBe(a.out);
    expect(a.err).toBe('[1/1] make-a-config-map');
    const seeded = await runCli('run', passing, '--json', '--seed', '9');
    expect(JSON.parse(seeded.out).scenarios[0].seed).toBe(9);
  });
});
