/**
 * Label selectors: parsing of every operator, Kubernetes' exact parse errors, matching
 * semantics (missing keys, integers), canonical printing and metav1.LabelSelector objects.
 */
import { describe, expect, it } from 'vitest';
import { fieldErrorString } from '../../../src/core/fieldErrors.ts';
import type { LabelSelector } from '../../../src/registry/selectors/labelSelector.ts';
import { newLabelRequirement } from '../../../src/registry/selectors/labelRequirement.ts';
import { labelSelectorFromObject, validateLabelSelectorObject } from '../../../src/registry/selectors/labelSelectorObject.ts';
import { labelSelectorToString } from '../../../src/registry/selectors/labelSelectorToString.ts';
import { labelSelectorIsEmpty, matchesLabels } from '../../../src/registry/selectors/matchesLabels.ts';
import { parseLabelSelector } from '../../../src/registry/selectors/parseLabelSelector.ts';

const KEY_NAME = `name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`;
const KEY_SLASHES = `a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`;
const VALUE = `a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`;

function sel(text: string): LabelSelector {
  const r = parseLabelSelector(text);
  if (!r.ok) throw new Error(`unexpected parse error for ${text}: ${r.message}`);
  return r.selector;
}

function parseError(text: string): string {
  const r = parseLabelSelector(text);
  return r.ok ? `parsed as ${labelSelectorToString(r.selector)}` : r.message;
}

describe('parsing', () => {
  it('parses every operator', () => {
    expect(sel('a=1,b==2,c!=3,d in (x,y),e notin (z),f,!g,h>4,i<5').requirements).toEqual([
      { key: 'a', operator: '=', values: ['1'] },
      { key: 'b', operator: '==', values: ['2'] },
      { key: 'c', operator: '!=', values: ['3'] },
      { key: 'd', operator: 'in', values: ['x', 'y'] },
      { key: 'e', operator: 'notin', values: ['z'] },
      { key: 'f', operator: 'exists', values: [] },
      { key: 'g', operator: '!', values: [] },
      { key: 'h', operator: 'gt', values: ['4'] },
      { key: 'i', operator: 'lt', values: ['5'] },
    ]);
  });

  it('treats the empty and blank selectors as everything', () => {
    expect(sel('').requirements).toEqual([]);
    expect(sel(' \t\r\n').requirements).toEqual([]);
    expect(labelSelectorIsEmpty(sel(''))).toBe(true);
  });

  it('allows whitespace around operators, values and commas', () => {
    expect(labelSelectorToString(sel(' x = y ,\tz != w , q in ( a , b ) , ! n '))).toBe('!n,q in (a,b),x=y,z!=w');
    expect(labelSelectorToString(sel('x in(a)'))).toBe('x in (a)');
  });

  it('sorts requirements by key, keeping the order of equal keys', () => {
    expect(labelSelectorToString(sel('x=a,a=x'))).toBe(labelSelectorToString(sel('a=x,x=a')));
    expect(sel('b=1,a!=2,b!=3').requirements.map((r) => `${r.key}${r.operator}`)).toEqual(['a!=', 'b=', 'b!=']);
  });

  it('turns set values into a sorted set, with empty members', () => {
    expect(sel('x in (b,a,a)').requirements[0]!.values).toEqual(['a', 'b']);
    expect(sel('x in ()').requirements[0]!.values).toEqual(['']);
    expect(sel('x in (,)').requirements[0]!.values).toEqual(['']);
    expect(sel('x in (a,)').requirements[0]!.values).toEqual(['', 'a']);
    expect(sel('x in (,a)').requirements[0]!.values).toEqual(['', 'a']);
    expect(sel('x notin (abc,,def)').requirements[0]!.values).toEqual(['', 'abc', 'def']);
  });

  it('reads an absent exact value as the empty string', () => {
    expect(sel('x=').requirements).toEqual([{ key: 'x', operator: '=', values: [''] }]);
    expect(sel('x=,z= ').requirements.map((r) => r.values)).toEqual([[''], ['']]);
    expect(sel('x!=').requirements).toEqual([{ key: 'x', operator: '!=', values: [''] }]);
  });

  it('uses in and notin as plain identifiers outside the operator position', () => {
    expect(sel('notin=in').requirements).toEqual([{ key: 'notin', operator: '=', values: ['in'] }]);
    expect(sel('in in (in,notin)').requirements).toEqual([{ key: 'in', operator: 'in', values: ['in', 'notin'] }]);
    expect(sel('in').requirements).toEqual([{ key: 'in', operator: 'exists', values: [] }]);
  });

  it('accepts prefixed keys and keys that are Object.prototype names', () => {
    expect(sel('app.kubernetes.io/name=web').requirements[0]!.key).toBe('app.kubernetes.io/name');
    expect(sel('constructor,toString=x').requirements.map((r) => r.key)).toEqual(['constructor', 'toString']);
  });
});

