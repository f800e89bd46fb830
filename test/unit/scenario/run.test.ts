/**
 * The runner, apart from files: a scenario built in TypeScript runs in process; a target that
 * cannot do what a step needs skips from there with the reason; on a target whose controllers run
 * on their own a check is retried until it holds; field paths and partial shapes read as documented.
 */
import { describe, expect, it } from 'vitest';
import type { Answer, DriverRequest, ScenarioDriver } from '../../../src/scenario/driver.ts';
import { parseFieldPath, readFieldPath } from '../../../src/core/fieldPath.ts';
import type { Scenario } from '../../../src/scenario/format.ts';
import { InProcessDriver } from '../../../src/scenario/inProcess.ts';
import { matchShape } from '../../../src/scenario/match.ts';
import { checkAnswer, offsetOf, runScenario } from '../../../src/scenario/run.ts';
import { brokenControllers } from '../../fixtures/brokenControllers.ts';

const inProcess = { driver: (s: Scenario, seed: number) => InProcessDriver.start(s, seed) };

describe('runScenario', () => {
  it('runs a scenario built in TypeScript, captures values and uses them', async () => {
    const scenario: Scenario = {
      name: 'typed',
      startTime: '2026-01-01T00:00:00Z',
      steps: [
        { create: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder' } }, capture: { uid: 'metadata.uid' } },
        { request: { method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts/builder/token', body: { spec: {} } }, capture: { tok: 'status.token' } },
        { expect: { token: '${tok}', authenticated: true, user: { uid: '${uid}', username: 'system:serviceaccount:default:builder' } } },
        { advance: '1h' },
        { expect: { token: '${tok}', authenticated: true } },
        { advance: '61s' },
        { expect: { token: '${tok}', authenticated: false } },
      ],
    };
    const r = await runScenario(scenario, inProcess);
    expect(r.steps.map((s) => [s.offset, s.outcome])).toEqual([
      ['+00:00', 'passed'],
      ['+00:00', 'passed'],
      ['+00:00', 'passed'],
      ['+00:00', 'passed'],
      ['+1:00:00', 'passed'],
      ['+1:00:00', 'passed'],
      ['+1:01:01', 'passed'],
    ]);
    expect(r.tokens).toEqual([{ step: 2, account: 'default/builder', issuedAt: '2026-01-01T00:00:00Z', expires: '2026-01-01T01:00:00Z', audiences: ['https://platform-sim.local'] }]);
  });

  it('sends `as` as impersonation, so a user without rights is refused with the real message', async () => {
    const r = await runScenario(
      {
        name: 'as',
        steps: [{ request: { method: 'GET', path: '/api/v1/namespaces/default/configmaps' }, as: { user: 'alice', groups: ['dev', 'ops'] }, expect: { status: 403, message: 'configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "default"' } }],
      },
      inProcess,
    );
    expect(r.outcome, JSON.stringify(r.steps[0])).toBe('passed');
  });

  it('fails the step that broke an invariant (option checkInvariants), and goes no further', async () => {
    const scenario: Scenario = {
      name: 'broken',
      options: { checkInvariants: true },
      steps: [
        { create: { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web' }, spec: { replicas: 2, serviceName: 'web', selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' }, annotations: { 'sim.platform.io/ready-after': '5s' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } } } } },
        { advance: '10s' },
      ],
    };
    // The StatefulSet controller swapped for one that does not wait for readiness.
    const driver = (s: Scenario, seed: number) => InProcessDriver.start({ ...s, options: { ...s.options, controllers: [brokenControllers.orderedReadyWithoutWaiting] } as NonNullable<Scenario['options']> }, seed);
    const r = await runScenario(scenario, { driver });
    expect(r.outcome).toBe('failed');
    expect(r.steps[0]).toMatchObject({ outcome: 'failed', failure: { message: expect.stringMatching(/^invariants broken/) } });
    expect(r.steps[1]).toMatchObject({ outcome: 'skipped', skipped: 'an earlier step failed' });
  });

  it('skips from the first step that needs what the target lacks, saying why', async () => {
    const driver = fakeDriver({ cannotTime: true });
    const r = await runScenario({ name: 'timed', steps: [{ settle: true }, { advance: '1m' }, { settle: true }] }, { driver: () => Promise.resolve(driver) });
    expect(r.outcome).toBe('skipped');
    expect(r.skipped).toBe('step 2 (advance 1m): no virtual time here');
    expect(r.steps.map((s) => s.outcome)).toEqual(['passed', 'skipped', 'skipped']);
  });

  it('retries a check on an eventual target until it holds', async () => {
    let reads = 0;
    const driver = fakeDriver({ eventual: true, answer: () => ({ status: 200, headers: {}, body: { kind: 'ConfigMap', metadata: { name: 'a' }, data: { ready: String(++reads >= 3) } } }) });
    const r = await runScenario({ name: 'eventual', steps: [{ expect: { object: { apiVersion: 'v1', kind: 'ConfigMap', name: 'a' }, fields: [{ path: 'data.ready', equals: 'true' }] } }] }, { driver: () => Promise.resolve(driver) });
    expect(r.outcome).toBe('passed');
    expect(reads).toBe(3);
    expect(driver.pauses).toBe(2);
  });
});

