/**
 * Name, label-key and label-value syntax: every message is compared with the exact Kubernetes
 * text, written out here literally (not built from the implementation's constants).
 */
import { describe, expect, it } from 'vitest';
import {
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPathSegmentName,
  isValidPathSegmentPrefix,
  nameValidator,
  utf8Length,
} from '../../../src/registry/validation/names.ts';

const SUBDOMAIN = String.raw`a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`;
const LABEL = `a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`;
const KEY_NAME = `name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`;
const KEY_SLASHES = `a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`;
const VALUE = `a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`;

describe('isDNS1123Subdomain', () => {
  it.each(['a', '0', 'example.com', 'a-b.c-d', 'a'.repeat(253)])('accepts %j', (v) => {
    expect(isDNS1123Subdomain(v)).toEqual([]);
  });

  it.each(['', 'Bad_Name', 'A', '-a', 'a-', '.a', 'a.', 'a..b', 'a_b', 'a/b', 'é'])('rejects %j with the regex message', (v) => {
    expect(isDNS1123Subdomain(v)).toEqual([SUBDOMAIN]);
  });

  it('reports length (in characters) and syntax separately', () => {
    expect(isDNS1123Subdomain('a'.repeat(254))).toEqual(['must be no more than 253 characters']);
    expect(isDNS1123Subdomain('A'.repeat(254))).toEqual(['must be no more than 253 characters', SUBDOMAIN]);
  });
});

describe('isDNS1123Label', () => {
  it.each(['a', 'my-name', '123-abc', 'a'.repeat(63)])('accepts %j', (v) => {
    expect(isDNS1123Label(v)).toEqual([]);
  });

  it('says only "must not contain dots" for a valid subdomain', () => {
    expect(isDNS1123Label('a.b')).toEqual(['must not contain dots']);
  });

  it.each(['', 'A', '-a', 'a-', 'a_b', 'a..b'])('rejects %j with the regex message', (v) => {
    expect(isDNS1123Label(v)).toEqual([LABEL]);
  });

  it('reports length before syntax', () => {
    expect(isDNS1123Label('a'.repeat(64))).toEqual(['must be no more than 63 characters']);
    expect(isDNS1123Label(`${'a.'.repeat(32)}a`)).toEqual(['must be no more than 63 characters', 'must not contain dots']);
  });
});

describe('path segment names', () => {
  it('refuses . and .. outright and / and % anywhere', () => {
    expect(isValidPathSegmentName('.')).toEqual(["may not be '.'"]);
    expect(isValidPathSegmentName('..')).toEqual(["may not be '..'"]);
    expect(isValidPathSegmentName('a/b')).toEqual(["may not contain '/'"]);
    expect(isValidPathSegmentName('a%b')).toEqual(["may not contain '%'"]);
    expect(isValidPathSegmentName('%/')).toEqual(["may not contain '/'", "may not contain '%'"]);
  });

  it('accepts anything else, even upper case, spaces and the empty string', () => {
    for (const v of ['Bad_Name', 'a b', '', '...', '.a']) expect(isValidPathSegmentName(v)).toEqual([]);
  });

  it('allows . and .. as a prefix (a suffix follows)', () => {
    expect(isValidPathSegmentPrefix('.')).toEqual([]);
    expect(isValidPathSegmentPrefix('..')).toEqual([]);
    expect(isValidPathSegmentPrefix('a/')).toEqual(["may not contain '/'"]);
  });
});

