/**
 * A file only its owner may read (mode 0600), for what holds credentials: the kubeconfig (the
 * admin token). An existing file is tightened before the new text goes in, so a secret never
 * lands in a file others can read.
 */
import { closeSync, fchmodSync, openSync, writeSync } from 'node:fs';

export function writePrivateFile(path: string, text: string): void {
  const fd = openSync(path, 'w', 0o600);
  try {
    fchmodSync(fd, 0o600);
    const bytes = Buffer.from(text);
    for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off);
  } finally {
    closeSync(fd);
  }
}
