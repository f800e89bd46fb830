/**
 * resource.Quantity parsing, just enough to compare storage sizes (`10Gi` > `5G`). Values are
 * JavaScript numbers: exact for every size a claim realistically asks for. The real decoder
 * rejects a malformed quantity before validation; here validation reports it (see schema.ts).
 */
import { getOwn } from '../../core/json.ts';
const binary: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const decimal: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };

export const quantityPattern = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
export const quantityFormatMessage = `quantities must match the regular expression '${quantityPattern}'`;

/** The quantity's value, or null when it is not a quantity. */
export function parseQuantity(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+))(.*)$/.exec(value);
  if (m === null) return null;
  const n = Number(m[1]);
  const suffix = m[2]!;
  // The suffix is the client's text: own keys only (`1constructor` is no quantity).
  const scale = getOwn(binary, suffix) ?? getOwn(decimal, suffix);
  if (scale !== undefined) return n * scale;
  const exp = /^[eE]([+-]?\d+)$/.exec(suffix);
  return exp === null ? null : n * 10 ** Number(exp[1]);
}
