/**
 * `platform-sim report`: the timeline report of a running server (GET /sim/v1/report) as an HTML
 * file to open in a browser. A browser cannot send the admin's bearer token, and /sim/v1 stays
 * admin-only behind the server's authentication and RBAC, so the CLI fetches the page with the
 * token (from the flags or a kubeconfig, as `serve --kubeconfig` writes it) and saves it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'yaml';
import type { Io } from './cli.ts';

export const reportUsage = `usage: platform-sim report [--kubeconfig PATH | --server URL --token T] [-o out.html]
  --kubeconfig PATH              server, CA and token of the current context (serve --kubeconfig writes one)
  --server URL, --token T        the server and an admin's bearer token (serve prints both)
  --certificate-authority PATH   PEM of the CA that signed the serving certificate
  --insecure-skip-tls-verify     do not verify the serving certificate
  -o, --output PATH              write the page here (default: standard output)
Fetches GET /sim/v1/report, the timeline of the trace so far (admin only), as an HTML page.`;

interface Target {
  server?: string;
  token?: string;
  ca?: string;
  insecure?: boolean;
  output?: string;
}

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

/** Server, CA and token of a kubeconfig's current context. */
function fromKubeconfig(path: string): Parsed {
  let doc: Record<string, any>;
  try {
    doc = (parse(readFileSync(path, 'utf8')) ?? {}) as Record<string, any>;
  } catch (e) {
    return { ok: false, message: `--kubeconfig: ${(e as Error).message}` };
  }
  const named = (list: unknown, name: unknown): Record<string, any> | undefined => (Array.isArray(list) ? (list as Record<string, any>[]).find((e) => e?.['name'] === name) : undefined);
  const context = named(doc['contexts'], doc['current-context'])?.['context'] as Record<string, any> | undefined;
  const cluster = named(doc['clusters'], context?.['cluster'])?.['cluster'] as Record<string, any> | undefined;
  const user = named(doc['users'], context?.['user'])?.['user'] as Record<string, any> | undefined;
  if (cluster === undefined) return { ok: false, message: `--kubeconfig: ${path} has no cluster for its current context` };
  const target: Target = {};
  if (typeof cluster['server'] === 'string') target.server = cluster['server'];
  if (typeof user?.['token'] === 'string') target.token = user['token'];
  if (typeof cluster['certificate-authority-data'] === 'string') target.ca = Buffer.from(cluster['certificate-authority-data'], 'base64').toString('utf8');
  else if (typeof cluster['certificate-authority'] === 'string') {
    try {
      target.ca = readFileSync(resolve(path, '..', cluster['certificate-authority']), 'utf8');
    } catch (e) {
      return { ok: false, message: `--kubeconfig: certificate-authority: ${(e as Error).message}` };
    }
  }
  if (cluster['insecure-skip-tls-verify'] === true) target.insecure = true;
  return { ok: true, target };
}

function get(target: Target & { server: string; token: string }): Promise<{ status: number; body: string }> {
  const url = new URL('/sim/v1/report', target.server);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const tls = url.protocol === 'https:' ? { ...(target.ca === undefined ? {} : { ca: target.ca }), rejectUnauthorized: target.insecure !== true } : {};
  return new Promise((done, fail) => {
    const req = send(url, { method: 'GET', headers: { authorization: `Bearer ${target.token}`, accept: 'text/html' }, ...tls }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
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
  if (args.some((a) => a === '--help' || a === '-h')) {
    io.out(reportUsage);
    return 0;
  }
  const parsed = parseFlags(args);
  if (!parsed.ok) {
    io.err(`platform-sim report: ${parsed.message} (see platform-sim report --help)`);
    return 2;
  }
  const target = parsed.target as Target & { server: string; token: string };
  let answer: { status: number; body: string };
  try {
    answer = await get(target);
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
