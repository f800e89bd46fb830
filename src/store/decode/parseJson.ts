/**
 * A JSON parser that builds values prototype-safely (`__proto__` is an ordinary own key) and
 * reports duplicate keys with their paths (`metadata.name`, `spec.containers[0].name`), which
 * strict field validation needs and JSON.parse hides. Syntax errors use Go's encoding/json wording.
 * Nesting is bounded by limits.jsonDepthMax. Integers beyond 2^53 lose precision, as JS numbers.
 */
import { setOwn, hasOwn, type JsonObject, type JsonValue } from '../../core/json.ts';
import { limits } from '../../core/limits.ts';

export type ParsedJson = { ok: true; value: JsonValue; duplicates: string[] } | { ok: false; message: string };

class Fail {
  constructor(readonly message: string) {}
}

function describe(ch: string | undefined): string {
  if (ch === undefined) return '';
  return `'${ch === "'" ? "\\'" : ch}'`;
}

/** The literal words, tried in this order. */
const literals = [
  ['true', true],
  ['false', false],
  ['null', null],
] as const;

/** A number literal where it stands (sticky: no copy of the text after it). */
const numberLiteral = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
/** Longer number literals are read from a window of this many characters, as before. */
const numberWindow = 400;

/** A value's path as duplicates are reported: `metadata.name`, `spec.containers[0].name`. */
function pathOf(trail: readonly (string | number)[]): string {
  let out = '';
  for (const p of trail) out = typeof p === 'number' ? `${out}[${p}]` : out === '' ? p : `${out}.${p}`;
  return out;
}

export function parseJson(text: string): ParsedJson {
  let i = 0;
  const duplicates: string[] = [];
  // The keys and indices from the top down to the value being read: a path is made only for a
  // duplicate key, not for every value.
  const trail: (string | number)[] = [];
  const ws = (): void => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
  };
  const end = (): never => {
    throw new Fail('unexpected end of JSON input');
  };
  const bad = (context: string): never => {
    if (i >= text.length) end();
    throw new Fail(`invalid character ${describe(text[i])} ${context}`);
  };
  const str = (): string => {
    const start = i;
    i++;
    // Most strings hold no escape: one slice instead of a character at a time.
    let j = i;
    while (j < text.length) {
      const code = text.charCodeAt(j);
      if (code === 0x22) {
        const s = text.slice(i, j);
        i = j + 1;
        return s;
      }
      if (code === 0x5c || code < 0x20) break;
      j++;
    }
    let out = text.slice(i, j);
    i = j;
    for (let guard = 0; guard <= text.length; guard++) {
      if (i >= text.length) end();
      const c = text[i]!;
      if (c === '"') {
        i++;
        return out;
      }
      if (c === '\\') {
        const e = text[i + 1];
        if (e === undefined) end();
        const map: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (e === 'u') {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
            i += 2;
            bad('in \\u hexadecimal character escape');
          }
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
        } else if (e !== undefined && map[e] !== undefined) {
          out += map[e];
          i += 2;
        } else {
          i++;
          bad('in string escape code');
        }
        continue;
      }
      if (c < ' ') bad('in string literal');
      out += c;
      i++;
      if (i - start > limits.requestBodyBytesMax * 2) end();
    }
    return end();
  };
  const num = (): number => {
    numberLiteral.lastIndex = i;
    const quick = numberLiteral.exec(text);
    if (quick !== null && quick[0] !== '-' && quick[0].length < numberWindow) {
      i += quick[0].length;
      return Number(quick[0]);
    }
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + numberWindow));
    if (m === null || m[0] === '-') {
      if (text[i] === '-') i++;
      bad('in numeric literal');
    }
    i += m![0].length;
    return Number(m![0]);
  };
  const value = (depth: number): JsonValue => {
    if (depth > limits.jsonDepthMax) throw new Fail(`exceeded max depth of ${limits.jsonDepthMax}`);
    ws();
    const c = text[i];
    if (c === undefined) end();
    if (c === '{') return object(depth);
    if (c === '[') return array(depth);
    if (c === '"') return str();
    if (c === '-' || (c! >= '0' && c! <= '9')) return num();
    for (const [word, v] of literals) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
      // The text ends inside the word (only a rest shorter than the word can).
      const rest = text.length - i;
      if (rest > 0 && rest < word.length && word.startsWith(text.slice(i))) end();
    }
    return bad('looking for beginning of value');
  };
  const object = (depth: number): JsonObject => {
    i++;
    const out: JsonObject = {};
    ws();
    if (text[i] === '}') {
      i++;
      return out;
    }
    for (let guard = 0; guard <= text.length; guard++) {
      ws();
      if (text[i] !== '"') bad('looking for beginning of object key string');
      const key = str();
      ws();
      if (text[i] !== ':') bad('after object key');
      i++;
      trail.push(key);
      const v = value(depth + 1);
      if (hasOwn(out, key)) {
        const at = pathOf(trail);
        if (!duplicates.includes(at)) duplicates.push(at);
      }
      trail.pop();
      setOwn(out, key, v);
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '}') {
        i++;
        return out;
      }
      bad('after object key:value pair');
    }
    return end();
  };
  const array = (depth: number): JsonValue[] => {
    i++;
    const out: JsonValue[] = [];
    ws();
    if (text[i] === ']') {
      i++;
      return out;
    }
    for (let guard = 0; guard <= text.length; guard++) {
      trail.push(out.length);
      out.push(value(depth + 1));
      trail.pop();
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === ']') {
        i++;
        return out;
      }
      bad('after array element');
    }
    return end();
  };
  try {
    const v = value(0);
    ws();
    if (i < text.length) bad('after top-level value');
    return { ok: true, value: v, duplicates };
  } catch (e) {
    if (e instanceof Fail) return { ok: false, message: e.message };
    if (e instanceof RangeError) return { ok: false, message: `exceeded max depth of ${limits.jsonDepthMax}` };
    throw e;
  }
}
