/**
 * Request headers, names in lower case. A header sent several times keeps each occurrence
 * (`X-Remote-Group: a` twice is two groups; one `a,b` is one group), so values may be arrays.
 */
import { getOwn } from '../core/json.ts';
export type HeaderMap = Readonly<Record<string, string | readonly string[] | undefined>>;

/** The header as one string (occurrences joined with ", ", as Node's `req.headers` does). */
export function header(headers: HeaderMap, name: string): string | undefined {
  const v = getOwn(headers, name);
  if (v === undefined) return undefined;
  return typeof v === 'string' ? v : v.join(', ');
}

/** Every occurrence of a header, in order. */
export function headerValues(headers: HeaderMap, name: string): string[] {
  const v = getOwn(headers, name);
  if (v === undefined) return [];
  return typeof v === 'string' ? [v] : [...v];
}

/** Names of the headers starting with a prefix (lower case), sorted. */
export function headersWithPrefix(headers: HeaderMap, prefix: string): string[] {
  const p = prefix.toLowerCase();
  return Object.keys(headers).filter((k) => k.startsWith(p) && headers[k] !== undefined).sort();
}
