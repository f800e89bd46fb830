/**
 * A request body given in-process as an object goes to the API as if sent: its JSON text, parsed.
 * When the object is plain JSON data — what `JSON.parse(JSON.stringify(v))` gives back unchanged,
 * in the same key order — a copy of it is that parse, without writing and reading the text (a
 * tenth of a small write's time). Anything else (undefined or a function in it, a number JSON
 * cannot hold, a hole, a Date or other class instance, a `toJSON`, a cycle, deep nesting) is
 * refused, and the caller sends the text.
 */
import { hasOwn, setOwn, type JsonObject, type JsonValue } from './json.ts';

/**
 * Nesting a copy may have. Deeper bodies go as text: its parsers hold the API's depth limit and
 * its exact refusals (limits.jsonDepthMax), far beyond anything a caller builds as objects.
 */
export const plainJsonDepthMax = 32;

/** The copy, or undefined when `v` is not plain JSON data. */
export function plainJsonCopy(v: unknown, depthLeft = plainJsonDepthMax): JsonValue | undefined {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      // NaN and the infinities are written as null, -0 as 0.
      return Number.isFinite(v) && !Object.is(v, -0) ? v : undefined;
    case 'object':
      if (v === null) return null;
      if (depthLeft <= 0) return undefined;
      return Array.isArray(v) ? arrayCopy(v, depthLeft - 1) : objectCopy(v, depthLeft - 1);
    default:
      return undefined;
  }
}

function arrayCopy(a: readonly unknown[], depthLeft: number): JsonValue[] | undefined {
  if (Object.getPrototypeOf(a) !== Array.prototype || typeof (a as { toJSON?: unknown }).toJSON === 'function') return undefined;
  const out: JsonValue[] = [];
  for (let i = 0; i < a.length; i++) {
    // A hole is written as null.
    if (!(i in a)) return undefined;
    const c = plainJsonCopy(a[i], depthLeft);
    if (c === undefined) return undefined;
    out.push(c);
  }
  return out;
}

function objectCopy(o: object, depthLeft: number): JsonObject | undefined {
  const proto: unknown = Object.getPrototypeOf(o);
  if ((proto !== Object.prototype && proto !== null) || typeof (o as { toJSON?: unknown }).toJSON === 'function') return undefined;
  const out: JsonObject = {};
  for (const k in o) {
    if (!hasOwn(o, k)) continue;
    const c = plainJsonCopy((o as Record<string, unknown>)[k], depthLeft);
    if (c === undefined) return undefined;
    // As JSON.parse, `__proto__` included as an own key.
    setOwn(out, k, c);
  }
  return out;
}
