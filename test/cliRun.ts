/** Runs the CLI in process as a test would from a shell: its exit code and what it printed. */
import { cli } from '../src/cli/cli.ts';

export async function runCli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const r = await cli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code: r.code, out: out.join('\n'), err: err.join('\n') };
}
