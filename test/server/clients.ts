/**
 * Which real clients this machine has. Tests that need one print why they skip where it is
 * missing (kubectl ships with the machine image; python3-kubernetes only with Debian's python3).
 */
import { execFileSync } from 'node:child_process';

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
