/**
 * The CLI bundled as `npm run build` bundles it (esbuild), into `outfile`: tests that start
 * servers as child processes run it, as a child starts in a fraction of tsx's time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { build } from 'esbuild';

const repo = join(import.meta.dirname, '..', '..');

export async function bundleCli(outfile: string): Promise<string> {
  await build({
    entryPoints: [join(repo, 'src/cli/main.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'warning',
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
  return outfile;
}

/** A `serve` child process on a state file, over plain HTTP with a fixed admin token. */
export interface ServerChild {
  readonly process: ChildProcess;
  /** The URL once listening, or null when it exited first. */
  readonly url: string | null;
  readonly exited: Promise<number | null>;
  stderr(): string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts the bundled CLI's `serve` and waits for its first line; `children` tracks it until it exits. */
export async function startServerChild(bundle: string, stateFile: string, token: string, children: Set<ChildProcess>): Promise<ServerChild> {
  const child = spawn(process.execPath, [bundle, 'serve', '--port', '0', '--no-tls', '--clock', 'manual', '--admin-token', token, '--state-file', stateFile], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  let done = false;
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => (children.delete(child), (done = true), r(code))));
  for (let i = 0; i < 1000 && !done && !out.includes('\n'); i++) await sleep(10);
  const url = /^platform-sim listening on (\S+)/.exec(out)?.[1] ?? null;
  return { process: child, url, exited, stderr: () => err };
}
