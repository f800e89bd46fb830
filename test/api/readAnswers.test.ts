/**
 * A read repeated on a world that has not moved is answered with the answer already worked out
 * (readAnswers.ts): the same bytes, a request in the trace each time, and nothing kept across a
 * change of the world, of the credentials, or for reads that move the world (a fault's count),
 * open watches or answer from outside the world (the trace).
 */
import { describe, expect, it } from 'vitest';
import { createSimulation } from '../../src/index.ts';

const path = '/api/v1/namespaces/default/serviceaccounts/default';
const users = [
  { token: 'admin-token', user: 'alice', groups: ['system:masters'] },
  { token: 'plain-token', user: 'bob' },
];
const as = (token: string) => ({ method: 'GET', path, headers: { authorization: `Bearer ${token}` }, transport: 'http' as const });

describe('reads answered again on an unchanged world', () => {
  it('give the same answer, and each is traced', async () => {
    const sim = await createSimulation({ seed: 3, users, checkInvariants: true });
    const first = await sim.respond(as('admin-token'));
    const second = await sim.respond(as('admin-token'));
    expect(second).toBe(first);
    expect(first.status).toBe(200);
    // Shared, so frozen: a caller cannot change the answer the next one gets.
    expect(Object.isFrozen(first) && Object.isFrozen(first.headers)).toBe(true);
    const requests = sim.trace().filter((e) => e.type === 'request' && e.path === path);
    expect(requests.map((e) => (e as { user: string }).user)).toEqual(['alice', 'alice']);
  });

  it('are worked out again when the credentials or the world differ', async () => {
    const sim = await createSimulation({ seed: 3, users });
    const admin = await sim.respond(as('admin-token'));
    expect((await sim.respond(as('plain-token'))).status).toBe(403);
    expect((await sim.respond(as('no-such-token'))).status).toBe(401);
    expect(await sim.respond(as('admin-token'))).toBe(admin);
    await sim.request({ method: 'PATCH', path, headers: { 'content-type': 'application/merge-patch+json' }, body: { metadata: { labels: { a: 'b' } } } });
    const changed = await sim.respond(as('admin-token'));
    expect(changed).not.toBe(admin);
    expect(JSON.parse(changed.body as string).metadata.labels).toEqual({ a: 'b' });
  });

  it('are not kept when the read moved the world, opened a watch or read the trace', async () => {
    const sim = await createSimulation({ seed: 3, users });
    sim.injectFaults([{ verbs: ['get'], resources: ['serviceaccounts'], code: 503, times: 2 }]);
    expect((await sim.respond(as('admin-token'))).status).toBe(503);
    expect((await sim.respond(as('admin-token'))).status).toBe(503);
    expect((await sim.respond(as('admin-token'))).status).toBe(200);

    const watch = { ...as('admin-token'), path: '/api/v1/namespaces/default/serviceaccounts?watch=true' };
    const w1 = await sim.respond(watch);
    const w2 = await sim.respond(watch);
    expect(w1.watch).toBeDefined();
    expect(w2.watch).toBeDefined();
    expect(w2.watch).not.toBe(w1.watch);
    w1.watch!.close();
    w2.watch!.close();

    const trace = { ...as('admin-token'), path: '/sim/v1/trace' };
    const t1 = (await sim.respond(trace)).body as string;
    const t2 = (await sim.respond(trace)).body as string;
    expect(t2.length).toBeGreaterThan(t1.length);
  });
});
