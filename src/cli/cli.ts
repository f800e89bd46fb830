/**
 * The command line: `cli(argv, io) → exit code`. 0 on success, 1 when a run fails, 2 on bad
 * usage. The executable (bin/platform-sim.js) and `npm start` are a few lines around this.
 */
import { serve, type RunningServer } from '../edges/http/server.ts';
import { parseServeFlags, serveUsage } from './serveFlags.ts';

export interface Io {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

export async function cli(argv: readonly string[], io: Io): Promise<{ code: number; server?: RunningServer }> {
  const [command, ...rest] = argv;
  if (command !== 'serve') {
    io.err(serveUsage);
    return { code: 2 };
  }
  const parsed = parseServeFlags(rest);
  if (!parsed.ok) {
    io.err(`platform-sim: ${parsed.message}\n${serveUsage}`);
    return { code: 2 };
  }
  try {
    const server = await serve(parsed.options);
    io.out(`platform-sim listening on ${server.url}`);
    io.out(`admin token: ${server.adminToken}`);
    return { code: 0, server };
  } catch (e) {
    io.err(`platform-sim: ${(e as Error).message}`);
    return { code: 2 };
  }
}
