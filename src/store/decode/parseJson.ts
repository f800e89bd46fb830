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

export function parseJson(text: string): ParsedJson {
  let i = 0;
  const duplicates: string[] = [];
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
    let out = '';
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
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (m === null || m[0] === '-') {
      if (text[i] === '-') i++;
      bad('in numeric literal');
    }
    i += m![0].length;
    return Number(m![0]);
  };
  const value = (path: string, depth: number): JsonValue => {
    if (depth > limits.jsonDepthMax) throw new Fail(`exceeded max depth of ${limits.jsonDepthMax}`);
    ws();
    const c = text[i];
    if (c === undefined) end();
    if (c === '{') return object(path, depth);
    if (c === '[') return array(path, depth);
    if (c === '"') return str();
    if (c === '-' || (c! >= '0' && c! <= '9')) return num();
    for (const [word, v] of [['true', true], ['false', false], ['null', null]] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
      if (word.startsWith(text.slice(i)) && text.slice(i).length > 0) end();
    }
    return bad('looking for beginning of value');
  };
  const object = (path: string, depth: number): JsonObject => {
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
      const at = path === '' ? key : `${path}.${key}`;
      ws();
      if (text[i] !== ':') bad('after object key');
      i++;
      const v = value(at, depth + 1);
      if (hasOwn(out, key) && !duplicates.includes(at)) duplicates.push(at);
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
  const array = (path: string, depth: number): JsonValue[] => {
    i++;
    const out: JsonValue[] = [];
    ws();
    if (text[i] === ']') {
      i++;
      return out;
    }
    for (let guard = 0; guard <= text.length; guard++) {
      out.push(value(`${path}[${out.length}]`, depth + 1));
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
    const v = value('', 0);
    ws();
    if (i < text.length) bad('after top-level value');
    return { ok: true, value: v, duplicates };
  } catch (e) {
    if (e instanceof Fail) return { ok: false, message: e.message };
    if (e instanceof RangeError) return { ok: false, message: `exceeded max depth of ${limits.jsonDepthMax}` };
    throw e;
  }
}