describe('field paths', () => {
  const pod = { metadata: { labels: { 'app.platform.io/name': 'web' } }, status: { conditions: [{ type: 'Ready', status: 'True' }, { type: 'Scheduled', status: 'False' }] } };
  it.each([
    ['status.conditions[type=Scheduled].status', { found: true, value: 'False' }],
    ['status.conditions[1].type', { found: true, value: 'Scheduled' }],
    ['metadata.labels["app.platform.io/name"]', { found: true, value: 'web' }],
    ['status.conditions[type=Gone].status', { found: false }],
    ['status.conditions[5]', { found: false }],
    ['metadata.name', { found: false }],
  ])('%s', (path, want) => {
    const segments = parseFieldPath(path);
    expect(typeof segments).not.toBe('string');
    expect(readFieldPath(pod, segments as Exclude<typeof segments, string>)).toEqual(want);
  });
  it('says what is wrong with a malformed path', () => {
    expect(parseFieldPath('a[1')).toBe('field path "a[1": "[" is not closed at character 2');
    expect(parseFieldPath('a..b')).toBe('field path "a..b": a dot needs a name on each side at character 2');
    expect(parseFieldPath('a[x]')).toBe('field path "a[x]": "[x]" is neither an index nor field=value at character 5');
  });
});

describe('partial shapes and answers', () => {
  it('matches the fields given, lists element by element, and names the first difference', () => {
    expect(matchShape({ a: { b: 1 } }, { a: { b: 1, c: 2 }, d: 3 })).toBeNull();
    expect(matchShape({ a: [{ x: 1 }] }, { a: [{ x: 1, y: 2 }] })).toBeNull();
    expect(matchShape({ a: [{ x: 1 }] }, { a: [{ x: 1 }, { x: 2 }] })).toEqual({ path: 'a', expected: [{ x: 1 }], seen: [{ x: 1 }, { x: 2 }] });
    expect(matchShape({ a: { b: '1' } }, { a: { b: 1 } })).toEqual({ path: 'a.b', expected: '1', seen: 1 });
    expect(matchShape({ a: { z: 1 } }, { a: {} })).toEqual({ path: 'a.z', expected: 1, seen: undefined, missing: true });
  });

  it('checks fields: equals, notEquals, exists, absent', () => {
    const answer: Answer = { status: 200, headers: {}, body: { metadata: { uid: 'u2' } } };
    expect(checkAnswer({ fields: [{ path: 'metadata.uid', notEquals: 'u1' }, { path: 'metadata.uid', equals: 'u2' }, { path: 'metadata.uid', exists: true }, { path: 'spec', absent: true }] }, answer, true)).toBeNull();
    expect(checkAnswer({ fields: [{ path: 'metadata.uid', notEquals: 'u2' }] }, answer, true)).toEqual({ message: 'metadata.uid should differ from "u2"', seen: 'u2' });
    expect(checkAnswer({ fields: [{ path: 'metadata.name', notEquals: 'x' }] }, answer, true)).toEqual({ message: 'metadata.name is missing' });
  });

  it('reads warnings from their header texts', () => {
    const answer: Answer = { status: 201, headers: { warning: ['299 - "spec.x: deprecated"', '299 - "say \\"hi\\""'] }, body: {} };
    expect(checkAnswer({ warnings: ['spec.x: deprecated', 'say "hi"'] }, answer, true)).toBeNull();
    expect(checkAnswer({ warnings: ['other'] }, answer, true)).toMatchObject({ message: 'a warning is missing', expected: 'other' });
  });

  it('counts time from the start in minutes, hours and days', () => {
    expect(offsetOf('2025-01-01T00:00:00Z', '2025-01-01T00:01:05Z')).toBe('+01:05');
    expect(offsetOf('2025-01-01T00:00:00Z', '2025-01-01T02:00:00Z')).toBe('+2:00:00');
    expect(offsetOf('2025-01-01T00:00:00Z', '2025-01-02T01:00:00Z')).toBe('+1d01:00:00');
  });
});

/** A driver that answers discovery for ConfigMaps and whatever `answer` says otherwise. */
function fakeDriver(o: { cannotTime?: boolean; eventual?: boolean; answer?: (r: DriverRequest) => Answer }): ScenarioDriver & { pauses: number } {
  const discovery: Record<string, unknown> = { '/api/v1': { resources: [{ name: 'configmaps', kind: 'ConfigMap', namespaced: true }] }, '/apis': { groups: [] } };
  const d = {
    pauses: 0,
    eventual: o.eventual ?? false,
    cannot: (c: string) => (c === 'time' && o.cannotTime === true ? 'no virtual time here' : undefined),
    request: (r: DriverRequest) => Promise.resolve(discovery[r.path] !== undefined ? { status: 200, headers: {}, body: discovery[r.path] } : (o.answer?.(r) ?? { status: 404, headers: {}, body: {} })),
    now: () => Promise.resolve(undefined),
    advance: () => Promise.resolve(),
    settle: () => Promise.resolve(),
    setFaults: () => Promise.resolve(),
    snapshot: () => Promise.resolve(),
    restore: () => Promise.resolve(),
    certificateRequest: () => Promise.reject(new Error('no')),
    pause: () => {
      d.pauses++;
      return Promise.resolve();
    },
    newEvents: () => Promise.resolve([]),
    close: () => Promise.resolve(),
  };
  return d;
}
