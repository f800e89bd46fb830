/**
 * Scenario files with mistakes: each kind of mistake is reported with file, line and column and a
 * message that says what is wrong, and the file is not run.
 */
import { describe, expect, it } from 'vitest';
import { formatLocated, loadScenario } from '../../../src/scenario/load.ts';

const errorsOf = (text: string): string[] => {
  const l = loadScenario(text, 'x.yaml');
  return l.ok ? [] : l.errors.map(formatLocated);
};

describe('loading a scenario file', () => {
  it('reads a good file, with the line of each step', () => {
    const l = loadScenario('name: ok\nsteps:\n  - settle: true\n\n  - advance: 90s\n', 'x.yaml');
    expect(l).toEqual({ ok: true, scenario: { name: 'ok', steps: [{ settle: true }, { advance: '90s' }] }, stepLines: [3, 5] });
  });

  it.each([
    ['YAML that does not parse', 'name: x\nsteps:\n  - create: {a: 1\n', 'x.yaml:4:1: Flow map in block collection must be sufficiently indented and end with a }'],
    ['a key given twice', 'name: x\nname: y\nsteps:\n  - settle: true\n', 'x.yaml:2:1: Map keys must be unique'],
    ['an unknown top-level field', 'name: x\nsed: 1\nsteps:\n  - settle: true\n', 'x.yaml:2:1: sed: unknown field'],
    ['no steps', 'name: x\n', 'x.yaml:1:1: the file: "steps" is required'],
    ['a bad scenario name', 'name: Hello World\nsteps:\n  - settle: true\n', "x.yaml:1:7: name: must be lower-case letters, digits, '-' and '.', starting and ending with a letter or digit"],
    ['a start time that is not RFC 3339', 'name: x\nstartTime: yesterday\nsteps:\n  - settle: true\n', 'x.yaml:2:12: startTime: is not an RFC 3339 time such as 2025-01-01T00:00:00Z'],
    ['a step with no kind', 'name: x\nsteps:\n  - settle: true\n  - nam: y\n', 'x.yaml:4:5: steps[1]: a step needs one of create, apply, update, patch, delete, request, approve, deny, advance, settle, expect, capture, fault, snapshot, restore, certificateRequest'],
    ['a step with two kinds', 'name: x\nsteps:\n  - advance: 1s\n    settle: true\n', 'x.yaml:4:5: steps[0]: a step does one thing; this one has advance and settle'],
    ['a misspelt field of a step', 'name: x\nsteps:\n  - create:\n      apiVersion: v1\n      kind: ConfigMap\n      metadata: {name: a}\n    expcet: {status: 409}\n', 'x.yaml:7:5: steps[0].expcet: unknown field'],
    ['a manifest without its kind', 'name: x\nsteps:\n  - create:\n      apiVersion: v1\n      metadata: {name: a}\n', 'x.yaml:4:7: steps[0].create: "kind" is required'],
    ['a value of the wrong type', 'name: x\nsteps:\n  - advance: 5\n', 'x.yaml:3:14: steps[0].advance: must be string'],
    ['a duration that is not Go style', 'name: x\nsteps:\n  - advance: 5 minutes\n', 'x.yaml:3:14: steps[0].advance: is not a Go duration such as 500ms, 90s or 1h30m'],
    ['a value outside its choices', 'name: x\nsteps:\n  - patch: {apiVersion: v1, kind: Pod, name: a, type: yaml, patch: {}}\n', 'x.yaml:3:55: steps[0].patch.type: must be one of "merge", "strategic", "json", "apply"'],
    ['an expectation of two kinds', 'name: x\nsteps:\n  - expect:\n      absent: {apiVersion: v1, kind: Pod, name: a}\n      token: t\n', 'x.yaml:4:7: steps[0].expect: an expectation checks one of object, list, absent, request, token; this one has absent and token'],
    ['a field check that checks nothing', 'name: x\nsteps:\n  - expect:\n      object: {apiVersion: v1, kind: Pod, name: a}\n      fields: [{path: a}]\n', 'x.yaml:5:16: steps[0].expect.fields[0]: needs one of "equals", "exists", "absent", "notEquals"'],
    ['a value no earlier step captured', 'name: x\nsteps:\n  - expect: { token: "${tok}", authenticated: true }\n', 'x.yaml:3:22: steps[0].expect.token: ${tok} is not captured by an earlier step'],
    ['a value captured by the same step', 'name: x\nsteps:\n  - request: {method: GET, path: "/api/${v}"}\n    capture: {v: kind}\n', 'x.yaml:3:34: steps[0].request.path: ${v} is not captured by an earlier step'],
    ['a restore of no snapshot', 'name: x\nsteps:\n  - restore: before\n', 'x.yaml:3:14: steps[0].restore: no earlier snapshot is named "before"'],
    ['a fault rule with a code faults cannot have', 'name: x\nsteps:\n  - fault: [{code: 404}]\n', 'x.yaml:3:20: steps[0].fault[0].code: must be one of 409, 429, 500, 503, 504'],
  ])('%s', (_, text, message) => {
    expect(errorsOf(text)).toEqual([message]);
  });

  it('reports every mistake of a file, in order', () => {
    expect(errorsOf('name: x\nsteps:\n  - advance: soon\n  - restore: a\n')).toEqual(['x.yaml:3:14: steps[0].advance: is not a Go duration such as 500ms, 90s or 1h30m']);
    expect(errorsOf('name: x\nsteps:\n  - restore: a\n  - expect: {token: "${t}", authenticated: false}\n')).toEqual([
      'x.yaml:3:14: steps[0].restore: no earlier snapshot is named "a"',
      'x.yaml:4:21: steps[1].expect.token: ${t} is not captured by an earlier step',
    ]);
  });
});
