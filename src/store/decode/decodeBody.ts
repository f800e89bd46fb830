/**
 * Request bodies of create and update, decoded as kube-apiserver does: JSON or YAML to a value,
 * then into the kind's schema with fieldValidation Ignore / Warn / Strict. Also the decoding of
 * patch bodies and the strict-mode errors of patched results.
 */
import type { JsonObject, JsonValue } from '../../core/json.ts';
import { limits } from '../../core/limits.ts';
import { errors, type ApiError } from '../../core/status.ts';
import type { Schema } from '../../api/schema.ts';
import { parseJson } from './parseJson.ts';
import { parseYamlDocument } from './parseYaml.ts';
import { decodeTyped } from './typedDecode.ts';
import { versionKindError } from './versionKind.ts';
import { decodeKubernetesProtobuf } from './protobuf/decodeProtobuf.ts';

export interface DecodeInput {
  /** Text for JSON and YAML, bytes for protobuf. */
  readonly bytes: string | Uint8Array;
  /** A JSON body already a value (ApiRequest.json): `bytes` is not read, the text is its JSON. */
  readonly value?: JsonValue | undefined;
  readonly contentType: 'json' | 'yaml' | 'protobuf';
  readonly schema: Schema;
  readonly kind: string;
  readonly version: string;
  readonly fieldValidation: 'Ignore' | 'Warn' | 'Strict';
}

export type DecodeResult = { ok: true; object: JsonObject; warnings: string[] } | { ok: false; error: ApiError };

/** The first 30 bytes of a body, as the real error shows them (hex unless it starts with `{`). */
function preview(bytes: string): string {
  const head = new TextEncoder().encode(bytes).slice(0, 30);
  if (bytes.startsWith('{')) return new TextDecoder().decode(head);
  return Array.from(head, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A protobuf body: the envelope's object as JSON, or the real 400. */
function parseProtobuf(bytes: Uint8Array, kind: string): { ok: true; value: JsonObject; duplicates: string[] } | { ok: false; error: ApiError } {
  const decoded = decodeKubernetesProtobuf(bytes);
  if (!decoded.ok) return { ok: false, error: errors.badRequest(`the object provided is unrecognized (must be of type ${kind}): ${decoded.message}`) };
  return { ok: true, value: decoded.object, duplicates: [] };
}

function textOf(input: DecodeInput): string {
  if (input.value !== undefined) return JSON.stringify(input.value);
  return typeof input.bytes === 'string' ? input.bytes : new TextDecoder().decode(input.bytes);
}

export function decodeBody(input: DecodeInput): DecodeResult {
  let parsed: { ok: true; value: JsonValue; duplicates: string[] } | { ok: false; message: string };
  if (input.contentType === 'protobuf') {
    const proto = parseProtobuf(typeof input.bytes === 'string' ? new TextEncoder().encode(input.bytes) : input.bytes, input.kind);
    if (!proto.ok) return proto;
    parsed = proto;
  } else if (input.contentType === 'json' && input.value !== undefined) {
    // What parseJson gives for its text: one value, no duplicate keys (an object has none).
    parsed = { ok: true, value: input.value, duplicates: [] };
  } else {
    const text = textOf(input);
    parsed = input.contentType === 'yaml' ? parseYamlDocument(text) : parseJson(text.trim() === '' ? 'null' : text);
    if (!parsed.ok) return { ok: false, error: errors.badRequest(`the object provided is unrecognized (must be of type ${input.kind}): ${parsed.message} (${preview(text)})`) };
  }
  // apiVersion and kind are read first (versionKind.ts): a body that is not an object, or whose
  // apiVersion or kind is not a string, fails before typed decoding.
  const unreadable = parsed.value === null ? "couldn't get version/kind; json parse error: Object 'Kind' is missing in 'null'" : versionKindError(parsed.value);
  if (unreadable !== null) {
    const text = textOf(input);
    return { ok: false, error: errors.badRequest(`the object provided is unrecognized (must be of type ${input.kind}): ${unreadable} (${preview(text)})`) };
  }
  const decoded = decodeTyped(parsed.value, input.schema, { kind: input.kind, version: input.version });
  const prefix = `${input.kind} in version "${input.version}" cannot be handled as a ${input.kind}`;
  if (!decoded.ok) return { ok: false, error: errors.badRequest(`${prefix}: ${decoded.message}`) };
  const problems = [
    ...decoded.unknownFields.map((f) => `unknown field "${f}"`),
    ...(input.contentType === 'yaml' ? parsed.duplicates : parsed.duplicates.map((f) => `duplicate field "${f}"`)),
  ].slice(0, limits.decodeProblemsMax);
  if (input.fieldValidation === 'Strict' && problems.length > 0) return { ok: false, error: errors.badRequest(`${prefix}: strict decoding error: ${problems.join(', ')}`) };
  return { ok: true, object: decoded.value as JsonObject, warnings: input.fieldValidation === 'Warn' ? problems : [] };
}

/**
 * A merge or strategic patch body: JSON, else the real 400. JSON patch bodies use the same parser.
 *
 * A text with at most limits.jsonDepthMax brackets cannot nest deeper than parseJson allows; it is
 * read by JSON.parse, which is native and several times faster on a small patch, and gives what
 * parseJson gives: it accepts the same texts (a property test holds parseJson to that), keeps
 * `__proto__` as an own key, and keeps the last of duplicate keys in the first one's place
 * (duplicates are not reported for patches). Other texts are read by parseJson, which refuses
 * nesting beyond the limit.
 */
export function decodePatchJson(bytes: string): { ok: true; value: JsonValue } | { ok: false; error: ApiError } {
  if (openingBrackets(bytes, limits.jsonDepthMax + 1) <= limits.jsonDepthMax) {
    try {
      return { ok: true, value: JSON.parse(bytes) as JsonValue };
    } catch {
      return { ok: false, error: errors.badRequest('Invalid JSON Patch') };
    }
  }
  const parsed = parseJson(bytes);
  if (!parsed.ok) return { ok: false, error: errors.badRequest('Invalid JSON Patch') };
  return { ok: true, value: parsed.value };
}

/** How many `{` and `[` a text holds (inside strings too), counted up to `upTo`. */
function openingBrackets(text: string, upTo: number): number {
  let n = 0;
  for (let i = 0; i < text.length && n < upTo; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) n++;
  }
  return n;
}
