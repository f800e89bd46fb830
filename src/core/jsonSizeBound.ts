/**
 * Whether a value's JSON (as JSON.stringify writes it) is at most `max` UTF-8 bytes, judged by an
 * upper bound: a walk that adds up what each part can take at most, without writing the text.
 * A string counts six bytes a UTF-16 unit (an escape `\u001f` is six; a unit that is not escaped
 * is at most three bytes, a surrogate pair four for two units), a number 25 (the longest a double
 * prints), and every key, quote, colon, comma and bracket. `false` means "could be larger": the
 * caller measures exactly. A stored object far below the limit (all of them, in practice) is
 * judged in a fraction of what encoding it costs.
 */
export function jsonBytesAtMost(value: unknown, max: number): boolean {
  return bound(value, max) <= max;
}

/** An upper bound of the value's JSON length, or some number above `max` once it passes `max`. */
function bound(v: unknown, max: number): number {
  if (typeof v === 'string') return 2 + 6 * v.length;
  if (typeof v !== 'object' || v === null) return 25;
  let total = 2;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length && total <= max; i++) total += 1 + bound(v[i], max - total);
    return total;
  }
  for (const k in v) {
    if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
    total += 4 + 6 * k.length + bound((v as Record<string, unknown>)[k], max - total);
    if (total > max) return total;
  }
  return total;
}
