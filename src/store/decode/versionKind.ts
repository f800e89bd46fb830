/**
 * The JSON serializer's first look at a body (apimachinery `SimpleMetaFactory.Interpret`): before
 * any typed decoding it reads `apiVersion` and `kind` with encoding/json into an anonymous struct,
 * so a body that is not an object, or whose `apiVersion`/`kind` is not a string, fails there with
 * `couldn't get version/kind; json parse error: <encoding/json error>`. That decoder matches keys
 * case-insensitively (`KIND` is `kind`) and reports the first mismatch in the document.
 */
import type { JsonValue } from '../../core/json.ts';

const probe = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

const jsonKind = (v: JsonValue): string => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'object' ? 'object' : typeof v === 'boolean' ? 'bool' : typeof v);

/** encoding/json's case folding of a key: Unicode simple folding, which ASCII-lowers and maps ſ to s and K (Kelvin) to k. */
const folded = (key: string): string => key.toLowerCase().replace(/\u017f/g, 's');

/** The serializer's message for `value`, or null when apiVersion and kind read (`null` reads as an empty object). */
export function versionKindError(value: JsonValue): string | null {
  if (value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) return `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKind(value)} into Go value of type ${probe}`;
  for (const [key, v] of Object.entries(value)) {
    const field = folded(key);
    if (field !== 'apiversion' && field !== 'kind') continue;
    if (v === null || typeof v === 'string') continue;
    return `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKind(v)} into Go struct field .${field === 'kind' ? 'kind' : 'apiVersion'} of type string`;
  }
  return null;
}