describe('isQualifiedName (label keys)', () => {
  it.each(['a', 'MyName', 'my.name', '123-abc', 'a_b', 'example.com/MyName', 'kubernetes.io/x', 'x'.repeat(63)])('accepts %j', (v) => {
    expect(isQualifiedName(v)).toEqual([]);
  });

  it('gives one message for more than one slash', () => {
    expect(isQualifiedName('a/b/c')).toEqual([KEY_SLASHES]);
    expect(isQualifiedName('//')).toEqual([KEY_SLASHES]);
  });

  it('checks the prefix as a subdomain (length in bytes)', () => {
    expect(isQualifiedName('/a')).toEqual(['prefix part must be non-empty']);
    expect(isQualifiedName('Bad_Prefix/a')).toEqual([`prefix part ${SUBDOMAIN}`]);
    expect(isQualifiedName(`${'a'.repeat(254)}/a`)).toEqual(['prefix part must be no more than 253 bytes']);
  });

  it('gives both the empty and the regex message for an empty name', () => {
    expect(isQualifiedName('')).toEqual(['name part must be non-empty', KEY_NAME]);
    expect(isQualifiedName('example.com/')).toEqual(['name part must be non-empty', KEY_NAME]);
    expect(isQualifiedName('/')).toEqual(['prefix part must be non-empty', 'name part must be non-empty', KEY_NAME]);
  });

  it('limits the name part to 63 bytes', () => {
    expect(isQualifiedName('x'.repeat(64))).toEqual(['name part must be no more than 63 bytes']);
    expect(isQualifiedName(`example.com/${'x'.repeat(64)}`)).toEqual(['name part must be no more than 63 bytes']);
  });

  it.each(['-a', 'a-', '_a', 'a b', 'a=b', 'é'])('rejects the name %j', (v) => {
    expect(isQualifiedName(v)).toEqual([KEY_NAME]);
  });
});

describe('isValidLabelValue', () => {
  it.each(['', 'a', 'MyValue', 'my_value', '12345', 'a.b-c_d', 'x'.repeat(63)])('accepts %j', (v) => {
    expect(isValidLabelValue(v)).toEqual([]);
  });

  it.each(['-a', 'a-', 'a b', 'a/b', '_'])('rejects %j', (v) => {
    expect(isValidLabelValue(v)).toEqual([VALUE]);
  });

  it('measures length in UTF-8 bytes', () => {
    expect(isValidLabelValue('x'.repeat(64))).toEqual(['must be no more than 63 bytes']);
    expect(isValidLabelValue('é'.repeat(32))).toEqual(['must be no more than 63 bytes', VALUE]);
  });
});

describe('nameValidator', () => {
  it('allows a trailing dash in a generateName only', () => {
    expect(nameValidator.subdomain('web-', true)).toEqual([]);
    expect(nameValidator.subdomain('web-', false)).toEqual([SUBDOMAIN]);
    expect(nameValidator.label('ns-', true)).toEqual([]);
    expect(nameValidator.label('ns-', false)).toEqual([LABEL]);
  });

  it('masks as Kubernetes does: the last two characters become "a"', () => {
    // `--` is checked as `a`, so it passes; a single `-` is not masked and fails.
    expect(nameValidator.subdomain('--', true)).toEqual([]);
    expect(nameValidator.subdomain('-', true)).toEqual([SUBDOMAIN]);
    // `a.-` is checked as `aa`; `Web-` as `Wa`, still upper case.
    expect(nameValidator.subdomain('a.-', true)).toEqual([]);
    expect(nameValidator.subdomain('Web-', true)).toEqual([SUBDOMAIN]);
    // Masking shortens by one character, so 254 characters ending in `-` pass the length check.
    expect(nameValidator.subdomain(`${'a'.repeat(253)}-`, true)).toEqual([]);
    expect(nameValidator.subdomain(`${'a'.repeat(254)}-`, true)).toEqual(['must be no more than 253 characters']);
  });

  it('uses the path-segment rules for the path rule', () => {
    expect(nameValidator.path('..', false)).toEqual(["may not be '..'"]);
    expect(nameValidator.path('..', true)).toEqual([]);
    expect(nameValidator.path('Bad_Name', false)).toEqual([]);
  });
});

describe('utf8Length', () => {
  it('counts bytes as Go len does', () => {
    expect(utf8Length('')).toBe(0);
    expect(utf8Length('abc')).toBe(3);
    expect(utf8Length('é')).toBe(2);
    expect(utf8Length('€')).toBe(3);
    expect(utf8Length('😀')).toBe(4);
    expect(utf8Length('\ud800')).toBe(3);
  });
});
