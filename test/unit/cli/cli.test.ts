/**
 * The CLI's first-use surface: help in its three spellings, `serve --help`, `--version`, and bad
 * usage that names the unknown command or flag (exit 2, one line on stderr).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../../../src/cli/cli.ts';
import { serveUsage } from '../../../src/cli/serveFlags.ts';

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const r = await cli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  await r.server?.close();
  return { code: r.code, out: out.join('\n'), err: err.join('\n') };
}

describe('platform-sim CLI', () => {
  it.each([['--help'], ['-h'], ['help']])('%s prints the commands and the serve flags (exit 0)', async (flag) => {
    const r = await run(flag);
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toMatch(/^usage: platform-sim <command>/m);
    expect(r.out).toMatch(/^ {2}serve /m);
    expect(r.out).toContain('--version');
    expect(r.out).toContain(serveUsage);
  });

  it.each([['serve', '--help'], ['serve', '-h'], ['serve', '--port', '0', '--help'], ['help', 'serve']])('%s %s prints the serve flags (exit 0)', async (...argv) => {
    expect(await run(...argv)).toEqual({ code: 0, out: serveUsage, err: '' });
  });

  it('--version prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version: string };
    expect(await run('--version')).toEqual({ code: 0, out: `platform-sim ${version}`, err: '' });
  });

  it.each([
    [['frobnicate'], 'platform-sim: unknown command "frobnicate"'],
    [['--frobnicate'], 'platform-sim: unknown flag --frobnicate'],
    [['serve', '--frobnicate'], 'platform-sim: unknown flag --frobnicate'],
    [['serve', '--frobnicate=1'], 'platform-sim: unknown flag --frobnicate'],
    [['serve', 'extra'], 'platform-sim: unexpected argument "extra"'],
    [['serve', '--port'], 'platform-sim: --port: needs a value'],
    [['serve', '--tls=maybe'], 'platform-sim: --tls: takes no value but =true or =false'],
    [['serve', '--clock', 'sometimes'], 'platform-sim: --clock: must be wall or manual'],
  ])('%j is bad usage that names itself (exit 2, one line)', async (argv, start) => {
    const r = await run(...argv);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err.startsWith(start)).toBe(true);
    expect(r.err).not.toContain('\n');
  });

  it('without a command prints the usage (exit 2)', async () => {
    const r = await run();
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^usage: platform-sim <command>/m);
  });
});
