/**
 * A server the CLI talks to (`report`, `run --target`): its URL, the CA of its serving certificate
 * and a bearer token, from flags or a kubeconfig's current context; and one request to it.
 */
import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { resolve } from 'node:path';
import { parse } from 'yaml';

export interface ServerTarget {
  server?: string;
  token?: string;
  ca?: string;
  insecure?: boolean;
}

export type TargetRead = { ok: true; target: ServerTarget } | { ok: false; message: string };

/** Server, CA and token of a kubeconfig's current context. */
export function fromKubeconfig(path: string): TargetRead {
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
  const target: ServerTarget = {};
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

export interface TargetAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/**
 * One request to the target, with its token unless the headers carry their own authorization.
 * `headersOnly`: answer a success as soon as its status and headers arrive, and hang up (a watch
 * stream would otherwise never end); a refusal is read whole, as any other.
 */
export function sendTo(target: ServerTarget & { server: string }, req: { method: string; path: string; headers?: Record<string, string | readonly string[]>; body?: string; headersOnly?: boolean }): Promise<TargetAnswer> {
  const url = new URL(req.path, target.server);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const tls = url.protocol === 'https:' ? { ...(target.ca === undefined ? {} : { ca: target.ca }), rejectUnauthorized: target.insecure !== true } : {};
  const headers = Object.create(null) as Record<string, string | string[]>;
  for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase()] = typeof v === 'string' ? v : [...v];
  if (headers['authorization'] === undefined && target.token !== undefined) headers['authorization'] = `Bearer ${target.token}`;
  if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
  return new Promise((done, fail) => {
    const r = send(url, { method: req.method, headers, ...tls }, (res) => {
      if (req.headersOnly === true && (res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300) {
        done({ status: res.statusCode ?? 0, headers: res.headers, body: '' });
        r.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', fail);
    });
    r.on('error', fail);
    r.end(req.body);
  });
}
