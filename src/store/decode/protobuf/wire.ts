/**
 * The protobuf wire format, read-only: one message's fields by number with their raw values.
 * Varints stay bigints here (a 64-bit value does not fit a JS number exactly; the field's type,
 * known only to the caller, says how to narrow it). Length-delimited values are views into the
 * input, not copies. fixed32/fixed64 and (deprecated) groups are skipped: no Kubernetes message
 * uses them, so they can only be unknown fields. Malformed or truncated input is an error value;
 * every loop advances at least one byte, so none can run forever.
 */
import { limits } from '../../../core/limits.ts';

export type WireValue = { readonly type: 'varint'; readonly value: bigint } | { readonly type: 'bytes'; readonly value: Uint8Array };

export type WireMessage = ReadonlyMap<number, readonly WireValue[]>;

export type WireRead = { readonly ok: true; readonly fields: WireMessage } | { readonly ok: false; readonly message: string };

/** Thrown only inside this module; readMessage turns it into an error value. */
class Malformed extends Error {}

/** Largest field number protobuf allows (2^29 - 1). */
const fieldNumberMax = 536_870_911;

/** A base-128 varint of at most ten bytes, reduced to 64 bits as Go's decoder does. */
function varint(buf: Uint8Array, at: number): { value: bigint; next: number } {
  let value = 0n;
  for (let i = 0; i < 10; i++) {
    const b = buf[at + i];
    if (b === undefined) throw new Malformed('unexpected EOF');
    value |= BigInt(b & 0x7f) << BigInt(7 * i);
    if ((b & 0x80) === 0) return { value: BigInt.asUintN(64, value), next: at + i + 1 };
  }
  throw new Malformed('integer overflow');
}

function tag(buf: Uint8Array, at: number): { field: number; wireType: number; next: number } {
  const r = varint(buf, at);
  // A tag is a uint32: the field number shifted left by three, then the wire type.
  if (r.value > 0xffffffffn) throw new Malformed('integer overflow');
  const t = Number(r.value);
  const field = Math.floor(t / 8);
  if (field === 0 || field > fieldNumberMax) throw new Malformed(`illegal tag ${field} (wire type ${t % 8})`);
  return { field, wireType: t % 8, next: r.next };
}

function length(buf: Uint8Array, at: number): { value: number; next: number } {
  const r = varint(buf, at);
  if (r.value > BigInt(buf.length - r.next)) throw new Malformed('unexpected EOF');
  return { value: Number(r.value), next: r.next };
}

/** Skips a value of a wire type that carries nothing we read; returns the next offset. */
function skip(buf: Uint8Array, at: number, wireType: number, field: number, depth: number): number {
  switch (wireType) {
    case 0:
      return varint(buf, at).next;
    case 1:
    case 5: {
      const next = at + (wireType === 1 ? 8 : 4);
      if (next > buf.length) throw new Malformed('unexpected EOF');
      return next;
    }
    case 2: {
      const l = length(buf, at);
      return l.next + l.value;
    }
    case 3: {
      // A group runs to the end-group tag of the same field; nested groups are bounded.
      if (depth >= limits.jsonDepthMax) throw new Malformed('groups nested too deeply');
      let p = at;
      // Each pass consumes at least a tag byte, so the loop ends with the input.
      while (p < buf.length) {
        const t = tag(buf, p);
        if (t.wireType === 4) {
          if (t.field !== field) throw new Malformed(`end group of field ${t.field} inside group ${field}`);
          return t.next;
        }
        p = skip(buf, t.next, t.wireType, t.field, depth + 1);
      }
      throw new Malformed('unexpected EOF');
    }
    default:
      throw new Malformed(`illegal wireType ${wireType} for field ${field}`);
  }
}

function read(buf: Uint8Array): WireMessage {
  const fields = new Map<number, WireValue[]>();
  let at = 0;
  while (at < buf.length) {
    const t = tag(buf, at);
    let v: WireValue | undefined;
    if (t.wireType === 0) {
      const r = varint(buf, t.next);
      v = { type: 'varint', value: r.value };
      at = r.next;
    } else if (t.wireType === 2) {
      const l = length(buf, t.next);
      v = { type: 'bytes', value: buf.subarray(l.next, l.next + l.value) };
      at = l.next + l.value;
    } else at = skip(buf, t.next, t.wireType, t.field, 0);
    if (v === undefined) continue;
    const list = fields.get(t.field);
    if (list === undefined) fields.set(t.field, [v]);
    else list.push(v);
  }
  return fields;
}

/** The fields of one message; a field number may repeat (repeated fields, map entries, merges). */
export function readMessage(buf: Uint8Array): WireRead {
  try {
    return { ok: true, fields: read(buf) };
  } catch (e) {
    if (e instanceof Malformed) return { ok: false, message: e.message };
    throw e;
  }
}
