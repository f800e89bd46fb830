/**
 * Body decoding: Go's messages for malformed and mistyped bodies, unknown and duplicate fields
 * under each fieldValidation mode, YAML, prototype safety and the depth limit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBody, decodePatchJson } from '../../../src/store/decode/decodeBody.ts';
import { parseJson } from '../../../src/store/decode/parseJson.ts';
import { parseYamlDocument } from '../../../src/store/decode/parseYaml.ts';
import { serviceAccountSchema } from '../../../src/registry/service-account/schema.ts';

const decode = (bytes: string, fieldValidation: 'Ignore' | 'Warn' | 'Strict' = 'Warn', contentType: 'json' | 'yaml' = 'json') =>
  decodeBody({ bytes, contentType, schema: serviceAccountSchema, kind: 'ServiceAccount', version: 'v1', fieldValidation });
const message = (r: ReturnType<typeof decode>) => (r.ok ? '' : r.error.status.message);

describe('parseJson', () => {
  it('speaks Go encoding/json on syntax errors', () => {
    expect(parseJson('{"a":1')).toEqual({ ok: false, message: 'unexpected end of JSON input' });
    expect(parseJson('{"a" 1}')).toEqual({ ok: false, message: "invalid character '1' after object key" });
    expect(parseJson('{1:2}')).toEqual({ ok: false, message: "invalid character '1' looking for beginning of object key string" });
    expect(parseJson('nope')).toEqual({ ok: false, message: "invalid character 'n' looking for beginning of value" });
    expect(parseJson('[1,]')).toEqual({ ok: false, message: "invalid character ']' looking for beginning of value" });
  });

  it('reports duplicate keys by path and keeps the last', () => {
    const r = parseJson('{"metadata":{"name":"a","name":"b"},"secrets":[{"name":"x","name":"y"}]}');
    expect(r).toEqual({ ok: true, value: { metadata: { name: 'b' }, secrets: [{ name: 'y' }] }, duplicates: ['metadata.name', 'secrets[0].name'] });
  });

  it('is prototype-safe and bounded in depth', () => {
    const r = parseJson('{"__proto__":{"polluted":1}}');
    expect(r.ok && Object.keys(r.value as object)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(parseJson('['.repeat(5000) + ']'.repeat(5000))).toEqual({ ok: false, message: 'exceeded max depth of 100' });
  });

  it('round-trips every JSON value and never throws', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const r = parseJson(JSON.stringify(v));
        expect(r.ok && r.value).toEqual(JSON.parse(JSON.stringify(v)));
      }),
    );
    fc.assert(
      fc.property(fc.string(), (s) => {
        parseJson(s);
      }),
    );
  });

  it('accepts exactly what JSON.parse accepts, corrupted or cut short (property)', () => {
    const text = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v, null, 1)),
      fc.tuple(fc.jsonValue({ maxDepth: 4 }), fc.nat(), fc.constantFrom('', '"', '\\', ',', '}', ']', 'x', '\n', '-', 'e')).map(([v, k, cut]) => {
        const t = JSON.stringify(v);
        const at = k % (t.length + 1);
        return t.slice(0, at) + cut + t.slice(at + (cut === '' ? t.length : 0));
      }),
    );
    fc.assert(
      fc.property(text, (t) => {
        let expected: unknown;
        try {
          expected = { ok: true, value: JSON.parse(t) };
        } catch {
          expected = { ok: false };
        }
        const r = parseJson(t);
        expect(r.ok ? { ok: true, value: r.value } : { ok: false }).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('reports duplicate keys by path, in lists and at the top level too', () => {
    const r = parseJson('{"a":[{"k":1,"k":2},{"b":{"c":1,"c":2,"c":3}}],"":{"x":1,"x":1},"a":0}');
    expect(r.ok && r.duplicates).toEqual(['a[0].k', 'a[1].b.c', 'x', 'a']);
  });
});

describe('decodeBody', () => {
  it('refuses bodies that are not objects', () => {
    expect(message(decode('{"metadata": '))).toBe('the object provided is unrecognized (must be of type ServiceAccount): unexpected end of JSON input ({"metadata": )');
    expect(message(decode('[1]'))).toMatch(/^the object provided is unrecognized \(must be of type ServiceAccount\): couldn't get version\/kind; json parse error: json: cannot unmarshal array into Go value of type struct/);
  });

  it('reads apiVersion and kind first, matching their keys in any case', () => {
    expect(message(decode('{"metadata":{"name":1},"kind":5}'))).toBe(
      'the object provided is unrecognized (must be of type ServiceAccount): couldn\'t get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string ({"metadata":{"name":1},"kind":)',
    );
    expect(message(decode('{"APIVERSION":{}}'))).toBe(
      'the object provided is unrecognized (must be of type ServiceAccount): couldn\'t get version/kind; json parse error: json: cannot unmarshal object into Go struct field .apiVersion of type string ({"APIVERSION":{}})',
    );
    expect(decode('{"kind":null,"apiVersion":"v1"}').ok).toBe(true);
  });

  it('reports Go type errors with the struct and path', () => {
    expect(message(decode('{"metadata":{"name":1}}'))).toBe('ServiceAccount in version "v1" cannot be handled as a ServiceAccount: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string');
    expect(message(decode('{"metadata":{"labels":{"a":1}}}'))).toBe('ServiceAccount in version "v1" cannot be handled as a ServiceAccount: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string');
    expect(message(decode('{"secrets":[{"name":true}]}'))).toBe('ServiceAccount in version "v1" cannot be handled as a ServiceAccount: json: cannot unmarshal bool into Go struct field ObjectReference.secrets.name of type string');
  });

  it('drops, warns about or refuses unknown and duplicate fields', () => {
    const body = '{"metadata":{"name":"a","name":"a","bogus":1},"extra":{"x":1}}';
    expect(decode(body, 'Ignore')).toEqual({ ok: true, object: { metadata: { name: 'a' } }, warnings: [] });
    expect(decode(body, 'Warn')).toEqual({ ok: true, object: { metadata: { name: 'a' } }, warnings: ['unknown field "metadata.bogus"', 'unknown field "extra"', 'duplicate field "metadata.name"'] });
    expect(message(decode(body, 'Strict'))).toBe('ServiceAccount in version "v1" cannot be handled as a ServiceAccount: strict decoding error: unknown field "metadata.bogus", unknown field "extra", duplicate field "metadata.name"');
  });

  it('reads YAML and reports its duplicates in YAML wording', () => {
    const r = decode('metadata:\n  name: a\n  name: b\nautomountServiceAccountToken: true\n', 'Strict', 'yaml');
    expect(message(r)).toBe('ServiceAccount in version "v1" cannot be handled as a ServiceAccount: strict decoding error: line 3: key "name" already set in map');
    const ok = decode('metadata:\n  name: a\n  labels:\n    ver: "1.0"\n', 'Strict', 'yaml');
    expect(ok.ok && ok.object).toEqual({ metadata: { name: 'a', labels: { ver: '1.0' } } });
    expect(parseYamlDocument('a: 1\n---\nb: 2\n').ok).toBe(false);
  });

  it('refuses YAML nested deeper than the limit from its tokens, before the parser can exhaust the stack', () => {
    const tooDeep = { ok: false, message: 'error converting YAML to JSON: exceeded max depth of 100' };
    const mapChain = (n: number) => Array.from({ length: n }, (_, i) => `${' '.repeat(2 * i)}a:${i === n - 1 ? ' 1' : ''}`).join('\n');
    const seqUnderKey = (n: number) => `${Array.from({ length: n }, (_, i) => `${' '.repeat(2 * i)}- a:`).join('\n')} 1`;
    // Thousands of levels: each of these used to kill the process (RegExpCompiler allocation failure).
    for (const body of [
      '['.repeat(100_000),
      '{a: '.repeat(20_000),
      '[a: '.repeat(20_000),
      mapChain(1700),
      Array.from({ length: 2000 }, (_, i) => `${' '.repeat(i)}-`).join('\n'),
      '- '.repeat(50_000),
      '&a - '.repeat(50_000),
      '? '.repeat(50_000),
      ': '.repeat(50_000),
      'a: '.repeat(50_000),
      '!!seq [ '.repeat(50_000),
    ]) {
      expect(parseYamlDocument(body)).toEqual(tooDeep);
    }
    // The limit is parseJson's: values at depth 100 at most (the root is at 0).
    expect(parseYamlDocument('['.repeat(101) + ']'.repeat(101)).ok).toBe(true);
    expect(parseYamlDocument('['.repeat(102) + ']'.repeat(102))).toEqual(tooDeep);
    expect(parseYamlDocument(mapChain(100)).ok).toBe(true);
    expect(parseYamlDocument(mapChain(101))).toEqual(tooDeep);
    expect(parseYamlDocument(`${'- '.repeat(100)}x`).ok).toBe(true);
    expect(parseYamlDocument(`${'- '.repeat(101)}x`)).toEqual(tooDeep);
    expect(parseYamlDocument(seqUnderKey(50)).ok).toBe(true);
    expect(parseYamlDocument(seqUnderKey(51))).toEqual(tooDeep);
    // Brackets in quoted and block scalars, comments and plain scalars are text, not nesting.
    const text = `a: "${'['.repeat(500)}"\nb: '${'{'.repeat(500)}'\n# ${'['.repeat(500)}\nc: |\n${Array.from({ length: 300 }, (_, i) => `  ${' '.repeat(i)}- x:`).join('\n')}\nd: foo${'['.repeat(200)}\n`;
    const r = parseYamlDocument(text);
    expect(r.ok && Object.keys(r.value as object)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('reads a patch body as parseJson reads it, deep, duplicated and __proto__ keys included (property)', () => {
    // Patches read by JSON.parse when they cannot nest too deep, else by parseJson: the same result either way.
    const nested = fc.tuple(fc.integer({ min: 90, max: 110 }), fc.constantFrom('[', '{"a":')).map(([depth, open]) => {
      const close = open === '[' ? ']' : '}';
      return `${open.repeat(depth)}1${close.repeat(depth)}`;
    });
    const duplicated = fc.tuple(fc.jsonValue({ maxDepth: 2 }), fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('a', '__proto__')).map(([x, y, k]) => `{"${k}":${JSON.stringify(x)},"b":1,"${k}":${JSON.stringify(y)}}`);
    const text = fc.oneof(fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)), nested, duplicated, fc.string());
    fc.assert(
      fc.property(text, (t) => {
        const fast = decodePatchJson(t);
        const slow = parseJson(t);
        expect(fast.ok).toBe(slow.ok);
        if (fast.ok && slow.ok) {
          expect(JSON.stringify(fast.value)).toBe(JSON.stringify(slow.value));
          expect(fast.value).toEqual(slow.value);
        }
        if (!fast.ok) expect(fast.error.status.message).toBe('Invalid JSON Patch');
      }),
      { numRuns: 1000 },
    );
  });
});
