/**
 * What real TLS stacks make of a certificate the simulation issued: node:crypto must parse it
 * and find it issued and signed by the CA, and `openssl verify` must accept the chain at the
 * simulation's virtual time (skipped, with one printed line, where openssl is not installed).
 */
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';

const hasOpenssl = ((): boolean => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
})();
if (!hasOpenssl) console.log('openssl is not installed: issued certificates are checked with node:crypto only');

/** `at`: the RFC 3339 instant to verify at (the simulation's now). */
export function expectVerifies(pem: string, caPem: string, at: string): void {
  const cert = new X509Certificate(pem);
  const ca = new X509Certificate(caPem);
  expect(cert.checkIssued(ca)).toBe(true);
  expect(cert.verify(ca.publicKey)).toBe(true);
  if (!hasOpenssl) return;
  const dir = mkdtempSync(join(tmpdir(), 'psim-issued-'));
  try {
    writeFileSync(join(dir, 'ca.pem'), caPem);
    writeFileSync(join(dir, 'cert.pem'), pem);
    const attime = String(Date.parse(at) / 1000);
    let out: string;
    try {
      out = execFileSync('openssl', ['verify', '-attime', attime, '-CAfile', join(dir, 'ca.pem'), join(dir, 'cert.pem')], { encoding: 'utf8', stdio: 'pipe' });
    } catch (e) {
      const err = e as { stdout?: string; stderr?: string };
      out = `${err.stdout ?? ''}${err.stderr ?? ''}`;
    }
    expect(out).toBe(`${join(dir, 'cert.pem')}: OK\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
