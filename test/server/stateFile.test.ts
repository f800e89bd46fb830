/** --state-file: a restarted server resumes the world it persisted, byte for byte. */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serve } from '../../src/server.ts';

describe('state file', () => {
  it('persists after every change and resumes at start', async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'psim-state-')), 'world.json');
    const first = await serve({ port: 0, clock: 'manual', tls: false, stateFile });
    const headers = { authorization: `Bearer ${first.adminToken}`, 'content-type': 'application/json' };
    const res = await fetch(`${first.url}/api/v1/namespaces/default/serviceaccounts`, { method: 'POST', headers, body: JSON.stringify({ metadata: { name: 'kept' } }) });
    expect(res.status).toBe(201);
    const hash = first.sim.hash();
    await first.close();
    expect(existsSync(stateFile)).toBe(true);
    const second = await serve({ port: 0, clock: 'manual', tls: false, stateFile });
    expect(second.sim.hash()).toBe(hash);
    const got = await fetch(`${second.url}/api/v1/namespaces/default/serviceaccounts/kept`, { headers });
    expect(got.status).toBe(200);
    await second.close();
  });
});
