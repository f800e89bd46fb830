/**
 * Partial shapes: an expected value matches when every field it gives is there with that value;
 * lists match element by element and must have the same length (a check on one element of a list
 * is a field path with `[field=value]`). The first difference is described with its path.
 */

export interface Mismatch {
  readonly path: string;
  readonly expected: unknown;
  readonly seen: unknown;
  readonly missing?: boolean;
}

export function matchShape(expected: unknown, seen: unknown, path = ''): Mismatch | null {
  if (Array.isArray(expected)) {
    if (!Array.isArray(seen) || seen.length !== expected.length) return { path: path || '(the whole value)', expected, seen };
    for (let i = 0; i < expected.length; i++) {
      const m = matchShape(expected[i], seen[i], `${path}[${i}]`);
      if (m !== null) return m;
    }
    return null;
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof seen !== 'object' || seen === null || Array.isArray(seen)) return { path: path || '(the whole value)', expected, seen };
    for (const [k, v] of Object.entries(expected)) {
      const at = path === '' ? k : `${path}.${k}`;
      if (!Object.hasOwn(seen, k)) return { path: at, expected: v, seen: undefined, missing: true };
      const m = matchShape(v, (seen as Record<string, unknown>)[k], at);
      if (m !== null) return m;
    }
    return null;
  }
  return Object.is(expected, seen) ? null : { path: path || '(the whole value)', expected, seen };
}
