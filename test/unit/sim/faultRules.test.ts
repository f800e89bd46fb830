import { describe, expect, it } from 'vitest';
import { validateFaultRules } from '../../../src/sim/faultRules.ts';
import { loadScenario } from '../../../src/scenario/load.ts';

const problem = (rules: unknown): string => {
  const r = validateFaultRules(rules);
  return r.ok ? 'ok' : r.message;
};

describe('fault rules: one format for every kind', () => {
  it('accepts each kind in its documented shape', () => {
    expect(
      problem([
        { code: 500, verbs: ['create'], resources: ['pods'], after: 2, times: 1 },
        { kind: 'error', code: 429, controllers: ['statefulset'], retryAfterSeconds: 3, when: { 'status.readyReplicas': 2 } },
        { kind: 'watch', action: 'delay', delay: '5s', resources: ['pods'] },
        { kind: 'watch', action: 'expire', times: 1 },
        { kind: 'staleRead', revisions: 3, verbs: ['list'], probability: 0.5 },
        { kind: 'controller', controller: 'statefulset', action: 'crash', from: '10s', for: '30s' },
        { kind: 'node', action: 'nodeLost', from: '1m' },
        { kind: 'node', action: 'podNeverReady', namespaces: ['default'], names: ['web-1'] },
      ]),
    ).toBe('ok');
  });

  it('names the first problem with its place and the kind', () => {
    expect(problem({})).toBe('faults: expected a list of rules');
    expect(problem([{ code: 418 }])).toBe('faults[0].code: must be one of 409, 429, 500, 503, 504');
    expect(problem([{ kind: 'disk', code: 500 }])).toBe('faults[0].kind: must be one of error, watch, staleRead, controller, node');
    expect(problem([{ kind: 'watch', action: 'drop', code: 500 }])).toBe('faults[0]: unknown field "code" for a rule of kind watch');
    expect(problem([{ kind: 'watch', action: 'delay' }])).toBe('faults[0].delay: required for the delay action');
    expect(problem([{ kind: 'watch', action: 'drop', delay: '1s' }])).toBe('faults[0].delay: only for the delay action');
    expect(problem([{ kind: 'staleRead' }])).toBe('faults[0].revisions: required for a rule of kind staleRead');
    expect(problem([{ kind: 'controller', controller: 'statefulset', action: 'pause', for: 'soon' }])).toBe('faults[0].for: must be a Go duration such as "30s"');
    expect(problem([{ code: 500, after: -1 }])).toBe('faults[0].after: must be a non-negative integer');
    expect(problem([{ code: 500, when: { 'status..x': 1 } }])).toMatch(/^faults\[0\]\.when: field path "status\.\.x"/);
    let deep: unknown = 1;
    for (let i = 0; i < 5000; i++) deep = [deep];
    expect(problem([{ code: 500, when: { 'status.x': deep } }])).toBe('faults[0].when: the value for "status.x" is nested deeper than 100');
    expect(problem([{ kind: 'node', action: 'reboot' }])).toBe('faults[0].action: must be one of podNeverReady, podFails, nodeLost');
  });

  it('scenario files are checked against the same shapes by the schema', () => {
    const load = (rule: string): string => {
      const r = loadScenario(`name: f\nsteps:\n  - fault:\n      - ${rule}\n`, 'f.yaml');
      return r.ok ? 'ok' : r.errors.map((e) => `${e.line}:${e.column} ${e.message}`).join('; ');
    };
    expect(load('{ kind: watch, action: drop, resources: [pods] }')).toBe('ok');
    expect(load('{ kind: watch, action: drop, code: 500 }')).toBe('4:38 steps[0].fault[0].code: unknown field');
    expect(load('{ kind: controller, action: crash }')).toMatch(/^4:9 .*controller/);
  });
});
