/**
 * The command line: `cli(argv, io) → exit code`. 0 on success, 1 when a run fails, 2 on bad
 * usage. The executable (bin/platform-sim.js) and `npm start` are a few lines around this.
 */
import { parseArgs } from 'node:util';
import { serve, type RunningServer } from '../edges/http/server.ts';
import { readTokenAuthFile } from '../edges/fs/tokenAuthFile.ts';
import type { StaticUser } from '../sim/options.ts';

export interface Io {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

const usage = `usage: platform-sim serve [--host H] [--port P] [--seed N] [--start-time T]
                          [--group-domain platform.io|k8s.io] [--clock wall|manual]
                          [--settle auto|manual] [--admin-token T] [--tls | --no-tls]
                          [--kubeconfig PATH] [--token-auth-file F] [--state-file F]`;

export async function cli(argv: readonly string[], io: Io): Promise<{ code: number; server?: RunningServer }> {
  const [command, ...rest] = argv;
  if (command !== 'serve') {
    io.err(usage);
    return { code: 2 };
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: [...rest],
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        seed: { type: 'string' },
        'start-time': { type: 'string' },
        'group-domain': { type: 'string' },
        clock: { type: 'string' },
        settle: { type: 'string' },
        'admin-token': { type: 'string' },
        'no-tls': { type: 'boolean' },
        tls: { type: 'boolean' },
        kubeconfig: { type: 'string' },
        'token-auth-file': { type: 'string' },
        'state-file': { type: 'string' },
      },
      strict: true,
    }).values;
  } catch (e) {
    io.err(`platform-sim: ${(e as Error).message}\n${usage}`);
    return { code: 2 };
  }
  const port = values['port'] === undefined ? 6443 : Number(values['port']);
  const clock = values['clock'] ?? 'wall';
  const groupDomain = values['group-domain'] ?? 'platform.io';
  const settle = values['settle'] ?? 'auto';
  if (!Number.isInteger(port) || port < 0 || port > 65535 || (clock !== 'wall' && clock !== 'manual') || (groupDomain !== 'platform.io' && groupDomain !== 'k8s.io') || (settle !== 'auto' && settle !== 'manual')) {
    io.err(`platform-sim: bad option value\n${usage}`);
    return { code: 2 };
  }
  let users: StaticUser[] = [];
  const tokenFile = values['token-auth-file'];
  if (typeof tokenFile === 'string') {
    const read = readTokenAuthFile(tokenFile);
    if (!read.ok) {
      io.err(`platform-sim: ${read.message}`);
      return { code: 2 };
    }
    users = read.users;
  }
  try {
    const server = await serve({
      users,
      host: (values['host'] as string | undefined) ?? '127.0.0.1',
      port,
      clock,
      groupDomain,
      settle,
      ...(values['seed'] === undefined ? {} : { seed: values['seed'] as string }),
      ...(values['start-time'] === undefined ? {} : { startTime: values['start-time'] as string }),
      ...(values['admin-token'] === undefined ? {} : { adminToken: values['admin-token'] as string }),
      ...(values['kubeconfig'] === undefined ? {} : { kubeconfig: values['kubeconfig'] as string }),
      ...(values['state-file'] === undefined ? {} : { stateFile: values['state-file'] as string }),
      tls: values['no-tls'] !== true,
    });
    io.out(`platform-sim listening on ${server.url}`);
    io.out(`admin token: ${server.adminToken}`);
    return { code: 0, server };
  } catch (e) {
    io.err(`platform-sim: ${(e as Error).message}`);
    return { code: 2 };
  }
}
