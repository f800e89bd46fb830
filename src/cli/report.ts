/**
 * `platform-sim report`: the timeline report of a running server (GET /sim/v1/report) as an HTML
 * file to open in a browser. A browser cannot send the admin's bearer token, and /sim/v1 stays
 * admin-only behind the server's authentication and RBAC, so the CLI fetches the page with the
 * token (from the flags or a kubeconfig, as `serve --kubeconfig` writes it) and saves it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Io } from './cli.ts';
import { commandFlags } from './commandFlags.ts';
import { fromKubeconfig, sendTo, type ServerTarget } from './target.ts';

export const reportUsage = `usage: platform-sim report [--kubeconfig PATH | --server URL --token T] [-o out.html]
  --kubeconfig PATH              server, CA and token of the current context (serve --kubeconfig writes one)
  --server URL, --token T        the server and an admin's bearer token (serve prints both)
  --certificate-authority PATH   PEM of the CA that signed the serving certificate
  --insecure-skip-tls-verify     do not verify the serving certificate
  -o, --output PATH              write the page here (default: standard output)
Fetches GET /sim/v1/report, the timeline of the trace so far (admin only), as an HTML page.`;

type Target = ServerTarget & { output?: string };

type Parsed = { ok: true; target: Target } | { ok: false; message: string };

const valued = new Set(['--kubeconfig', '--server', '--token', '--certificate-authority', '-o', '--output']);

function parseFlags(args: readonly string[]): Parsed {
  const flags = new Map<string, string>();
  let insecure: boolean | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.indexOf('=');
    const name = eq > 0 && arg.startsWith('--') ? arg.slice(0, eq) : arg;
    if (name === '--insecure-skip-tls-verify') {
      const v = eq > 0 ? arg.slice(eq + 1) : 'true';
      if (v !== 'true' && v !== 'false') return { ok: false, message: `--insecure-skip-tls-verify: "${v}" is not true or false` };
      insecure = v === 'true';
      continue;
    }
    if (!valued.has(name)) return { ok: false, message: name.startsWith('-') ? `unknown flag ${name}` : `unexpected argument "${arg}"` };
    const value = eq > 0 && arg.startsWith('--') ? arg.slice(eq + 1) : args[++i];
    if (value === undefined || value === '') return { ok: false, message: `${name} needs a value` };
    flags.set(name === '-o' ? '--output' : name, value);
  }
  const target: Target = {};
  const kubeconfig = flags.get('--kubeconfig');
  if (kubeconfig !== undefined) {
    const read = fromKubeconfig(kubeconfig);
    if (!read.ok) return read;
    Object.assign(target, read.target);
  }
  const server = flags.get('--server');
  const token = flags.get('--token');
  const caFile = flags.get('--certificate-authority');
  const output = flags.get('--output');
  if (server !== undefined) target.server = server;
  if (token !== undefined) target.token = token;
  if (caFile !== undefined) {
    try {
      target.ca = readFileSync(caFile, 'utf8');
    } catch (e) {
      return { ok: false, message: `--certificate-authority: ${(e as Error).message}` };
    }
  }
  if (insecure !== undefined) target.insecure = insecure;
  if (output !== undefined) target.output = output;
  if (target.server === undefined) return { ok: false, message: 'no server: give --server URL or --kubeconfig PATH' };
  if (target.token === undefined) return { ok: false, message: 'no token: give --token T (the admin token serve prints) or --kubeconfig PATH' };
  if (!/^https?:\/\//.test(target.server)) return { ok: false, message: `--server: "${target.server}" is not an http:// or https:// URL` };
  return { ok: true, target };
}

/** The message of a Status body, else the start of the body. */
function statusMessage(body: string): string {
  try {
    const status = JSON.parse(body) as { message?: unknown };
    if (typeof status.message === 'string') return status.message;
  } catch {
    // not JSON
  }
  return body.slice(0, 200);
}

/** Runs `platform-sim report <args>`: 0 written, 1 the server refused or could not be reached, 2 bad usage. */
export async function report(args: readonly string[], io: Io): Promise<number> {
  const parsed = commandFlags('report', args, io, reportUsage, parseFlags);
  if (typeof parsed === 'number') return parsed;
  const target = parsed.target as Target & { server: string; token: string };
  let answer: { status: number; body: string };
  try {
    answer = await sendTo(target, { method: 'GET', path: '/sim/v1/report', headers: { accept: 'text/html' } });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const hint = /certificate|self.signed|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(`${err.code ?? ''} ${err.message}`) ? ' (give --certificate-authority, or --kubeconfig as serve --kubeconfig writes it)' : '';
    io.err(`platform-sim report: ${target.server}: ${err.message}${hint}`);
    return 1;
  }
  if (answer.status !== 200) {
    io.err(`platform-sim report: GET /sim/v1/report: ${answer.status}: ${statusMessage(answer.body)}`);
    return 1;
  }
  if (target.output === undefined) {
    io.out(answer.body.replace(/\n$/, ''));
    return 0;
  }
  writeFileSync(target.output, answer.body);
  io.out(`wrote ${target.output}: open ${pathToFileURL(resolve(target.output)).href} in a browser`);
  return 0;
}
