/**
 * Go's string order: Go compares strings by their UTF-8 bytes, which is code-point order.
 * JavaScript's `<` compares UTF-16 code units, which differs only when surrogates are involved.
 *
 * Rule: sorting that must match Go (map keys in fmt and encoding/json, structured-merge-diff's
 * element order) uses this, never the default `sort()`. It must not know what the strings mean.
 */

/** Code-point order, which is the byte order Go uses on UTF-8 strings. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  // UTF-16 order differs from code-point order only when surrogates are involved.
  if (!/[\ud800-\udfff]/.test(a + b)) return a < b ? -1 : 1;
  const ca = [...a];
  const cb = [...b];
  const n = Math.min(ca.length, cb.length);
  for (let i = 0; i < n; i++) {
    const x = ca[i]!.codePointAt(0)!;
    const y = cb[i]!.codePointAt(0)!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return ca.length === cb.length ? 0 : ca.length < cb.length ? -1 : 1;
}
