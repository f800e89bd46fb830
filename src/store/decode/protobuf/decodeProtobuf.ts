/**
 * Kubernetes protobuf request bodies (`application/vnd.kubernetes.protobuf`), decoded into the
 * JSON object the same request would have carried as JSON: the `k8s\0` magic, the runtime.Unknown
 * envelope (typeMeta = 1 {apiVersion = 1, kind = 2}, raw = 2), then the object by the field tables
 * of messages.ts. Pure; malformed input is an error message, never an exception.
 */
import { bytesToBase64, utf8Decode } from '../../../core/base64.ts';
import { formatInstant, formatMicroInstant } from '../../../core/duration.ts';
import { limits } from '../../../core/limits.ts';
import type { JsonObject, JsonValue } from '../../../core/json.ts';
import { messages, topLevel, type FieldRow } from './messages.ts';
import { readMessage, signed, WireError, type WireMessage, type WireValue } from './wire.ts';

export type ProtobufDecoded = { readonly ok: true; readonly apiVersion: string; readonly kind: string; readonly object: JsonObject } | { readonly ok: false; readonly message: string };

const magic = [0x6b, 0x38, 0x73, 0x00];

function text(v: WireValue | undefined): string {
  if (v === undefined) return '';
  if (v.type !== 'bytes') throw new WireError('expected a length-delimited field');
  const s = utf8Decode(v.value);
  if (s === null) throw new WireError('invalid UTF-8');
  return s;
}

function bytesOf(v: WireValue): Uint8Array {
  if (v.type !== 'bytes') throw new WireError('expected a length-delimited field');
  return v.value;
}

function number(v: WireValue): number {
  if (v.type !== 'varint') throw new WireError('expected a varint field');
  return signed(v.value);
}

function timeOf(v: WireValue, micro: boolean): string | null {
  const t = readMessage(bytesOf(v));
  const seconds = t.get(1)?.[0] === undefined ? 0 : number(t.get(1)![0]!);
  const nanos = t.get(2)?.[0] === undefined ? 0 : number(t.get(2)![0]!);
  if (seconds === 0 && nanos === 0) return null;
  const ms = seconds * 1000 + Math.floor(nanos / 1e6);
  return micro ? formatMicroInstant(ms) : formatInstant(ms);
}

function mapOf(values: readonly WireValue[], value: (v: WireValue) => JsonValue): JsonObject {
  const out: JsonObject = {};
  for (const entry of values) {
    const e = readMessage(bytesOf(entry));
    const k = text(e.get(1)?.[0]);
    const v = e.get(2)?.[0];
    out[k] = v === undefined ? value({ type: 'bytes', value: new Uint8Array(0) }) : value(v);
  }
  return out;
}

function scalar(row: FieldRow, v: WireValue, depth: number): JsonValue | undefined {
  const kind = row.kind;
  if (typeof kind === 'object') return decodeMessage(kind.message, readMessage(bytesOf(v)), depth + 1);
  switch (kind) {
    case 'string':
      return text(v);
    case 'bytes':
      return bytesToBase64(bytesOf(v));
    case 'bool':
      return number(v) !== 0;
    case 'int':
      return number(v);
    case 'time':
    case 'microTime':
      return timeOf(v, kind === 'microTime') ?? undefined;
    case 'quantity':
      return text(readMessage(bytesOf(v)).get(1)?.[0]);
    case 'intOrString': {
      const x = readMessage(bytesOf(v));
      const type = x.get(1)?.[0] === undefined ? 0 : number(x.get(1)![0]!);
      return type === 1 ? text(x.get(3)?.[0]) : x.get(2)?.[0] === undefined ? 0 : number(x.get(2)![0]!);
    }
    case 'fieldsV1':
    case 'rawExtension': {
      const raw = readMessage(bytesOf(v)).get(1)?.[0];
      if (raw === undefined) return {};
      const json = text(raw);
      try {
        return JSON.parse(json) as JsonValue;
      } catch {
        throw new WireError('embedded JSON does not parse');
      }
    }
    default:
      return undefined;
  }
}

function isZero(v: JsonValue | undefined): boolean {
  return v === undefined || v === '' || v === 0 || v === false;
}

function decodeMessage(name: string, msg: WireMessage, depth: number): JsonObject {
  if (depth > limits.jsonDepthMax) throw new WireError('message nested too deeply');
  const rows = messages[name];
  if (rows === undefined) throw new WireError(`no field table for ${name}`);
  const out: JsonObject = {};
  for (const row of rows) {
    const values = msg.get(row.n);
    if (values === undefined || values.length === 0) continue;
    if (row.kind === 'stringMap') out[row.json] = mapOf(values, (v) => text(v));
    else if (row.kind === 'bytesMap') out[row.json] = mapOf(values, (v) => bytesToBase64(bytesOf(v)));
    else if (row.kind === 'extraMap') out[row.json] = mapOf(values, (v) => (readMessage(bytesOf(v)).get(1) ?? []).map((x) => text(x)));
    else if (row.repeated === true) out[row.json] = values.map((v) => scalar(row, v, depth) ?? null);
    else {
      const v = scalar(row, values[values.length - 1]!, depth);
      if (row.keep === true ? v !== undefined : !isZero(v)) out[row.json] = v!;
    }
  }
  return out;
}

function groupOf(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i).split('.')[0]!;
}

export function decodeKubernetesProtobuf(bytes: Uint8Array): ProtobufDecoded {
  if (bytes.length < 4 || magic.some((b, i) => bytes[i] !== b)) return { ok: false, message: 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]' };
  try {
    const unknown = readMessage(bytes.subarray(4));
    const typeMeta = unknown.get(1)?.[0] === undefined ? new Map() : readMessage(bytesOf(unknown.get(1)![0]!));
    const apiVersion = text(typeMeta.get(1)?.[0]);
    const kind = text(typeMeta.get(2)?.[0]);
    const message = topLevel[`${groupOf(apiVersion)}/${kind}`];
    if (message === undefined) return { ok: false, message: `no kind "${kind}" is registered for version "${apiVersion}" in the protobuf decoder` };
    const raw = unknown.get(2)?.[0];
    const object = decodeMessage(message, raw === undefined ? new Map() : readMessage(bytesOf(raw)), 0);
    return { ok: true, apiVersion, kind, object: { apiVersion, kind, ...object } };
  } catch (e) {
    if (e instanceof WireError) return { ok: false, message: `unable to decode protobuf: ${e.message}` };
    throw e;
  }
}
