/**
 * `PUT /sim/v1/snapshot` has its own body limit (`limits.snapshotBodyBytesMax`): a world larger
 * than the 3 MiB request limit is saved and put back over HTTP to the same hash; a caller without
 * an admin's credentials at the edge keeps the 3 MiB limit there (a 413 for a larger body, the
 * simulation's 403 for a smaller one), as every other request does; the limit is checked while
 * the body is read.
 */
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/server.ts';
import { limits } from '../../src/core/limits.ts';
import { bodyBytesMaxFor, readBody } from '../../src/edges/http/readBody.ts';
import { failure } from '../helpers.ts';

const cms = '/api/v1/namespaces/default/configmaps';
const tooLarge = failure(413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728');

let source: RunningServer;
let target: RunningServer;
beforeAll(async () => {
  source = await serve({ port: 0, clock: 'manual', tls: false });
  target = await serve({ port: 0, clock: 'manual', tls: false, users: [{ token: 'dev-token', user: 'dev', groups: ['developers'] }] });
});
afterAll(async () => {
  await source.close();
  await target.close();
});

async function call(server: RunningServer, method: string, path: string, body: string, token = server.adminToken) {
  const res = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const hashOf = async (server: RunningServer): Promise<string> => (((await (await fetch(`${server.url}/sim/v1/hash`, { headers: { authorization: `Bearer ${server.adminToken}` } })).json()) as { hash: string }).hash);

describe('PUT /sim/v1/snapshot', () => {
  it('puts back a world larger than the request limit, to the same hash', async () => {
    // 48 ConfigMaps of 100 KB: each under every object limit, the world past 3 MiB.
    for (let i = 0; i < 48; i++) await source.sim.request({ method: 'POST', path: cms, body: { metadata: { name: `big-${i}` }, data: { blob: 'x'.repeat(100_000) } } });
    const saved = await (await fetch(`${source.url}/sim/v1/snapshot`, { headers: { authorization: `Bearer ${source.adminToken}` } })).text();
    expect(Buffer.byteLength(saved)).toBeGreaterThan(limits.requestBodyBytesMax);
    const hash = await hashOf(source);
    expect(await hashOf(target)).not.toBe(hash);

    // A user the world is not theirs to replace, or no one: the body is not read past the request
    // limit (the edge gives the larger one only to a system:masters token or a verified client
    // certificate), so the 413 before authentication could answer.
    const before = await hashOf(target);
    expect(await call(target, 'PUT', '/sim/v1/snapshot', saved, 'dev-token')).toEqual({ status: 413, json: tooLarge });
    expect(await call(target, 'PUT', '/sim/v1/snapshot', saved, 'forged')).toEqual({ status: 413, json: tooLarge });
    // Under the request limit, the simulation's own answer: 403 for the user.
    const small = await call(target, 'PUT', '/sim/v1/snapshot', '{}', 'dev-token');
    expect(small.status).toBe(403);
    expect(small.json).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403 });
    expect(await hashOf(target)).toBe(before);

    const put = await call(target, 'PUT', '/sim/v1/snapshot', saved);
    expect(put).toEqual({ status: 200, json: { hash } });
    expect(await hashOf(target)).toBe(hash);
    const got = await fetch(`${target.url}${cms}/big-47`, { headers: { authorization: `Bearer ${target.adminToken}` } });
    expect(((await got.json()) as { data: { blob: string } }).data.blob).toHaveLength(100_000);
  });

  it('keeps the request limit everywhere else: a resource, another control endpoint, a GET of the snapshot path', async () => {
    const big = 'x'.repeat(limits.requestBodyBytesMax + 1);
    expect(await call(target, 'POST', cms, big)).toEqual({ status: 413, json: tooLarge });
    expect(await call(target, 'POST', '/sim/v1/faults', big)).toEqual({ status: 413, json: tooLarge });
    expect(await call(target, 'POST', '/sim/v1/snapshot', big)).toEqual({ status: 413, json: tooLarge });
    const limitOf = (method: string, url: string, admin = true): number => bodyBytesMaxFor(Object.assign(incoming(), { method, url }), () => admin);
    expect(limitOf('PUT', '/sim/v1/snapshot')).toBe(limits.snapshotBodyBytesMax);
    expect(limitOf('PUT', '/sim/v1/snapshot?pretty=true')).toBe(limits.snapshotBodyBytesMax);
    expect(limitOf('PUT', '/sim/v1/snapshot', false)).toBe(limits.requestBodyBytesMax);
    expect(limitOf('PUT', '/sim/v1/snapshots')).toBe(limits.requestBodyBytesMax);
    expect(limitOf('PUT', '/api/v1/namespaces/default/configmaps/x')).toBe(limits.requestBodyBytesMax);
  });
});

/** A request whose body arrives as pushed, and never ends unless told to. */
function incoming(): IncomingMessage {
  return new IncomingMessage(new Socket());
}

describe('readBody', () => {
  it('stops at the limit while the body is still coming, without waiting for its end', async () => {
    const req = incoming();
    const read = readBody(req, 10);
    req.push(Buffer.from('0123456789'));
    req.push(Buffer.from('x'));
    expect(await read).toEqual({ ok: false });
  });

  it('reads a body up to the limit exactly, as a plain Uint8Array', async () => {
    const req = incoming();
    const read = readBody(req, 10);
    req.push(Buffer.from('01234'));
    req.push(Buffer.from('56789'));
    req.push(null);
    const body = await read;
    expect(body.ok).toBe(true);
    if (!body.ok) return;
    expect(Object.getPrototypeOf(body.bytes)).toBe(Uint8Array.prototype);
    expect(new TextDecoder().decode(body.bytes)).toBe('0123456789');
  });
});
