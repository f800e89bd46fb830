/**
 * The command line: `cli(argv, io) → exit code`. 0 on success, 1 when a run fails, 2 on bad
 * usage. The executable (bin/platform-sim.js) and `npm start` are a few lines around this.
 */
import { readFileSync } from 'node:fs';
import { serve, type RunningServer } from '../edges/http/server.ts';
import { parseServeFlags, serveUsage } from './serveFlags.ts';
import { report, reportUsage } from './report.ts';
import { runCommand, runUsage } from './run.ts';
import { exploreCommand, exploreUsage } from './explore.ts';

export interface Io {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

export const usage = `platform-sim: a deterministic simulation of a Kubernetes-like control plane

usage: platform-sim <command> [flags]

commands:
  serve      serve the simulated API over HTTPS (or HTTP) until SIGINT or SIGTERM
  run        run scenario files in process, or against a server (--target): docs/scenarios.md
  explore    random workloads under random faults until an invariant breaks: docs/testing-kit.md
  report     save a running server's timeline report (GET /sim/v1/report) as an HTML page
  help       print this help (help serve, help run, help explore, help report: that command's flags)

flags:
  -h, --help   print this help; after a command, that command's flags
  --version    print the version

${serveUsage}

What each serve flag does: docs/server.md.`;

const isHelp = (a: string): boolean => a === '--help' || a === '-h';

/** The package's version, from its package.json (two folders up from src/cli and dist/cli). */
export function version(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

/** Bad usage: what is wrong, on one line, and where to look; exit code 2. */
function badUsage(io: Io, message: string, help: string): { code: number } {
  io.err(`platform-sim: ${message} (see ${help})`);
  return { code: 2 };
}

export async function cli(argv: readonly string[], io: Io): Promise<{ code: number; server?: RunningServer }> {
  const [command, ...rest] = argv;
  if (command === undefined) {
    io.err(usage);
    return { code: 2 };
  }
  if (command === 'help' || isHelp(command)) {
    io.out(rest[0] === 'serve' ? serveUsage : rest[0] === 'report' ? reportUsage : rest[0] === 'run' ? runUsage : rest[0] === 'explore' ? exploreUsage : usage);
    return { code: 0 };
  }
  if (command === '--version') {
    io.out(`platform-sim ${version()}`);
    return { code: 0 };
  }
  if (command.startsWith('-')) return badUsage(io, `unknown flag ${command.split('=')[0]}`, 'platform-sim --help');
  if (command === 'report') return { code: await report(rest, io) };
  if (command === 'run') return { code: await runCommand(rest, io) };
  if (command === 'explore') return { code: await exploreCommand(rest, io) };
  if (command !== 'serve') return badUsage(io, `unknown command "${command}" (commands: serve, run, explore, report, help)`, 'platform-sim --help');
  if (rest.some(isHelp)) {
    io.out(serveUsage);
    return { code: 0 };
  }
  const parsed = parseServeFlags(rest);
  if (!parsed.ok) return badUsage(io, parsed.message, 'platform-sim serve --help');
  try {
    const server = await serve(parsed.options);
    io.out(`platform-sim listening on ${server.url}`);
    io.out(`admin token: ${server.adminToken}`);
    for (const w of server.warnings) io.err(w);
    return { code: 0, server };
  } catch (e) {
    // One line: the address and the cause, or the option and what is wrong with it.
    io.err(`platform-sim: ${(e as Error).message.replace(/\s*\n\s*/g, '; ')}`);
    return { code: 2 };
  }
}
