/** The result of applying a patch: the new document, or the API error that refuses it. */
import type { JsonValue } from '../../core/json.ts';
import type { ApiError } from '../../core/status.ts';

export type PatchResult = { ok: true; value: JsonValue } | { ok: false; error: ApiError };

/** Go's fmt rendering of a map (keys sorted), used in strategic-merge error messages. */
export function goMapString(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(goMapString).join(' ')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `map[${Object.keys(o).sort().map((k) => `${k}:${goMapString(o[k])}`).join(' ')}]`;
  }
  return v === null ? '<nil>' : String(v);
}
