/**
 * Which real clients this machine has. Tests that need one print why they skip where it is
 * missing (kubectl ships with the machine image; python3-kubernetes only with Debian's python3).
 * And a server for a test file's clients.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { serve, type RunningServer, type ServeOptions } from '../../src/server.ts';

function runs(file: string, args: string[]): boolean {
  try {
    execFileSync(file, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export const kubectlInstalled = (): boolean => runs('kubectl', ['version', '--client']);

export const pythonClientInstalled = (): boolean => runs('/usr/bin/python3', ['-c', 'import kubernetes']);

/**
 * A server for one test file (port 0, a kubeconfig in a fresh temp dir that is also kubectl's
 * HOME): started before the file's tests, closed after them.
 */
export function serverForFile(prefix: string, options: ServeOptions): { readonly dir: string; readonly kubeconfig: string; server: () => RunningServer } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const kubeconfig = join(dir, 'kubeconfig');
  let running: RunningServer | undefined;
  beforeAll(async () => {
    running = await serve({ ...options, port: 0, kubeconfig });
  });
  afterAll(async () => {
    await running?.close();
  });
  return { dir, kubeconfig, server: () => running! };
}
