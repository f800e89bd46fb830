/**
 * Secret defaults, applied on every write: write-only `stringData` is merged into `data` (as the
 * real decoder does) and `type` defaults to `Opaque`.
 */
import type { KubeObject } from '../../api/meta.ts';
import { isObject, setOwn, type JsonObject } from '../../core/json.ts';

/** stringData is write-only: each value is base64-encoded into data (text as UTF-8). */
function foldStringData(obj: KubeObject): KubeObject {
  const stringData = obj['stringData'];
  const out: KubeObject = { ...obj };
  delete out['stringData'];
  if (!isObject(stringData)) return out;
  const data: JsonObject = {};
  const existing = obj['data'];
  if (isObject(existing)) for (const k of Object.keys(existing)) setOwn(data, k, existing[k]!);
  for (const k of Object.keys(stringData)) setOwn(data, k, base64Utf8(String(stringData[k])));
  out['data'] = data;
  return out;
}

function base64Utf8(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

export function withSecretDefaults(obj: KubeObject): KubeObject {
  const out = foldStringData(obj);
  if (out['type'] === undefined || out['type'] === '') out['type'] = 'Opaque';
  return out;
}