describe('parse errors (the 400 message)', () => {
  it.each([
    ['x=a,', "found '', expected: identifier after ','"],
    ['x=a,,y', "found ',', expected: identifier after ','"],
    [',a', "found ',', expected: !, identifier, or 'end of string'"],
    ['=a', "found '=', expected: !, identifier, or 'end of string'"],
    ['(a)', "found '(', expected: !, identifier, or 'end of string'"],
    ['x==a==b', "found '==', expected: ',' or 'end of string'"],
    ['!x=a', "found '=', expected: ',' or 'end of string'"],
    ['x=a y', "found 'y', expected: ',' or 'end of string'"],
    ['x in (a) y', "found 'y', expected: ',' or 'end of string'"],
  ])('%j → %s', (text, message) => {
    expect(parseError(text)).toBe(message);
  });

  it.each([
    ['x y', "found 'y', expected: in, notin, =, ==, !=, gt, lt"],
    ['Bad Key', "found 'Key', expected: in, notin, =, ==, !=, gt, lt"],
    ['x!', "found '!', expected: in, notin, =, ==, !=, gt, lt"],
    ['x(', "found '(', expected: in, notin, =, ==, !=, gt, lt"],
    ['!', "found '', expected: identifier"],
    ['!,x', "found ',', expected: identifier"],
    ['!!x', "found '!', expected: identifier"],
    ['x in a', "found 'a' expected: '('"],
    ['x in', "found '' expected: '('"],
    ['x in (', "found '', expected: ',', ')' or identifier"],
    ['x in (=)', "found '=', expected: ',', ')' or identifier"],
    ['x in (a', "found '', expected: ',' or ')'"],
    ['x in (a b)', "found 'b', expected: ',' or ')'"],
    ['x in (a,=)', "found '=', expected: ',', or identifier"],
    ['x in (a,', "found '', expected: ',', or identifier"],
    ['x=(', "found '(', expected: identifier"],
    ['x=!', "found '!', expected: identifier"],
  ])('%j → unable to parse requirement: %s', (text, message) => {
    expect(parseError(text)).toBe(`unable to parse requirement: ${message}`);
  });

  it('reports a bad key at the nil path, messages joined with "; "', () => {
    expect(parseError('-a=b')).toBe(`unable to parse requirement: <nil>: Invalid value: "-a": ${KEY_NAME}`);
    expect(parseError('a/b/c')).toBe(`unable to parse requirement: <nil>: Invalid value: "a/b/c": ${KEY_SLASHES}`);
    expect(parseError('/x')).toBe('unable to parse requirement: <nil>: Invalid value: "/x": prefix part must be non-empty');
    expect(parseError('example.com/')).toBe(`unable to parse requirement: <nil>: Invalid value: "example.com/": name part must be non-empty; ${KEY_NAME}`);
    expect(parseError('!-a')).toBe(`unable to parse requirement: <nil>: Invalid value: "-a": ${KEY_NAME}`);
  });

  it('reports a bad value at values[i][key]', () => {
    expect(parseError('a=-b')).toBe(`unable to parse requirement: values[0][a]: Invalid value: "-b": ${VALUE}`);
    expect(parseError('x=a||y=b')).toBe(`unable to parse requirement: values[0][x]: Invalid value: "a||y": ${VALUE}`);
    const long = 'v'.repeat(64);
    expect(parseError(`a=${long}`)).toBe(`unable to parse requirement: values[0][a]: Invalid value: "${long}": must be no more than 63 bytes`);
    expect(parseError(`a=-${long}`)).toBe(`unable to parse requirement: values[0][a]: Invalid value: "-${long}": must be no more than 63 bytes; ${VALUE}`);
  });

  it('aggregates several value errors as [e1, e2], indices in sorted-set order', () => {
    expect(parseError('a in (ok,-x,_y)')).toBe(
      `unable to parse requirement: [values[0][a]: Invalid value: "-x": ${VALUE}, values[1][a]: Invalid value: "_y": ${VALUE}]`,
    );
  });

  it('requires integers for > and <', () => {
    expect(parseError('x<a')).toBe(`unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`);
    expect(parseError('x>')).toBe(`unable to parse requirement: values[0]: Invalid value: "": for 'Gt', 'Lt' operators, the value must be an integer`);
    expect(parseError('x>1.5')).toBe(`unable to parse requirement: values[0]: Invalid value: "1.5": for 'Gt', 'Lt' operators, the value must be an integer`);
    expect(parseError('x>99999999999999999999')).toBe(
      `unable to parse requirement: values[0]: Invalid value: "99999999999999999999": for 'Gt', 'Lt' operators, the value must be an integer`,
    );
    expect(parseError('x>-a')).toBe(
      `unable to parse requirement: [values[0]: Invalid value: "-a": for 'Gt', 'Lt' operators, the value must be an integer, values[0][x]: Invalid value: "-a": ${VALUE}]`,
    );
    // -1 is an integer but not a label value.
    expect(parseError('x>-1')).toBe(`unable to parse requirement: values[0][x]: Invalid value: "-1": ${VALUE}`);
    expect(labelSelectorToString(sel('x>007'))).toBe('x>007');
  });

  it('stops where a NUL character starts a token, as the Go lexer does', () => {
    expect(labelSelectorToString(sel('a=b \u0000 garbage ((('))).toBe('a=b');
    expect(parseError('a\u0000b')).toBe("unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt");
  });
});

