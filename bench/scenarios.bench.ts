/**
 * Issue 14: the whole scenario library in under 10 s of wall time, as `npm run scenarios` runs it
 * (tsx from the sources, every scenario in process, report.html written), beside the same command
 * running one scenario (the fixed cost: node, tsx, loading the library and the schema).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fmt } from './measure.ts';
import type { Row } from './store.bench.ts';

const root = join(import.meta.dirname, '..');

function count(dir: string): number {
  return readdirSync(dir).reduce((n, e) => n + (statSync(join(dir, e)).isDirectory() ? count(join(dir, e)) : /\.ya?ml$/.test(e) ? 1 : 0), 0);
}

/** Wall time (ms) of the CLI through tsx, as the npm script runs it; median of `runs`. */
function cliMs(args: readonly string[], runs: number): number {
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    execFileSync(process.execPath, ['--import', 'tsx', join(root, 'src', 'cli', 'main.ts'), 'run', ...args], { cwd: root, stdio: 'ignore' });
    xs.push(performance.now() - t);
  }
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

export async function scenariosBench(progress: (msg: string) => void): Promise<Row[]> {
  const report = join(mkdtempSync(join(tmpdir(), 'psim-bench-')), 'report.html');
  const n = count(join(root, 'scenarios'));
  progress(`scenarios: the library of ${n}, three runs`);
  const whole = cliMs(['scenarios', '--report', report], 3);
  const one = cliMs(['scenarios/workloads/ordered-ready-halt.yaml', '--report', report], 3);
  return [
    {
      what: `npm run scenarios: ${n} scenarios in process and report.html (s)`,
      value: fmt(whole / 1000),
      baseline: `${fmt(one / 1000)} (the same command, one scenario)`,
      target: '< 10 s',
      ok: whole < 10_000,
    },
  ];
}
