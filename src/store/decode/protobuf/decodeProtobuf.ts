/**
 * Kubernetes protobuf request bodies (`application/vnd.kubernetes.protobuf`, what kubectl's typed
 * commands send), decoded into the JSON object the same request would have carried as JSON:
 * the envelope names the kind, the field tables of messages.ts give its shape. Pure; malformed
 * input or an unknown kind is an error message, never an exception.
 */
import type { JsonObject } from '../../../core/json.ts';
import { readEnvelope } from './envelope.ts';
import { inEveryVersion, messages, topLevel } from './messages.ts';
import { messageToJson } from './toJson.ts';

export type ProtobufDecoded =
  | { readonly ok: true; readonly apiVersion: string; readonly kind: string; readonly object: JsonObject }
  | { readonly ok: false; readonly message: string };

/** `<first label of the group>/<version>/<Kind>`, the key of messages.ts's topLevel. */
function keyOf(apiVersion: string, kind: string): string {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash).split('.')[0]!;
  return `${group}/${apiVersion.slice(slash + 1)}/${kind}`;
}

function messageFor(apiVersion: string, kind: string): string | undefined {
  const key = keyOf(apiVersion, kind);
  if (Object.hasOwn(topLevel, key)) return topLevel[key];
  return Object.hasOwn(inEveryVersion, kind) ? inEveryVersion[kind] : undefined;
}

export function decodeKubernetesProtobuf(bytes: Uint8Array): ProtobufDecoded {
  const envelope = readEnvelope(bytes);
  if (!envelope.ok) return envelope;
  const { apiVersion, kind } = envelope;
  if (kind === '') return { ok: false, message: "Object 'Kind' is missing in the protobuf envelope" };
  const message = messageFor(apiVersion, kind);
  if (message === undefined) return { ok: false, message: `no kind "${kind}" is registered for version "${apiVersion}" in the protobuf decoder` };
  const object = messageToJson(messages, message, envelope.raw);
  if (!object.ok) return { ok: false, message: `unable to decode protobuf ${kind}: ${object.message}` };
  // TypeMeta comes first, as the brief's key order asks; the rest follows Go's field order.
  return { ok: true, apiVersion, kind, object: { apiVersion, kind, ...object.value } };
}