describe('matching', () => {
  const m = (text: string, labels?: Record<string, string>): boolean => matchesLabels(sel(text), labels);

  it('matches equality only with the key present', () => {
    expect(m('x=y', { x: 'y' })).toBe(true);
    expect(m('x==y', { x: 'y' })).toBe(true);
    expect(m('x=y', { x: 'z' })).toBe(false);
    expect(m('x=z', {})).toBe(false);
    expect(m('x=', {})).toBe(false);
    expect(m('x=', { x: '' })).toBe(true);
  });

  it('matches != and notin on objects without the key', () => {
    expect(m('x!=y', {})).toBe(true);
    expect(m('x!=y', undefined)).toBe(true);
    expect(m('x!=y', { x: 'z' })).toBe(true);
    expect(m('x!=y', { x: 'y' })).toBe(false);
    expect(m('x notin (a,b)', {})).toBe(true);
    expect(m('x notin (a,b)', { x: 'c' })).toBe(true);
    expect(m('x notin (a,b)', { x: 'b' })).toBe(false);
  });

  it('matches in against the set', () => {
    expect(m('x in (a,b)', { x: 'a' })).toBe(true);
    expect(m('x in (a,b)', { x: 'c' })).toBe(false);
    expect(m('x in (a,b)', {})).toBe(false);
    expect(m('x in ()', { x: '' })).toBe(true);
    expect(m('x in ()', { x: 'a' })).toBe(false);
  });

  it('tests existence', () => {
    expect(m('x', { x: '' })).toBe(true);
    expect(m('x', { y: 'z' })).toBe(false);
    expect(m('!x', { y: 'z' })).toBe(true);
    expect(m('!x', { x: 'z' })).toBe(false);
    expect(m('!x', undefined)).toBe(true);
  });

  it('compares > and < as 64-bit integers, never matching non-integers', () => {
    expect(m('x>1', { x: '2' })).toBe(true);
    expect(m('x>1', { x: '1' })).toBe(false);
    expect(m('x<1', { x: '0' })).toBe(true);
    expect(m('x<1', { x: '2' })).toBe(false);
    expect(m('x>1', {})).toBe(false);
    expect(m('x>1', { x: 'a' })).toBe(false);
    expect(m('x>1', { x: '1.5' })).toBe(false);
    expect(m('x>9', { x: '10' })).toBe(true);
    expect(m('x>5', { x: '007' })).toBe(true);
    expect(m('x>4', { x: '+5' })).toBe(true);
    expect(m('x<1', { x: '-5' })).toBe(true);
    expect(m('x>9007199254740992', { x: '9007199254740993' })).toBe(true);
    expect(m('x>1', { x: '9223372036854775807' })).toBe(true);
    expect(m('x>1', { x: '9223372036854775808' })).toBe(false);
  });

  it('ANDs requirements', () => {
    expect(m('x=y,z=w', { x: 'y', z: 'w' })).toBe(true);
    expect(m('x=y,z=w', { x: 'y', z: 'v' })).toBe(false);
    expect(m('', { any: 'thing' })).toBe(true);
    expect(m('', undefined)).toBe(true);
  });

  it('ignores inherited properties', () => {
    expect(m('constructor', {})).toBe(false);
    expect(m('!toString', {})).toBe(true);
    expect(m('hasOwnProperty!=x', {})).toBe(true);
    const parsed = JSON.parse('{"constructor":"a"}') as Record<string, string>;
    expect(m('constructor=a', parsed)).toBe(true);
  });
});

