/**
 * `platform-sim explore`: swarm exploration (src/testing/explore.ts) from the command line — a
 * seed (drawn and printed when not given), a number of runs and a wall-time budget; a progress
 * bar on stderr; on failure the shrunk counterexample written as a scenario file, with the
 * commands that replay it. Exit 0 when every run held, 1 on a counterexample, 2 on bad usage.
 */
import { randomInt } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { formatDuration, parseDuration } from '../core/duration.ts';
import { createSimulation } from '../edges/simulation/create.ts';
import { explore } from '../testing/explore.ts';
import type { Io } from './cli.ts';
import { commandFlags } from './commandFlags.ts';
import type { Controller } from '../controllers/types.ts';

export const exploreUsage = `usage: platform-sim explore [flags]
  --seed N          the seed of everything drawn (default: drawn at random and printed)
  --runs N          runs, each a fresh simulation (default 100)
  --budget D        stop starting runs after this wall time, Go style: 30s, 5m (default: none)
  --out PATH        where a counterexample is written as a scenario (default explore-<seed>.yaml)
Random workloads (StatefulSets, pods, tokens, CSRs) under random fault profiles; the invariants
after every step; then faults off and the world must come to rest. A failure is shrunk to a few
commands and written as a scenario file: platform-sim run <file> replays it.`;

type Flags = { seed: number; runs: number; budgetMs?: number; out?: string };

function parseFlags(args: readonly string[]): { ok: true; flags: Flags } | { ok: false; message: string } {
  const values = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (!['--seed', '--runs', '--budget', '--out'].includes(name)) return { ok: false, message: name.startsWith('-') ? `unknown flag ${name}` : `unexpected argument "${arg}"` };
    const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
    if (value === undefined || value === '') return { ok: false, message: `${name} needs a value` };
    values.set(name, value);
  }
  const int = (name: string, fallback: number, min: number): number | string => {
    const v = values.get(name);
    if (v === undefined) return fallback;
    return /^\d+$/.test(v) && Number(v) >= min ? Number(v) : `${name}: "${v}" is not an integer ≥ ${min}`;
  };
  // Without --seed a seed is drawn here, at the edge, and printed so the run can be replayed.
  const seed = int('--seed', randomInt(1, 2 ** 31), 0);
  const runs = int('--runs', 100, 1);
  if (typeof seed === 'string') return { ok: false, message: seed };
  if (typeof runs === 'string') return { ok: false, message: runs };
  const flags: Flags = { seed, runs };
  const budget = values.get('--budget');
  if (budget !== undefined) {
    const ms = parseDuration(budget);
    if (ms === null || ms <= 0) return { ok: false, message: `--budget: "${budget}" is not a positive Go duration such as 30s or 5m` };
    flags.budgetMs = ms;
  }
  const out = values.get('--out');
  if (out !== undefined) flags.out = out;
  return { ok: true, flags };
}

/** `[██████····] 60/100 runs`: printed at every tenth of the runs. */
function bar(done: number, total: number): string {
  const filled = Math.round((done / total) * 10);
  return `[${'█'.repeat(filled)}${'·'.repeat(10 - filled)}] ${done}/${total} runs`;
}

/** `controllers`: what tests swap in (a broken variant) to see the failure path; the CLI passes none. */
export async function exploreCommand(args: readonly string[], io: Io, under: { readonly controllers?: readonly Controller[] } = {}): Promise<number> {
  const parsed = commandFlags('explore', args, io, exploreUsage, parseFlags);
  if (typeof parsed === 'number') return parsed;
  const { seed, runs, budgetMs, out } = parsed.flags;
  io.out(`exploring with seed ${seed}: ${runs} runs${budgetMs === undefined ? '' : `, none started after ${formatDuration(budgetMs)}`}`);
  const maker = await createSimulation({ seed });
  const requests = (await Promise.all(['explore-a', 'explore-b'].map((cn) => maker.createCertificateRequest({ commonName: cn, organizations: ['explorers'] })))).map((m) => btoa(m.request));
  const step = Math.max(1, Math.floor(runs / 10));
  const result = await explore(fc, { seed, runs, requests, ...under, ...(budgetMs === undefined ? {} : { budgetMs }), onProgress: (done) => done % step === 0 && io.err(bar(Math.min(done, runs), runs)) });
  if (!result.failed) {
    io.out(`${result.runs} runs (${result.steps.toLocaleString('en-US')} steps) held: the invariants after every step, and every world came to rest (seed ${seed})`);
    return 0;
  }
  const f = result.failure!;
  const file = out ?? `explore-${seed}.yaml`;
  writeFileSync(file, stringify(f.scenario, { aliasDuplicateObjects: false }));
  io.out(`counterexample after ${result.runs} runs (seed ${seed}), shrunk to ${f.commands.length} commands${f.faults.length === 0 ? '' : ` under ${f.faults.length} fault rule(s)`}${f.schedule === 'seeded' ? ', controllers in a seeded order' : ''}:`);
  for (const c of f.commands) io.out(`  ${c}`);
  io.out(`what broke: ${f.error.split('\n').slice(0, 6).join('\n  ')}`);
  io.out(`written as a scenario: ${file}`);
  io.out(`replay the run:         platform-sim run ${file}`);
  io.out(`replay the exploration: platform-sim explore --seed ${seed} --runs ${runs}`);
  return 1;
}
