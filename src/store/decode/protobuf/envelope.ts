/**
 * The Kubernetes protobuf envelope (k8s.io/apimachinery pkg/runtime/serializer/protobuf): the
 * four magic bytes `k8s\0`, then a runtime.Unknown message — typeMeta = 1 (TypeMeta: apiVersion
 * = 1, kind = 2), raw = 2 (the object's own message), contentEncoding = 3, contentType = 4.
 */
import { readMessage, type WireMessage, type WireValue } from './wire.ts';

export type Envelope =
  | { readonly ok: true; readonly apiVersion: string; readonly kind: string; readonly raw: Uint8Array }
  | { readonly ok: false; readonly message: string };

const magic = [0x6b, 0x38, 0x73, 0x00] as const;

/** Go's proto2 strings are not checked for UTF-8; JSON then shows bad bytes as U+FFFD. */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** The last occurrence of a length-delimited field (proto's rule for a repeated singular field). */
function lastBytes(m: WireMessage, field: number, owner: string): Uint8Array | string {
  const values: readonly WireValue[] = m.get(field) ?? [];
  const v = values[values.length - 1];
  if (v === undefined) return new Uint8Array(0);
  return v.type === 'bytes' ? v.value : `unable to decode the protobuf envelope: proto: wrong wireType = 0 for field ${field} of ${owner}`;
}

export function readEnvelope(bytes: Uint8Array): Envelope {
  if (bytes.length < magic.length || magic.some((b, i) => bytes[i] !== b)) {
    return { ok: false, message: `provided data does not appear to be a protobuf message, expected prefix [${magic.join(' ')}]` };
  }
  const unknown = readMessage(bytes.subarray(magic.length));
  if (!unknown.ok) return { ok: false, message: `unable to decode the protobuf envelope: ${unknown.message}` };
  const typeMetaBytes = lastBytes(unknown.fields, 1, 'runtime.Unknown');
  const raw = lastBytes(unknown.fields, 2, 'runtime.Unknown');
  const encoding = lastBytes(unknown.fields, 3, 'runtime.Unknown');
  if (typeof typeMetaBytes === 'string') return { ok: false, message: typeMetaBytes };
  if (typeof raw === 'string') return { ok: false, message: raw };
  if (typeof encoding === 'string') return { ok: false, message: encoding };
  // kube-apiserver never sets a content encoding and ignores it; a client that compressed the
  // raw bytes would get garbage decoded, so say so instead.
  if (encoding.length > 0) return { ok: false, message: `unsupported content encoding "${utf8.decode(encoding)}" in the protobuf envelope` };
  const typeMeta = readMessage(typeMetaBytes);
  if (!typeMeta.ok) return { ok: false, message: `unable to decode the protobuf envelope: ${typeMeta.message}` };
  const apiVersion = lastBytes(typeMeta.fields, 1, 'runtime.TypeMeta');
  const kind = lastBytes(typeMeta.fields, 2, 'runtime.TypeMeta');
  if (typeof apiVersion === 'string') return { ok: false, message: apiVersion };
  if (typeof kind === 'string') return { ok: false, message: kind };
  return { ok: true, apiVersion: utf8.decode(apiVersion), kind: utf8.decode(kind), raw };
}