describe('labelSelectorToString', () => {
  it('prints Kubernetes canonical form (keys sorted, set values sorted, spaces removed)', () => {
    for (const text of ['x=a,y=b,z=c', 'x!=a,y=b', 'x=', 'x=,z=', '!x', 'x>1', 'x>1,z<5', 'a==b', 'x in (a,b),y notin ()']) {
      expect(labelSelectorToString(sel(text))).toBe(text);
    }
    expect(labelSelectorToString(sel('x= ,z= '))).toBe('x=,z=');
    expect(labelSelectorToString(sel('z in (c,a,b),a'))).toBe('a,z in (a,b,c)');
  });

  it('prints hand-built requirements sorted too', () => {
    const s: LabelSelector = { nothing: false, requirements: [{ key: 'b', operator: 'in', values: ['z', 'y'] }, { key: 'a', operator: '!', values: [] }] };
    expect(labelSelectorToString(s)).toBe('!a,b in (y,z)');
  });
});

describe('newLabelRequirement', () => {
  const errs = (r: ReturnType<typeof newLabelRequirement>): string[] => (r.ok ? [] : r.errors.map(fieldErrorString));

  it('checks the value count per operator, under the given path', () => {
    expect(errs(newLabelRequirement('k', 'in', []))).toEqual(["values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty"]);
    expect(errs(newLabelRequirement('k', '=', ['a', 'b'], 'spec'))).toEqual([`spec.values: Invalid value: ["a","b"]: exact-match compatibility requires one single value`]);
    expect(errs(newLabelRequirement('k', 'exists', ['a']))).toEqual(['values: Invalid value: ["a"]: values set must be empty for exists and does not exist']);
    expect(errs(newLabelRequirement('k', 'gt', []))).toEqual(["values: Invalid value: null: for 'Gt', 'Lt' operators, exactly one value is required"]);
    expect(errs(newLabelRequirement('-k', '!', []))).toEqual([`key: Invalid value: "-k": ${KEY_NAME}`]);
  });
});

