/**
 * The hash in a ControllerRevision's name (reference/statefulset.md §5): 32-bit FNV-1 (not
 * FNV-1a) over the revision's `data` as Go's encoding/json writes a map, followed by the decimal
 * collision count (always appended, `0` included); the uint32 in decimal, each character mapped
 * into `bcdfghjklmnpqrstvwxz2456789` by its code modulo 27, so names look like `web-7d8c5f4b69`.
 *
 * Rules: bytes are what Go would hash — map keys in byte order (`compareStrings`), `<`, `>`, `&`
 * and U+2028/9 escaped, a lone surrogate read as U+FFFD (what Go's decoder makes of it).
 * Must not know: what the data means or where the name is used.
 */
import { compareStrings } from '../../core/compareStrings.ts';
import { goJson } from '../../core/goFormat.ts';
import { isObject, type JsonObject, type JsonValue } from '../../core/json.ts';

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** json.Marshal of a decoded JSON value (maps, []interface{}, float64, string, bool, nil). */
export function goMarshal(v: JsonValue): string {
  if (typeof v === 'string') return goJson(v.replace(loneSurrogate, '\ufffd'));
  if (Object.is(v, -0)) return '-0';
  if (Array.isArray(v)) return `[${v.map(goMarshal).join(',')}]`;
  if (!isObject(v)) return goJson(v);
  const keys = Object.keys(v).filter((k) => v[k] !== undefined).sort(compareStrings);
  return `{${keys.map((k) => `${goMarshal(k)}:${goMarshal(v[k]!)}`).join(',')}}`;
}

/**
 * goMarshal of a revision's data, by data object: stored data never changes, and every sync
 * compares the candidate with each listed revision. A revision a client wrote may hold any JSON
 * (a RawExtension): a value that is not an object is marshalled each time, absent data as null.
 */
export function marshalData(data: JsonValue | undefined): string {
  if (data === undefined) return 'null';
  if (!isObject(data)) return goMarshal(data);
  let text = marshalled.get(data);
  if (text === undefined) {
    text = goMarshal(data);
    marshalled.set(data, text);
  }
  return text;
}

const marshalled = new WeakMap<JsonObject, string>();

/** Go's hash/fnv New32: for each byte, multiply by the FNV prime, then xor the byte. */
export function fnv1_32(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (const b of bytes) h = (Math.imul(h, 0x01000193) ^ b) >>> 0;
  return h;
}

const alphanums = 'bcdfghjklmnpqrstvwxz2456789';

/** apimachinery's SafeEncodeString: every character mapped into consonants and digits 2–9. */
function safeEncode(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += alphanums[s.charCodeAt(i) % alphanums.length];
  return out;
}

const utf8 = new TextEncoder();

/** The hash of a revision with this `data` at this collision count. */
export function revisionHash(data: JsonObject, collisionCount: number): string {
  let prefix = dataHashes.get(data);
  if (prefix === undefined) {
    prefix = fnv1_32(utf8.encode(marshalData(data)));
    dataHashes.set(data, prefix);
  }
  return safeEncode(String(fnv1_32(utf8.encode(String(collisionCount)), prefix)));
}

/** FNV-1 state after the data's bytes, by data object (recorded data objects are never changed). */
const dataHashes = new WeakMap<JsonObject, number>();
