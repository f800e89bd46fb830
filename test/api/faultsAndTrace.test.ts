/**
 * Fault rules make chosen requests fail as a struggling API server would, deterministically
 * (counts and seeded probabilities live in the world); the trace records requests, writes with
 * their actor, and time, identically for identical runs.
 */
import { describe, expect, it } from 'vitest';
import { createSA, saPath, sim, type Body } from '../helpers.ts';

describe('fault rules', () => {
  it('fail matching requests the given number of times, then let them through', async () => {
    const s = await sim();
    s.injectFaults([{ name: 'flaky-sa', verbs: ['create'], resources: ['serviceaccounts'], namespaces: ['default'], code: 503, times: 2 }]);
    const first = await createSA(s, 'a');
    expect(first.status).toBe(503);
    expect(first.headers['retry-after']).toBe('1');
    expect(first.body).toMatchObject({ reason: 'ServiceUnavailable', message: 'injected fault flaky-sa', code: 503 });
    expect((await createSA(s, 'a')).status).toBe(503);
    expect((await createSA(s, 'a')).status).toBe(201);
    expect(s.faults()).toEqual([{ rule: expect.objectContaining({ name: 'flaky-sa' }), fired: 2 }]);
    // Other verbs and namespaces are untouched.
    expect((await s.request({ method: 'GET', path: saPath('default', 'a') })).status).toBe(200);
  });

  it('answers with the real shapes of 409, 429, 500 and 504', async () => {
    const s = await sim();
    await createSA(s, 'a');
    s.injectFaults([{ verbs: ['update'], resources: ['serviceaccounts'], code: 409, message: 'the object has been modified; please apply your changes to the latest version and try again' }]);
    const current = (await s.request({ method: 'GET', path: saPath('default', 'a') })).body as Body;
    const conflict = await s.request({ method: 'PUT', path: saPath('default', 'a'), body: current });
    expect(conflict.body).toMatchObject({ reason: 'Conflict', code: 409, message: 'Operation cannot be fulfilled on serviceaccounts "a": the object has been modified; please apply your changes to the latest version and try again' });
    s.clearFaults();
    s.injectFaults([{ resources: ['serviceaccounts/token'], code: 500 }, { users: ['bob'], code: 429 }, { verbs: ['list'], code: 504 }]);
    expect((await s.request({ method: 'POST', path: `${saPath('default', 'a')}/token`, body: { spec: {} } })).body).toMatchObject({ reason: 'InternalError', code: 500, message: 'Internal error occurred: injected fault' });
    expect((await s.request({ method: 'POST', path: '/apis/authentication.platform.io/v1/selfsubjectreviews', body: {}, as: { user: 'bob' } })).body).toMatchObject({ reason: 'TooManyRequests', code: 429 });
    expect((await s.request({ method: 'GET', path: saPath() })).body).toMatchObject({ reason: 'Timeout', code: 504 });
  });

  it('fire with a seeded probability: the same seed gives the same outcomes', async () => {
    const outcomes = async () => {
      const s = await sim({ faults: [{ verbs: ['get'], code: 500, probability: 0.5 }] });
      const codes: number[] = [];
      for (let i = 0; i < 20; i++) codes.push((await s.request({ method: 'GET', path: saPath('default', 'default') })).status);
      return codes;
    };
    const a = await outcomes();
    expect(a).toEqual(await outcomes());
    expect(a.filter((c) => c === 500).length).toBeGreaterThan(2);
    expect(a.filter((c) => c === 200).length).toBeGreaterThan(2);
  });

  it('refuses bad rules', async () => {
    const s = await sim();
    expect(() => s.injectFaults([{ code: 418 }])).toThrow('faults[0].code: must be one of 409, 429, 500, 503, 504');
    await expect(sim({ faults: [{ code: 500, times: 0 }] })).rejects.toThrow('option faults[0].times: must be a positive integer');
  });
});

describe('trace', () => {
  it('records requests, writes with their actor, and time', async () => {
    const s = await sim();
    const start = s.trace().length;
    await s.request({ method: 'POST', path: '/api/v1/namespaces', body: { metadata: { name: 'team' } } });
    await s.advance('1s');
    const events = s.trace().slice(start);
    expect(events[0]).toMatchObject({ type: 'request', method: 'POST', path: '/api/v1/namespaces', user: 'system:admin', code: 201 });
    expect(events.filter((e) => e.type === 'write').map((e) => e.type === 'write' && `${e.change} ${e.resource} ${e.namespace}/${e.name} by ${e.by}`)).toEqual([
      'ADDED core/namespaces /team by api',
      'ADDED core/serviceaccounts team/default by serviceaccount-controller',
    ]);
    expect(events[events.length - 1]).toMatchObject({ type: 'clock', to: '2026-01-01T00:00:01Z' });
    expect(s.traceNdjson().split('\n').filter((l) => l !== '').every((l) => typeof JSON.parse(l).seq === 'number')).toBe(true);
  });

  it('is identical for identical runs', async () => {
    const run = async () => {
      const s = await sim();
      await createSA(s, 'a');
      await s.request({ method: 'DELETE', path: saPath('default', 'a') });
      await s.advance('10m');
      return s.traceNdjson();
    };
    expect(await run()).toBe(await run());
  });
});
