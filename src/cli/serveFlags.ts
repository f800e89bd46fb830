/**
 * `platform-sim serve` flags → `serve()` options. Flag names are kube-apiserver's where one
 * exists; Go-style booleans (`--anonymous-auth`, `--anonymous-auth=false`) and comma lists
 * (`--api-audiences a,b`) are read as kube-apiserver reads them. Files named by flags are read
 * here; PKCS#1 and SEC1 private keys are converted to PKCS#8.
 */
import { readFileSync } from 'node:fs';
import { createPrivateKey } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { ServeOptions } from '../edges/http/server.ts';
import { readTokenAuthFile } from '../edges/fs/tokenAuthFile.ts';

const stringFlags = [
  'host', 'port', 'seed', 'start-time', 'group-domain', 'clock', 'settle', 'schedule', 'admin-token', 'kubeconfig', 'token-auth-file', 'state-file',
  'pod-ready-after', 'compaction-interval', 'client-ca-file', 'requestheader-client-ca-file', 'requestheader-allowed-names',
  'requestheader-username-headers', 'requestheader-uid-headers', 'requestheader-group-headers', 'requestheader-extra-headers-prefix',
  'service-account-issuer', 'api-audiences', 'service-account-max-token-expiration', 'service-account-signing-key-file',
  'cluster-signing-cert-file', 'cluster-signing-key-file', 'cluster-signing-duration', 'feature-gates',
] as const;
/** Booleans with their default; each also has a `--no-…` form and a `--flag=true|false` form. */
const booleanFlags = { tls: true, 'node-agent': true, 'anonymous-auth': false, 'service-account-extend-token-expiration': true, 'deterministic-keys': false } as const;

export const serveUsage = `usage: platform-sim serve [--host H] [--port P] [--seed N] [--start-time T]
    [--group-domain platform.io|k8s.io] [--clock wall|manual] [--settle auto|manual] [--schedule fixed|seeded]
    [--admin-token T] [--deterministic-keys] [--tls | --no-tls] [--kubeconfig PATH] [--token-auth-file F] [--state-file F]
    [--no-node-agent] [--pod-ready-after D] [--compaction-interval D] [--anonymous-auth[=false]]
    [--client-ca-file F] [--requestheader-client-ca-file F] [--requestheader-allowed-names a,b]
    [--requestheader-username-headers H,…] [--requestheader-uid-headers H,…]
    [--requestheader-group-headers H,…] [--requestheader-extra-headers-prefix P,…]
    [--service-account-issuer URL] [--api-audiences a,b] [--service-account-max-token-expiration D]
    [--service-account-extend-token-expiration[=false]] [--service-account-signing-key-file F]
    [--cluster-signing-cert-file F] [--cluster-signing-key-file F] [--cluster-signing-duration D]
    [--feature-gates Name=true,…]`;

export type Parsed = { ok: true; options: ServeOptions } | { ok: false; message: string };

/** `--flag=false` → `--no-flag`, `--flag=true` → `--flag`, for the boolean flags. */
function normalizeBooleans(argv: readonly string[]): string[] {
  return argv.map((a) => {
    const m = /^--([a-z-]+)=(true|false)$/.exec(a);
    if (m === null || !(m[1]! in booleanFlags)) return a;
    return m[2] === 'true' ? `--${m[1]}` : `--no-${m[1]}`;
  });
}

const list = (v: string | undefined): string[] | undefined => (v === undefined ? undefined : v.split(',').map((x) => x.trim()).filter((x) => x !== ''));

