/**
 * The two written forms of a path element, as structured-merge-diff writes them.
 *
 * Rules this file keeps:
 * - The fieldsV1 key: `f:name`, `k:{"name":"s1"}`, `v:"a"`, `i:0`, values as Go's encoding/json
 *   writes them. `parsePathElement` reads it back; unknown element types read as null (skipped,
 *   as upstream does).
 * - The conflict rendering: `.name`, `[name="s1"]`, `[="a"]`, `[0]`, values as
 *   structured-merge-diff prints them (strings `%q`, maps `k=v`, lists `[a,b]`).
 * Must not know: field sets, schemas, the fieldsV1 trie around a key (fieldsV1.ts).
 */
import { compareStrings } from '../../core/compareStrings.ts';
import { goJson, goQuote } from '../../core/goFormat.ts';
import { isObject, type JsonValue } from '../../core/json.ts';
import { pe, type Path, type PathElement } from './pathElement.ts';

/** A decoded JSON value as structured-merge-diff prints key and set values. */
function smdValueString(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(v).replace(/e([+-])(\d)$/, 'e$10$2');
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(smdValueString).join(',')}]`;
  return Object.keys(v)
    .sort(compareStrings)
    .map((k) => `${k}=${smdValueString(v[k]!)}`)
    .join('');
}

/** Keyed and value elements serialized, by element (elements are immutable): JSON-quoting is most of a field set's naming. */
const serialized = new WeakMap<PathElement, string>();

/** The fieldsV1 key of an element: `f:name`, `k:{"name":"s1"}`, `v:"a"`, `i:0`. */
export function serializePathElement(e: PathElement): string {
  switch (e.kind) {
    case 'field':
      return `f:${e.name}`;
    case 'index':
      return `i:${e.index}`;
    case 'key':
    case 'value': {
      let text = serialized.get(e);
      if (text === undefined) {
        text = e.kind === 'key' ? `k:{${e.fields.map((f) => `${goJson(f.name)}:${goJson(f.value)}`).join(',')}}` : `v:${goJson(e.value)}`;
        serialized.set(e, text);
      }
      return text;
    }
  }
}

/** The conflict rendering of one element: `.name`, `[name="s1"]`, `[="a"]`, `[0]`. */
export function pathElementString(e: PathElement): string {
  switch (e.kind) {
    case 'field':
      return `.${e.name}`;
    case 'key':
      return `[${e.fields.map((f) => `${f.name}=${smdValueString(f.value)}`).join(',')}]`;
    case 'value':
      return `[=${smdValueString(e.value)}]`;
    case 'index':
      return `[${e.index}]`;
  }
}

export function pathString(path: Path): string {
  return path.map(pathElementString).join('');
}

export type ParsedElement = { ok: true; element: PathElement | null } | { ok: false; error: string };

/** Parses a fieldsV1 key. Unknown element types parse to null: they are skipped, as upstream does. */
export function parsePathElement(s: string): ParsedElement {
  if (s.length < 2) return { ok: false, error: 'key must be 2 characters long:' };
  if (s[1] !== ':') return { ok: false, error: `missing colon: ${s}` };
  const body = s.slice(2);
  switch (s[0]) {
    case 'f':
      return { ok: true, element: pe.field(body) };
    case 'v': {
      const v = parseJson(body);
      return v.ok ? { ok: true, element: pe.value(v.value) } : v;
    }
    case 'k': {
      const v = parseJson(body);
      if (!v.ok) return v;
      if (!isObject(v.value)) return { ok: false, error: `key must be a JSON object: ${s}` };
      return { ok: true, element: pe.key(v.value) };
    }
    case 'i':
      return /^[+-]?\d+$/.test(body) ? { ok: true, element: pe.index(Number.parseInt(body, 10)) } : { ok: false, error: `invalid index: ${s}` };
    default:
      return { ok: true, element: null };
  }
}

function parseJson(text: string): { ok: true; value: JsonValue } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) as JsonValue };
  } catch {
    return { ok: false, error: `invalid JSON in path element: ${text}` };
  }
}
