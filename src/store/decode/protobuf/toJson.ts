/**
 * One protobuf message to the JSON object Go's encoding/json would write for the same Go struct,
 * driven by a field table (messages.ts): keys in table order, zero values left out or written
 * per the field's presence rule, fields the table does not name skipped (as an older decoder
 * skips newer fields). Pure; a malformed message is an error value, never an exception.
 */
import { bytesToBase64 } from '../../../core/base64.ts';
import { setOwn, type JsonObject, type JsonValue } from '../../../core/json.ts';
import { limits } from '../../../core/limits.ts';
import { parseJson } from '../parseJson.ts';
import type { FieldKind, FieldRow, MessageTables } from './messages.ts';
import { formatMicroTime, formatTime, type FormattedTime } from './times.ts';
import { readMessage, type WireMessage, type WireValue } from './wire.ts';

export type Converted = { readonly ok: true; readonly value: JsonObject } | { readonly ok: false; readonly message: string };

/** Thrown only inside this module; messageToJson turns it into an error value. */
class Invalid extends Error {}

/** Go's proto2 strings are not checked for UTF-8; its JSON then writes bad bytes as U+FFFD. */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

interface Ctx {
  readonly tables: MessageTables;
  readonly owner: string;
  readonly row: FieldRow;
}

function wrongType(ctx: Ctx, v: WireValue): never {
  throw new Invalid(`proto: wrong wireType = ${v.type === 'varint' ? 0 : 2} for field ${ctx.row.json} of ${ctx.owner}`);
}

function fields(buf: Uint8Array): WireMessage {
  const r = readMessage(buf);
  if (!r.ok) throw new Invalid(r.message);
  return r.fields;
}

function bytesOf(ctx: Ctx, v: WireValue): Uint8Array {
  return v.type === 'bytes' ? v.value : wrongType(ctx, v);
}

function varintOf(ctx: Ctx, v: WireValue): bigint {
  return v.type === 'varint' ? v.value : wrongType(ctx, v);
}

function int64(ctx: Ctx, v: WireValue): number {
  const x = BigInt.asIntN(64, varintOf(ctx, v));
  if (x > BigInt(Number.MAX_SAFE_INTEGER) || x < BigInt(Number.MIN_SAFE_INTEGER)) throw new Invalid(`${ctx.row.json} of ${ctx.owner}: ${x} is beyond the integers JSON numbers hold exactly`);
  return Number(x);
}

/** A subfield of a small well-known message (Timestamp, IntOrString, …), read as the last occurrence. */
function sub(m: WireMessage, n: number): WireValue | undefined {
  const values = m.get(n);
  return values?.[values.length - 1];
}

function subInt(ctx: Ctx, m: WireMessage, n: number, bits: 32 | 64): number {
  const v = sub(m, n);
  if (v === undefined) return 0;
  return bits === 64 ? int64(ctx, v) : Number(BigInt.asIntN(32, varintOf(ctx, v)));
}

function time(ctx: Ctx, v: WireValue, micro: boolean): string | null {
  const b = bytesOf(ctx, v);
  // An empty Time is Go's zero time (apimachinery's Time.Unmarshal), written as null.
  if (b.length === 0) return null;
  const t = fields(b);
  const r: FormattedTime = micro ? formatMicroTime(subInt(ctx, t, 1, 64), subInt(ctx, t, 2, 32)) : formatTime(subInt(ctx, t, 1, 64));
  if (!r.ok) throw new Invalid(`${ctx.row.json} of ${ctx.owner}: ${r.message}`);
  return r.value;
}

/** RawExtension and FieldsV1 carry JSON bytes, which Go's MarshalJSON writes through as they are. */
function embeddedJson(ctx: Ctx, v: WireValue): JsonValue {
  const raw = sub(fields(bytesOf(ctx, v)), 1);
  if (raw === undefined) return null;
  const parsed = parseJson(utf8.decode(bytesOf(ctx, raw)));
  if (!parsed.ok) throw new Invalid(`${ctx.row.json} of ${ctx.owner} does not hold JSON: ${parsed.message}`);
  return parsed.value;
}

function scalar(ctx: Ctx, kind: Exclude<FieldKind, { message: string }>, v: WireValue): JsonValue {
  switch (kind) {
    case 'string':
      return utf8.decode(bytesOf(ctx, v));
    case 'bytes':
      return bytesToBase64(bytesOf(ctx, v));
    case 'bool':
      return varintOf(ctx, v) !== 0n;
    case 'int32':
      return Number(BigInt.asIntN(32, varintOf(ctx, v)));
    case 'int64':
      return int64(ctx, v);
    case 'time':
    case 'microTime':
      return time(ctx, v, kind === 'microTime');
    case 'intOrString': {
      const x = fields(bytesOf(ctx, v));
      const type = subInt(ctx, x, 1, 64);
      const str = sub(x, 3);
      if (type === 0) return subInt(ctx, x, 2, 32);
      if (type === 1) return str === undefined ? '' : utf8.decode(bytesOf(ctx, str));
      throw new Invalid(`${ctx.row.json} of ${ctx.owner}: impossible IntOrString.Type ${type}`);
    }
    case 'quantity': {
      // Kept as sent: kube-apiserver would canonicalise it ("1000m" → "1"); an unset one is "0".
      const s = sub(fields(bytesOf(ctx, v)), 1);
      return s === undefined ? '0' : utf8.decode(bytesOf(ctx, s)) || '0';
    }
    case 'rawExtension':
    case 'fieldsV1':
      return embeddedJson(ctx, v);
    case 'stringMap':
    case 'bytesMap':
    case 'stringListMap':
      throw new Invalid(`${ctx.row.json} of ${ctx.owner}: a map is not a scalar`);
  }
}