function readText(flag: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`--${flag}: cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** Any PEM private key (PKCS#8, PKCS#1 RSA, SEC1 EC) as PKCS#8. */
function pkcs8(flag: string, path: string): string {
  const text = readText(flag, path);
  try {
    return createPrivateKey(text).export({ format: 'pem', type: 'pkcs8' }).toString();
  } catch {
    throw new Error(`--${flag}: ${path} holds no PEM private key`);
  }
}

function featureGates(text: string | undefined): Record<string, boolean> | undefined {
  if (text === undefined) return undefined;
  const gates: Record<string, boolean> = {};
  for (const part of list(text) ?? []) {
    const m = /^([A-Za-z0-9]+)=(true|false)$/.exec(part);
    if (m === null) throw new Error(`--feature-gates: "${part}" is not Name=true|false`);
    gates[m[1]!] = m[2] === 'true';
  }
  return gates;
}

/** node:util parseArgs' errors, shortened to what is wrong and the flag or argument it is about. */
function parseArgsMessage(e: NodeJS.ErrnoException): string {
  const quoted = /'([^']*)'/.exec(e.message)?.[1];
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && quoted !== undefined) return `unknown flag ${quoted}`;
  if (e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' && quoted !== undefined) return `unexpected argument "${quoted}": serve takes only flags`;
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && quoted !== undefined) {
    return `${quoted.split(' ')[0]}: ${/argument missing/.test(e.message) ? 'needs a value' : /does not take an argument/.test(e.message) ? (quoted.startsWith('--no-') ? 'takes no value' : 'takes no value but =true or =false') : e.message}`;
  }
  return e.message;
}

export function parseServeFlags(argv: readonly string[]): Parsed {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = {};
  for (const f of stringFlags) options[f] = { type: 'string' };
  options['service-account-signing-key-file'] = { type: 'string', multiple: true };
  for (const f of Object.keys(booleanFlags)) {
    options[f] = { type: 'boolean' };
    options[`no-${f}`] = { type: 'boolean' };
  }
  let v: Record<string, string | boolean | string[] | undefined>;
  try {
    v = parseArgs({ args: normalizeBooleans(argv), options, strict: true, allowPositionals: false }).values as typeof v;
  } catch (e) {
    return { ok: false, message: parseArgsMessage(e as NodeJS.ErrnoException) };
  }
  const s = (k: string): string | undefined => v[k] as string | undefined;
  const bool = (k: keyof typeof booleanFlags): boolean => (v[`no-${k}`] === true ? false : v[k] === true ? true : booleanFlags[k]);
  const port = s('port') === undefined ? 6443 : Number(s('port'));
  const clock = s('clock') ?? 'wall';
  const groupDomain = s('group-domain') ?? 'platform.io';
  const settle = s('settle') ?? 'auto';
  if (!Number.isInteger(port) || port < 0 || port > 65535) return { ok: false, message: `--port: "${s('port')}" is not a port number` };
  if (clock !== 'wall' && clock !== 'manual') return { ok: false, message: `--clock: must be wall or manual` };
  if (groupDomain !== 'platform.io' && groupDomain !== 'k8s.io') return { ok: false, message: `--group-domain: must be platform.io or k8s.io` };
  if (settle !== 'auto' && settle !== 'manual') return { ok: false, message: `--settle: must be auto or manual` };
  const schedule = s('schedule');
  if (schedule !== undefined && schedule !== 'fixed' && schedule !== 'seeded') return { ok: false, message: `--schedule: must be fixed or seeded` };
  try {
    const tokenFile = s('token-auth-file');
    let users: ServeOptions['users'];
    if (tokenFile !== undefined) {
      const read = readTokenAuthFile(tokenFile);
      if (!read.ok) return { ok: false, message: read.message };
      users = read.users;
    }
    const rhCa = s('requestheader-client-ca-file');
    const signingKeys = (v['service-account-signing-key-file'] as string[] | undefined)?.map((p) => pkcs8('service-account-signing-key-file', p));
    const certFile = s('cluster-signing-cert-file');
    const keyFile = s('cluster-signing-key-file');
    if ((certFile === undefined) !== (keyFile === undefined)) return { ok: false, message: '--cluster-signing-cert-file and --cluster-signing-key-file go together' };
    const opt = (key: string, value: unknown): Record<string, unknown> => (value === undefined ? {} : { [key]: value });
    const result: ServeOptions = {
      host: s('host') ?? '127.0.0.1',
      port,
      clock,
      groupDomain,
      settle,
      tls: bool('tls'),
      nodeAgent: bool('node-agent'),
      anonymousAuth: bool('anonymous-auth'),
      serviceAccountExtendTokenExpiration: bool('service-account-extend-token-expiration'),
      ...opt('users', users),
      ...opt('seed', s('seed')),
      ...opt('startTime', s('start-time')),
      ...opt('adminToken', s('admin-token')),
      // Only when asked for: without it (and without --seed) serve mixes a drawn secret into the keys.
      ...opt('deterministicKeys', bool('deterministic-keys') ? true : undefined),
      ...opt('kubeconfig', s('kubeconfig')),
      ...opt('stateFile', s('state-file')),
      ...opt('podReadyAfter', s('pod-ready-after')),
      ...opt('schedule', schedule),
      ...opt('compactionInterval', s('compaction-interval')),
      ...opt('clientCA', s('client-ca-file') === undefined ? undefined : readText('client-ca-file', s('client-ca-file')!)),
      ...opt('tokenIssuer', s('service-account-issuer')),
      ...opt('apiAudiences', list(s('api-audiences'))),
      ...opt('serviceAccountMaxTokenExpiration', s('service-account-max-token-expiration')),
      ...opt('signingKeys', signingKeys),
      ...opt('clusterSigning', certFile === undefined ? undefined : { certificate: readText('cluster-signing-cert-file', certFile), privateKey: pkcs8('cluster-signing-key-file', keyFile!) }),
      ...opt('clusterSigningDuration', s('cluster-signing-duration')),
      ...opt('featureGates', featureGates(s('feature-gates'))),
      ...opt(
        'requestHeader',
        rhCa === undefined
          ? undefined
          : {
              clientCA: readText('requestheader-client-ca-file', rhCa),
              ...opt('allowedNames', list(s('requestheader-allowed-names'))),
              ...opt('usernameHeaders', list(s('requestheader-username-headers'))),
              ...opt('uidHeaders', list(s('requestheader-uid-headers'))),
              ...opt('groupHeaders', list(s('requestheader-group-headers'))),
              ...opt('extraHeaderPrefixes', list(s('requestheader-extra-headers-prefix'))),
            },
      ),
    } as ServeOptions;
    return { ok: true, options: result };
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
}
