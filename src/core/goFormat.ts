/**
 * Go-style value printing: how Go's fmt verbs (`%q`, `%v`, `%#v`), its type names and
 * encoding/json print decoded JSON values, so error messages match kube-apiserver's to the byte.
 *
 * Rules this file keeps:
 * - One function per Go rendering, named after it; every message that prints a value the Go way
 *   calls these instead of formatting by hand.
 * - Map keys are printed in Go's order (code points, `compareStrings`), as fmt and encoding/json do.
 * - `jsonQuote` is not Go: it is JSON's quoting, which equals `%q` on printable text only. It is
 *   kept for the messages that have always quoted that way; new messages use `goQuote`.
 * Must not know: where a message is used (field errors, apply, patch, auth) or any Kubernetes type.
 */
import { compareStrings } from './compareStrings.ts';
import { canonicalJson, isObject, type JsonValue } from './json.ts';

/** Go's `%q` of a string (strconv.Quote): printable characters kept, the rest escaped. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (c < 0x20 || c === 0x7f) out += goControlEscape(c);
    else if ((c >= 0x80 && c <= 0x9f) || c === 0xad || c === 0x2028 || c === 0x2029 || c === 0xfeff) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

function goControlEscape(c: number): string {
  const named: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r' };
  return named[c] ?? `\\x${c.toString(16).padStart(2, '0')}`;
}

/** A string quoted as JSON quotes it: `goQuote` on printable text, `\u0001` where Go writes `\x01`. */
export function jsonQuote(s: string): string {
  return JSON.stringify(s);
}

/** Go's `%q` of a []string: `["a" "b"]` (elements quoted by `quote`, `%q` unless told). */
export function goQuoteList(xs: readonly string[], quote: (s: string) => string = goQuote): string {
  return `[${xs.map(quote).join(' ')}]`;
}

/** Go's `%#v` of a []string: `[]string{"a", "b"}` (elements quoted by `quote`, `%q` unless told). */
export function goStringSlice(xs: readonly string[], quote: (s: string) => string = goQuote): string {
  return `[]string{${xs.map(quote).join(', ')}}`;
}

/** Go's `%v` of a decoded JSON value: `map[a:1 b:[x y]]`, `<nil>`, strings bare. */
export function goV(v: unknown): string {
  if (v === null) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goV).join(' ')}]`;
  if (isObject(v)) return `map[${Object.keys(v).sort(compareStrings).map((k) => `${k}:${goV(v[k])}`).join(' ')}]`;
  return String(v);
}

/** Go's `%#v` of a decoded JSON value: `map[string]interface {}{"a":1}`, `interface {}(nil)`. */
export function goSharpV(v: JsonValue): string {
  if (v === null) return 'interface {}(nil)';
  if (typeof v === 'string') return goQuote(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharpV).join(', ')}}`;
  if (isObject(v)) return `map[string]interface {}{${Object.keys(v).sort(compareStrings).map((k) => `${goQuote(k)}:${goSharpV(v[k]!)}`).join(', ')}}`;
  return String(v);
}

/** The Go type of a decoded JSON value as structured-merge-diff holds it (`%T`): int64, float64, … */
export function goValueType(v: JsonValue): string {
  if (Array.isArray(v)) return '[]interface {}';
  if (isObject(v)) return 'map[string]interface {}';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return typeof v === 'boolean' ? 'bool' : 'string';
}

/** How encoding/json names a JSON value in `cannot unmarshal <it> into Go value`: array, bool, … */
export function goJsonTypeName(v: JsonValue): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/** JSON as Go's encoder writes it: sorted map keys, `<`, `>`, `&`, U+2028/9 escaped. */
export function goJson(v: JsonValue): string {
  const json = typeof v === 'string' ? JSON.stringify(v) : canonicalJson(v);
  return goEscaped.test(json) ? json.replace(goEscapedAll, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : json;
}

const goEscaped = /[<>&\u2028\u2029]/;
const goEscapedAll = /[<>&\u2028\u2029]/g;

/**
 * A field error's bad value as apimachinery's field.Error prints it: strings quoted, numbers and
 * booleans bare (`%v`), null and absent as `null`, anything else as JSON.
 */
export function goBadValue(v: unknown): string {
  if (typeof v === 'string') return jsonQuote(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === null || v === undefined) return 'null';
  return JSON.stringify(v);
}
