/**
 * `platform-sim run <files or folders…>`: loads every scenario (nothing runs when a file has a
 * mistake: each is printed with file, line and column), runs them in process — or against a
 * server with `--target`/`--kubeconfig` — and prints each step with its virtual time and what the
 * controllers did after it; `--json` prints the results as one JSON document instead (the same
 * bytes for the same inputs), `--report out.html` writes the timeline report. Exit 0 when every
 * scenario passed or was skipped, 1 when one failed or a file is invalid, 2 on bad usage.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatLocated, loadScenario, type LocatedError } from '../scenario/load.ts';
import { InProcessDriver } from '../scenario/inProcess.ts';
import { runScenario, type ScenarioResult, type StepRecord } from '../scenario/run.ts';
import { renderScenarioReport, type ReportedScenario } from '../scenario/report.ts';
import type { Scenario } from '../scenario/format.ts';
import type { Io } from './cli.ts';
import { fromKubeconfig, type ServerTarget } from './target.ts';
import { commandFlags } from './commandFlags.ts';
import { RemoteTarget } from './remoteDriver.ts';

export const runUsage = `usage: platform-sim run <files or folders…> [flags]
  --seed N                       run every scenario with this seed instead of its own
  --only NAME                    run only the scenario of this name (repeatable)
  --json                         print the results as one JSON document (same inputs, same bytes)
  --report PATH                  write an HTML report: each scenario's steps beside its timeline
  --target URL, --token T        run against this server (conformance) instead of in process
  --kubeconfig PATH              the server, CA and token of a kubeconfig's current context
  --certificate-authority PATH   PEM of the CA that signed the target's serving certificate
  --insecure-skip-tls-verify     do not verify the target's serving certificate
Folders are searched for *.yaml and *.yml files. The format: docs/scenarios.md.`;

interface RunFlags {
  readonly paths: string[];
  seed?: number;
  readonly only: string[];
  json: boolean;
  report?: string;
  target?: ServerTarget & { server: string };
}

type Parsed = { ok: true; flags: RunFlags } | { ok: false; message: string };

const valued = new Set(['--seed', '--only', '--report', '--target', '--token', '--kubeconfig', '--certificate-authority']);

function parseRunFlags(args: readonly string[]): Parsed {
  const flags: RunFlags = { paths: [], only: [], json: false };
  const values = new Map<string, string>();
  let insecure = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('-')) {
      flags.paths.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 && arg.startsWith('--') ? arg.slice(0, eq) : arg;
    if (name === '--json') flags.json = true;
    else if (name === '--insecure-skip-tls-verify') insecure = true;
    else if (valued.has(name)) {
      const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
      if (value === undefined || value === '') return { ok: false, message: `${name} needs a value` };
      if (name === '--only') flags.only.push(value);
      else values.set(name, value);
    } else return { ok: false, message: `unknown flag ${name}` };
  }
  if (flags.paths.length === 0) return { ok: false, message: 'no scenario files or folders given' };
  const seed = values.get('--seed');
  if (seed !== undefined) {
    if (!/^\d+$/.test(seed)) return { ok: false, message: `--seed: "${seed}" is not a non-negative integer` };
    flags.seed = Number(seed);
  }
  const report = values.get('--report');
  if (report !== undefined) flags.report = report;
  const kubeconfig = values.get('--kubeconfig');
  const server = values.get('--target');
  if (kubeconfig !== undefined || server !== undefined) {
    let target: ServerTarget = {};
    if (kubeconfig !== undefined) {
      const read = fromKubeconfig(kubeconfig);
      if (!read.ok) return read;
      target = read.target;
    }
    if (server !== undefined) target.server = server;
    const token = values.get('--token');
    if (token !== undefined) target.token = token;
    const caFile = values.get('--certificate-authority');
    if (caFile !== undefined) {
      try {
        target.ca = readFileSync(caFile, 'utf8');
      } catch (e) {
        return { ok: false, message: `--certificate-authority: ${(e as Error).message}` };
      }
    }
    if (insecure) target.insecure = true;
    if (target.server === undefined || !/^https?:\/\//.test(target.server)) return { ok: false, message: `--target: "${target.server ?? ''}" is not an http:// or https:// URL` };
    flags.target = target as ServerTarget & { server: string };
  } else if (values.has('--token')) return { ok: false, message: '--token needs --target' };
  return { ok: true, flags };
}

/** The scenario files under the given paths, in a stable order (each folder sorted). */
function scenarioFiles(paths: readonly string[]): { files: string[]; missing: string[] } {
  const files: string[] = [];
  const missing: string[] = [];
  const walk = (p: string): void => {
    const st = statSync(p, { throwIfNoEntry: false });
    if (st === undefined) missing.push(p);
    else if (st.isDirectory()) for (const e of readdirSync(p).sort()) walk(join(p, e));
    else if (/\.ya?ml$/.test(p) || paths.includes(p)) files.push(p);
  };
  for (const p of paths) walk(p);
  return { files, missing };
}

interface LoadedFile {
  readonly file: string;
  readonly scenario: Scenario;
  readonly stepLines: readonly number[];
}

