/**
 * The official Python client (Debian's python3-kubernetes, importable only by Debian's own
 * /usr/bin/python3) against the HTTPS server. Skipped with a message where it is not installed.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { serve } from '../../src/server.ts';
import { pythonClientInstalled } from './clients.ts';


describe('Python client', () => {
  it('creates, reads and lists ServiceAccounts over HTTPS', async (ctx) => {
    if (!pythonClientInstalled()) {
      console.log('python3-kubernetes is not importable by /usr/bin/python3: skipping the Python client test');
      ctx.skip();
    }
    const server = await serve({ port: 0, clock: 'manual', seed: 13 });
    try {
      const ca = join(mkdtempSync(join(tmpdir(), 'psim-py-')), 'ca.pem');
      writeFileSync(ca, server.caPem!);
      const out = await promisify(execFile)('/usr/bin/python3', [join(import.meta.dirname, 'python', 'smoke.py'), server.url, server.adminToken, ca], { encoding: 'utf8' });
      expect(JSON.parse(out.stdout)).toEqual({ uid: true, names: ['default', 'from-python'], missing: 404 });
    } finally {
      await server.close();
    }
  });

  it('requests and reviews tokens with the typed APIs in k8s.io mode', async (ctx) => {
    if (!pythonClientInstalled()) {
      console.log('python3-kubernetes is not importable by /usr/bin/python3: skipping the Python identity test');
      ctx.skip();
    }
    const server = await serve({ port: 0, clock: 'manual', seed: 14, groupDomain: 'k8s.io' });
    try {
      const ca = join(mkdtempSync(join(tmpdir(), 'psim-py-')), 'ca.pem');
      writeFileSync(ca, server.caPem!);
      const out = await promisify(execFile)('/usr/bin/python3', [join(import.meta.dirname, 'python', 'identity.py'), server.url, server.adminToken, ca], { encoding: 'utf8' });
      expect(JSON.parse(out.stdout)).toEqual({ authenticated: true, user: 'system:serviceaccount:default:py-robot', audiences: ['vault'], whoami: 'system:serviceaccount:default:py-robot' });
    } finally {
      await server.close();
    }
  });
});