/** Go's encoding/json sorts map keys by their UTF-8 bytes, which is code point order. */
function byCodePoint(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

function map(ctx: Ctx, entries: readonly WireValue[]): JsonObject {
  const byKey = new Map<string, JsonValue>();
  for (const entry of entries) {
    const e = fields(bytesOf(ctx, entry));
    const k = sub(e, 1);
    const v = sub(e, 2);
    const key = k === undefined ? '' : utf8.decode(bytesOf(ctx, k));
    if (ctx.row.kind === 'stringMap') byKey.set(key, v === undefined ? '' : utf8.decode(bytesOf(ctx, v)));
    else if (ctx.row.kind === 'bytesMap') byKey.set(key, v === undefined ? '' : bytesToBase64(bytesOf(ctx, v)));
    else {
      // ExtraValue is a []string; with no items it is nil, which encoding/json writes as null.
      const items = v === undefined ? [] : (fields(bytesOf(ctx, v)).get(1) ?? []).map((x) => utf8.decode(bytesOf(ctx, x)));
      byKey.set(key, items.length === 0 ? null : items);
    }
  }
  const out: JsonObject = {};
  for (const key of [...byKey.keys()].sort(byCodePoint)) setOwn(out, key, byKey.get(key)!);
  return out;
}

/** Kinds that are Go structs: encoding/json's omitempty never leaves them out. */
function isStruct(kind: FieldKind): boolean {
  return typeof kind === 'object' || kind === 'time' || kind === 'microTime' || kind === 'intOrString' || kind === 'quantity' || kind === 'rawExtension' || kind === 'fieldsV1';
}

/** What an unset field of a struct kind writes: its zero value's JSON. */
function zeroStruct(ctx: Ctx, depth: number): JsonValue {
  const kind = ctx.row.kind;
  if (typeof kind === 'object') return decode(ctx.tables, kind.message, new Uint8Array(0), depth + 1);
  return kind === 'intOrString' ? 0 : kind === 'quantity' ? '0' : null;
}

function isEmpty(v: JsonValue): boolean {
  return v === '' || v === 0 || v === false || v === null;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A field's JSON value, or undefined when Go's encoding/json would leave the key out. */
function field(ctx: Ctx, values: readonly WireValue[], depth: number): JsonValue | undefined {
  const { row } = ctx;
  const kind = row.kind;
  const unset = row.presence === 'always' || row.presence === 'nullablePointer' ? null : undefined;
  if (row.repeated || kind === 'stringMap' || kind === 'bytesMap' || kind === 'stringListMap') {
    if (values.length === 0) return unset;
    if (!row.repeated) return map(ctx, values);
    return values.map((v) => (typeof kind === 'object' ? decode(ctx.tables, kind.message, bytesOf(ctx, v), depth + 1) : scalar(ctx, kind, v)));
  }
  if (values.length === 0) {
    if (row.presence === 'pointer' || row.presence === 'omitzero') return undefined;
    if (row.presence === 'nullablePointer') return null;
    if (isStruct(kind)) return zeroStruct(ctx, depth);
    if (row.presence === 'omitempty') return undefined;
    return kind === 'string' ? '' : kind === 'bool' ? false : kind === 'bytes' ? null : 0;
  }
  // A message field seen twice is merged, as proto does; a scalar seen twice keeps the last.
  const value = typeof kind === 'object' ? decode(ctx.tables, kind.message, concat(values.map((v) => bytesOf(ctx, v))), depth + 1) : scalar(ctx, kind, values[values.length - 1]!);
  if (row.presence === 'omitzero') return value === null || isEmpty(value) ? undefined : value;
  if (row.presence === 'omitempty' && !isStruct(kind) && isEmpty(value)) return undefined;
  return value;
}

function decode(tables: MessageTables, name: string, buf: Uint8Array, depth: number): JsonObject {
  if (depth > limits.jsonDepthMax) throw new Invalid('message nested too deeply');
  const rows = Object.hasOwn(tables, name) ? tables[name] : undefined;
  if (rows === undefined) throw new Invalid(`no field table for ${name}`);
  const m = fields(buf);
  const out: JsonObject = {};
  for (const row of rows) {
    const v = field({ tables, owner: name, row }, m.get(row.n) ?? [], depth);
    if (v !== undefined) setOwn(out, row.json, v);
  }
  return out;
}

/** The message `name` of `tables`, decoded from `bytes` into its Go JSON form. */
export function messageToJson(tables: MessageTables, name: string, bytes: Uint8Array): Converted {
  try {
    return { ok: true, value: decode(tables, name, bytes, 0) };
  } catch (e) {
    if (e instanceof Invalid) return { ok: false, message: e.message };
    throw e;
  }
}