describe('metav1.LabelSelector objects', () => {
  const at = 'spec.selector';
  const invalid = (s: Parameters<typeof validateLabelSelectorObject>[0]): string[] => validateLabelSelectorObject(s, at).map(fieldErrorString);

  it('converts matchLabels and matchExpressions, sorted by key', () => {
    const r = labelSelectorFromObject(
      { matchLabels: { b: '1', a: '2' }, matchExpressions: [{ key: 'c', operator: 'NotIn', values: ['y', 'x'] }, { key: 'a', operator: 'Exists' }, { key: 'd', operator: 'DoesNotExist' }, { key: 'e', operator: 'In', values: ['v'] }] },
      at,
    );
    expect(r.ok && r.selector.requirements).toEqual([
      { key: 'a', operator: '=', values: ['2'] },
      { key: 'a', operator: 'exists', values: [] },
      { key: 'b', operator: '=', values: ['1'] },
      { key: 'c', operator: 'notin', values: ['y', 'x'] },
      { key: 'd', operator: '!', values: [] },
      { key: 'e', operator: 'in', values: ['v'] },
    ]);
    expect(r.ok && labelSelectorToString(r.selector)).toBe('a=2,a,b=1,c notin (x,y),!d,e in (v)');
    expect(r.ok && matchesLabels(r.selector, { a: '2', b: '1', e: 'v' })).toBe(true);
    expect(r.ok && matchesLabels(r.selector, { a: '2', b: '1', e: 'v', d: '' })).toBe(false);
  });

  it('selects nothing for a missing selector and everything for an empty one', () => {
    const none = labelSelectorFromObject(undefined, at);
    expect(none.ok && matchesLabels(none.selector, {})).toBe(false);
    expect(none.ok && labelSelectorIsEmpty(none.selector)).toBe(false);
    const nil = labelSelectorFromObject(null, at);
    expect(nil.ok && matchesLabels(nil.selector, { a: 'b' })).toBe(false);
    const all = labelSelectorFromObject({}, at);
    expect(all.ok && matchesLabels(all.selector, { a: 'b' })).toBe(true);
    expect(all.ok && labelSelectorIsEmpty(all.selector)).toBe(true);
  });

  it('requires values for In and NotIn', () => {
    expect(invalid({ matchExpressions: [{ key: 'k', operator: 'In' }] })).toEqual([
      "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    ]);
    expect(invalid({ matchExpressions: [{ key: 'k', operator: 'In', values: ['a'] }, { key: 'k', operator: 'NotIn', values: [] }] })).toEqual([
      "spec.selector.matchExpressions[1].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    ]);
  });

  it('forbids values for Exists and DoesNotExist', () => {
    expect(invalid({ matchExpressions: [{ key: 'k', operator: 'Exists', values: ['a'] }] })).toEqual([
      "spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
    ]);
  });

  it('refuses unknown operators (case matters)', () => {
    expect(invalid({ matchExpressions: [{ key: 'k', operator: 'in', values: ['a'] }] })).toEqual([
      'spec.selector.matchExpressions[0].operator: Invalid value: "in": not a valid selector operator',
    ]);
  });

  it('checks keys and values, one error per message', () => {
    expect(invalid({ matchExpressions: [{ key: 'example.com/', operator: 'In', values: ['ok', '-bad'] }] })).toEqual([
      'spec.selector.matchExpressions[0].key: Invalid value: "example.com/": name part must be non-empty',
      `spec.selector.matchExpressions[0].key: Invalid value: "example.com/": ${KEY_NAME}`,
      `spec.selector.matchExpressions[0].values[1]: Invalid value: "-bad": ${VALUE}`,
    ]);
    expect(invalid({ matchLabels: { '-k': '-v' } })).toEqual([
      `spec.selector.matchLabels: Invalid value: "-k": ${KEY_NAME}`,
      `spec.selector.matchLabels: Invalid value: "-v": ${VALUE}`,
    ]);
    expect(validateLabelSelectorObject({ matchExpressions: [{ key: 'k', operator: 'In', values: ['-bad'] }] }, at, { allowInvalidLabelValue: true })).toEqual([]);
  });

  it('returns the validation errors instead of a selector', () => {
    const r = labelSelectorFromObject({ matchExpressions: [{ key: 'k', operator: 'Bogus' }] }, at);
    expect(r.ok ? [] : r.errors.map(fieldErrorString)).toEqual(['spec.selector.matchExpressions[0].operator: Invalid value: "Bogus": not a valid selector operator']);
  });
});
