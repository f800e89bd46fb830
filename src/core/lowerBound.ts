/**
 * Binary search in an ascending array of strings (code-unit order) or numbers: the first index
 * whose value is not below `x` (the array's length when every value is).
 */
export function lowerBound<T extends string | number>(xs: readonly T[], x: T): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