export async function runCommand(args: readonly string[], io: Io): Promise<number> {
  const parsed = commandFlags('run', args, io, runUsage, parseRunFlags);
  if (typeof parsed === 'number') return parsed;
  const flags = parsed.flags;
  const { files, missing } = scenarioFiles(flags.paths);
  if (missing.length > 0) {
    io.err(`platform-sim run: no such file or folder: ${missing.join(', ')}`);
    return 2;
  }
  const loaded: LoadedFile[] = [];
  const errors: LocatedError[] = [];
  for (const file of files) {
    const shown = relative(process.cwd(), file) || file;
    const l = loadScenario(readFileSync(file, 'utf8'), shown);
    if (l.ok) loaded.push({ file: shown, scenario: l.scenario, stepLines: l.stepLines });
    else errors.push(...l.errors);
  }
  const names = new Map<string, string>();
  for (const l of loaded) {
    const first = names.get(l.scenario.name);
    if (first !== undefined) errors.push({ file: l.file, line: 1, column: 1, message: `scenario name "${l.scenario.name}" is also the name of ${first}` });
    else names.set(l.scenario.name, l.file);
  }
  if (errors.length > 0) {
    for (const e of errors) io.err(formatLocated(e));
    io.err(`platform-sim run: ${errors.length} ${errors.length === 1 ? 'mistake' : 'mistakes'} in scenario files; nothing was run`);
    return 1;
  }
  const unknown = flags.only.filter((n) => !names.has(n));
  if (unknown.length > 0) {
    io.err(`platform-sim run: --only: no scenario is named ${unknown.map((n) => `"${n}"`).join(', ')}`);
    return 2;
  }
  const chosen = flags.only.length === 0 ? loaded : loaded.filter((l) => flags.only.includes(l.scenario.name));
  const remote = flags.target === undefined ? undefined : new RemoteTarget(flags.target);
  const results: ScenarioResult[] = [];
  const reported: ReportedScenario[] = [];
  for (const [i, l] of chosen.entries()) {
    if (flags.json) io.err(`[${i + 1}/${chosen.length}] ${l.scenario.name}`);
    else io.out(`● ${l.scenario.name}  (${l.file}${remote === undefined ? '' : `, against ${remote.target.server}`})`);
    const result = await runScenario(l.scenario, {
      ...(flags.seed === undefined ? {} : { seed: flags.seed }),
      file: l.file,
      stepLines: l.stepLines,
      driver: (s, seed) => (remote === undefined ? InProcessDriver.start(s, seed) : remote.driver(s)),
      ...(flags.json ? {} : { onStep: (r: StepRecord) => printStep(io, r) }),
      ...(flags.report === undefined ? {} : { onFinish: (_d, r, events, objectAt) => reported.push({ result: r, scenario: l.scenario, events, objectAt }) }),
    });
    results.push(result);
    if (!flags.json) printOutcome(io, result);
  }
  const passed = results.filter((r) => r.outcome === 'passed').length;
  const failed = results.filter((r) => r.outcome === 'failed').length;
  const skipped = results.length - passed - failed;
  if (flags.json) io.out(JSON.stringify({ passed, failed, skipped, scenarios: results }, null, 2));
  else io.out(`${passed} passed, ${failed} failed${skipped === 0 ? '' : `, ${skipped} skipped`}`);
  if (flags.report !== undefined) {
    writeFileSync(flags.report, renderScenarioReport(reported, { title: 'platform-sim scenarios' }));
    io.err(`wrote ${flags.report}: open ${pathToFileURL(resolve(flags.report)).href} in a browser`);
  }
  return failed > 0 ? 1 : 0;
}

const mark = { passed: '✓', failed: '✗', skipped: '–' } as const;

function printStep(io: Io, r: StepRecord): void {
  io.out(`  ${(r.offset ?? '').padEnd(8)} ${String(r.step).padStart(2)} ${mark[r.outcome]} ${r.title}${r.skipped === undefined ? '' : ` (skipped: ${r.skipped})`}`);
  for (const c of r.controllers) io.out(`             ${c}`);
  if (r.failure !== undefined) {
    io.out(`             ✗ ${r.failure.message}`);
    if ('expected' in r.failure) io.out(`               expected: ${show(r.failure.expected)}`);
    if ('seen' in r.failure) io.out(`               seen:     ${show(r.failure.seen)}`);
  }
}

function printOutcome(io: Io, r: ScenarioResult): void {
  if (r.outcome === 'failed') {
    const step = r.steps.find((s) => s.outcome === 'failed')!;
    io.out(`  ✗ ${r.name} failed at step ${step.step} (${step.title})${step.line === undefined ? '' : `, ${r.file}:${step.line}`}`);
    io.out(`    replay: ${r.replay}`);
  } else if (r.outcome === 'skipped') io.out(`  – ${r.name} skipped: ${r.skipped}`);
  else io.out(`  ✓ ${r.name}`);
}

/** A value on one line, shortened: failures should be readable in a terminal. */
function show(v: unknown): string {
  const text = v === undefined ? '(nothing)' : JSON.stringify(v);
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}
