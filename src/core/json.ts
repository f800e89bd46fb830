/**
 * Plain JSON values and the few helpers every room needs. Objects coming from users are parsed
 * with JSON.parse, which makes `__proto__` an ordinary own property; code that copies such
 * objects must use `setOwn` (defineProperty) and never `obj[key] = v` on untrusted keys.
 */
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function hasOwn(o: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key);
}

/** Sets an own property even for keys such as `__proto__`. */
export function setOwn<V>(o: Record<string, V>, key: string, value: V): void {
  // Plain assignment is an own data property for every key but `__proto__` (the prototype
  // setter), and much faster than defining one.
  if (key === '__proto__') Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
  else o[key] = value;
}

/**
 * A shallow copy of a plain object, for a caller that adds keys to it. A spread is the faster copy,
 * but a key its source lacked, added to the copy (`{ ...o, k: v }` or assigned after), took V8's
 * slow path: about half a microsecond a key, several times in every write. A copy made key by key
 * follows the hidden-class transitions V8 shares between objects built alike, and so does what is
 * added to it. Own enumerable keys, as a spread (`__proto__` included, as an own property).
 */
export function copyObject<T extends object>(o: T): { -readonly [K in keyof T]: T[K] } {
  const out: Record<string, unknown> = {};
  copyInto(out, o);
  return out as { -readonly [K in keyof T]: T[K] };
}

/** Adds the own enumerable entries of `from` to `to` as `copyObject` copies them, all but `except`. */
export function copyInto(to: Record<string, unknown>, from: object, except?: (key: string) => boolean): void {
  for (const k in from) {
    if (!hasOwn(from, k) || except?.(k) === true) continue;
    setOwn(to, k, (from as Record<string, unknown>)[k]);
  }
}

/**
 * Deletes an own key, and only when there is one: `delete` of an absent key is a call into V8's
 * runtime all the same, and the write path clears half a dozen keys that are almost never there.
 */
export function dropOwn(o: object, key: string): void {
  if (hasOwn(o, key)) delete (o as Record<string, unknown>)[key];
}

/**
 * `{ ...o, [key]: value }` made as a spread and then the key set: the literal, a computed key
 * after a spread, is built on V8's slow path (a microsecond for every commit's store of stores).
 * For records whose keys stay few and mostly the same (stores by resource, random streams).
 */
export function withEntry<V>(o: Readonly<Record<string, V>>, key: string, value: V): Record<string, V> {
  const out = { ...o };
  setOwn(out, key, value);
  return out;
}

/**
 * `o[key]` when `key` is an own property, else undefined: the lookup for every map whose keys a
 * user names (labels, headers, body keys), so that `constructor` or `toString` is never
 * Object.prototype's member. Any string-keyed record, JSON objects included.
 */
export function getOwn<V>(o: { readonly [key: string]: V }, key: string): V | undefined {
  return hasOwn(o, key) ? o[key] : undefined;
}

/** The object at `o[key]`; a new empty object when the field is absent or not an object. */
export function objectField(o: { readonly [key: string]: unknown }, key: string): JsonObject {
  const v = hasOwn(o, key) ? o[key] : undefined;
  return isObject(v) ? v : {};
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ak = Object.keys(a as object);
  const bk = Object.keys(b as object);
  if (ak.length !== bk.length) return false;
  for (const k of ak) {
    if (!hasOwn(b as object, k)) return false;
    if (!deepEqual((a as JsonObject)[k], (b as JsonObject)[k])) return false;
  }
  return true;
}

/** A deep copy that is safe for `__proto__` keys and drops `undefined`. */
export function cloneJson<T extends JsonValue>(v: T): T {
  if (Array.isArray(v)) return v.map((x) => cloneJson(x)) as T;
  if (isObject(v)) {
    const out: JsonObject = {};
    for (const k of Object.keys(v)) {
      const x = v[k];
      if (x !== undefined) setOwn(out, k, cloneJson(x));
    }
    return out as T;
  }
  return v;
}

/** JSON with object keys sorted: the canonical form hashed by `sim.hash()`. */
export function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(v).sort();
  const parts: string[] = [];
  for (const k of keys) {
    const x = (v as Record<string, unknown>)[k];
    if (x !== undefined) parts.push(`${JSON.stringify(k)}:${canonicalJson(x)}`);
  }
  return `{${parts.join(',')}}`;
}

/** Recursively freezes a value (stored objects are immutable and shared). */
export function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
  }
  return v;
}
