/**
 * Field selectors: Kubernetes' term splitting and sorting, escapes and their error texts,
 * matching of missing fields, and the two unsupported-field messages.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  escapeFieldValue,
  fieldSelectorRequirements,
  fieldSelectorToString,
  matchesFields,
  parseFieldSelector,
  unescapeFieldValue,
  unsupportedFieldMessage,
  type FieldSelector,
} from '../../../src/registry/selectors/fieldSelector.ts';

function sel(text: string): FieldSelector {
  const r = parseFieldSelector(text);
  if (!r.ok) throw new Error(`unexpected parse error for ${text}: ${r.message}`);
  return r.selector;
}

function parseError(text: string): string {
  const r = parseFieldSelector(text);
  return r.ok ? `parsed as ${fieldSelectorToString(r.selector)}` : r.message;
}

describe('parsing', () => {
  it('parses =, == and != (== kept as =)', () => {
    expect(fieldSelectorRequirements(sel('metadata.name=a,spec.x==b,status.phase!=Running'))).toEqual([
      { field: 'metadata.name', operator: '=', value: 'a' },
      { field: 'spec.x', operator: '=', value: 'b' },
      { field: 'status.phase', operator: '!=', value: 'Running' },
    ]);
  });

  it('sorts terms as text, so requirements come in that order', () => {
    expect(fieldSelectorRequirements(sel('b=1,a!=2,a=3')).map((r) => `${r.field}${r.operator}${r.value}`)).toEqual(['a!=2', 'a=3', 'b=1']);
  });

  it('skips empty terms and drops the term with neither field nor value', () => {
    expect(fieldSelectorRequirements(sel(''))).toEqual([]);
    expect(fieldSelectorRequirements(sel(',,a=b,'))).toEqual([{ field: 'a', operator: '=', value: 'b' }]);
    expect(fieldSelectorRequirements(sel('='))).toEqual([]);
    expect(fieldSelectorRequirements(sel('!='))).toEqual([]);
    expect(fieldSelectorRequirements(sel('=x'))).toEqual([{ field: '', operator: '=', value: 'x' }]);
  });

  it('allows an empty value', () => {
    expect(fieldSelectorRequirements(sel('spec.nodeName='))).toEqual([{ field: 'spec.nodeName', operator: '=', value: '' }]);
  });

  it('does not trim whitespace', () => {
    expect(fieldSelectorRequirements(sel(' a = b '))).toEqual([{ field: ' a ', operator: '=', value: ' b ' }]);
  });

  it('splits at the first operator, trying != then == then = at each position', () => {
    expect(fieldSelectorRequirements(sel('a!=b'))).toEqual([{ field: 'a', operator: '!=', value: 'b' }]);
    expect(fieldSelectorRequirements(sel('a!b=c'))).toEqual([{ field: 'a!b', operator: '=', value: 'c' }]);
    expect(fieldSelectorRequirements(sel('a=!b'))).toEqual([{ field: 'a', operator: '=', value: '!b' }]);
  });

  it('unescapes \\, \\= and \\\\ in values', () => {
    expect(fieldSelectorRequirements(sel('a=b\\,c'))).toEqual([{ field: 'a', operator: '=', value: 'b,c' }]);
    expect(fieldSelectorRequirements(sel('a=b\\=c'))).toEqual([{ field: 'a', operator: '=', value: 'b=c' }]);
    expect(fieldSelectorRequirements(sel('a=b\\\\,c=d'))).toEqual([
      { field: 'a', operator: '=', value: 'b\\' },
      { field: 'c', operator: '=', value: 'd' },
    ]);
  });
});

describe('parse errors (the 400 message)', () => {
  it('names the whole selector and the term it cannot understand', () => {
    expect(parseError('a')).toBe("invalid selector: 'a'; can't understand 'a'");
    expect(parseError('b=1,a')).toBe("invalid selector: 'b=1,a'; can't understand 'a'");
    expect(parseError('metadata.name in (a)')).toBe("invalid selector: 'metadata.name in (a)'; can't understand 'metadata.name in (a)'");
    expect(parseError('a<1')).toBe("invalid selector: 'a<1'; can't understand 'a<1'");
  });

  it('reports the first bad term in sorted order', () => {
    expect(parseError('z,y')).toBe("invalid selector: 'z,y'; can't understand 'y'");
  });

  it('reports bad escapes and bare = with Kubernetes wording (a rune printed as its number)', () => {
    expect(parseError('a=b=c')).toBe('invalid field selector: unescaped character in value: 61');
    expect(parseError('a=b\\x')).toBe('invalid field selector: invalid escape sequence: \\x');
    expect(parseError('a=b\\')).toBe('invalid field selector: invalid escape sequence: \\');
    // The field is not unescaped: `a\` is the field and `b=c` the value.
    expect(parseError('a\\=b=c')).toBe('invalid field selector: unescaped character in value: 61');
  });

  it('reports the escape error of the unescape function alone too', () => {
    expect(unescapeFieldValue('x,y')).toEqual({ ok: false, message: 'invalid field selector: unescaped character in value: 44' });
    expect(unescapeFieldValue('plain')).toEqual({ ok: true, value: 'plain' });
  });
});

describe('matching', () => {
  const fields = { 'metadata.name': 'web', 'metadata.namespace': 'default' };

  it('compares values, reading missing fields as ""', () => {
    expect(matchesFields(sel('metadata.name=web'), fields)).toBe(true);
    expect(matchesFields(sel('metadata.name==web'), fields)).toBe(true);
    expect(matchesFields(sel('metadata.name=db'), fields)).toBe(false);
    expect(matchesFields(sel('metadata.name!=db'), fields)).toBe(true);
    expect(matchesFields(sel('metadata.name!=web'), fields)).toBe(false);
    expect(matchesFields(sel('spec.nodeName='), fields)).toBe(true);
    expect(matchesFields(sel('spec.nodeName!=x'), fields)).toBe(true);
    expect(matchesFields(sel('spec.nodeName=x'), fields)).toBe(false);
  });

  it('ANDs terms and matches everything when empty', () => {
    expect(matchesFields(sel('metadata.name=web,metadata.namespace=default'), fields)).toBe(true);
    expect(matchesFields(sel('metadata.name=web,metadata.namespace=other'), fields)).toBe(false);
    expect(matchesFields(sel(''), {})).toBe(true);
  });

  it('ignores inherited properties', () => {
    expect(matchesFields(sel('constructor='), {})).toBe(true);
    expect(matchesFields(sel('toString!='), {})).toBe(false);
  });
});

describe('printing and escaping', () => {
  it('prints terms with = or != and escaped values', () => {
    expect(fieldSelectorToString(sel('b==x\\,y,a!=1'))).toBe('a!=1,b=x\\,y');
  });

  it('round-trips any value through escape and parse', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', ',', '=', '\\', '!', ' ', 'é') }), (value) => {
        const parsed = parseFieldSelector(`f=${escapeFieldValue(value)}`);
        expect(parsed).toEqual({ ok: true, selector: { requirements: [{ field: 'f', operator: '=', value }] } });
        if (parsed.ok) expect(parseFieldSelector(fieldSelectorToString(parsed.selector))).toEqual(parsed);
      }),
    );
  });
});

describe('unsupportedFieldMessage', () => {
  it('uses the default conversion message for kinds without their own list', () => {
    expect(unsupportedFieldMessage('spec.x', ['metadata.name', 'metadata.namespace'])).toBe('"spec.x" is not a known field selector: only "metadata.name", "metadata.namespace"');
  });

  it('uses the short message for kinds with their own conversion', () => {
    expect(unsupportedFieldMessage('spec.x', 'custom')).toBe('field label not supported: spec.x');
  });
});
