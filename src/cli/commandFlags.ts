/**
 * The start every command shares: `--help` / `-h` print its flags (exit 0); flags that do not
 * parse are one line on stderr naming the command and where to look (exit 2). Otherwise the
 * parsed flags.
 */
import type { Io } from './cli.ts';

type Parsed = { readonly ok: true } | { readonly ok: false; readonly message: string };

export function commandFlags<P extends Parsed>(command: string, args: readonly string[], io: Io, usage: string, parse: (args: readonly string[]) => P): Extract<P, { readonly ok: true }> | number {
  if (args.some((a) => a === '--help' || a === '-h')) {
    io.out(usage);
    return 0;
  }
  const parsed = parse(args);
  if (!parsed.ok) {
    io.err(`platform-sim ${command}: ${parsed.message} (see platform-sim ${command} --help)`);
    return 2;
  }
  return parsed as Extract<P, { readonly ok: true }>;
}
