/**
 * The protobuf wire format, read-only: a message's fields by number with their raw values
 * (varints as numbers, length-delimited fields as byte slices). Bounded and defensive: malformed
 * or truncated input is an error value, never an exception or a runaway loop.
 */
export type WireValue = { readonly type: 'varint'; readonly value: number } | { readonly type: 'bytes'; readonly value: Uint8Array } | { readonly type: 'fixed'; readonly value: number };

export type WireMessage = ReadonlyMap<number, readonly WireValue[]>;

export class WireError extends Error {}

function varint(buf: Uint8Array, at: number): { value: number; next: number } {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 10; i++) {
    if (at + i >= buf.length) throw new WireError('unexpected EOF');
    const b = buf[at + i]!;
    value += (b & 0x7f) * scale;
    scale *= 128;
    if ((b & 0x80) === 0) return { value, next: at + i + 1 };
  }
  throw new WireError('varint overflow');
}

/** Fields of one message; a field number may repeat (repeated fields, map entries). */
export function readMessage(buf: Uint8Array): WireMessage {
  const fields = new Map<number, WireValue[]>();
  let at = 0;
  for (let guard = 0; at < buf.length && guard <= buf.length; guard++) {
    const key = varint(buf, at);
    at = key.next;
    const field = Math.floor(key.value / 8);
    const wireType = key.value % 8;
    if (field === 0) throw new WireError('illegal tag 0');
    let v: WireValue;
    if (wireType === 0) {
      const r = varint(buf, at);
      at = r.next;
      v = { type: 'varint', value: r.value };
    } else if (wireType === 2) {
      const len = varint(buf, at);
      at = len.next;
      if (at + len.value > buf.length) throw new WireError('unexpected EOF');
      v = { type: 'bytes', value: buf.subarray(at, at + len.value) };
      at += len.value;
    } else if (wireType === 1 || wireType === 5) {
      const size = wireType === 1 ? 8 : 4;
      if (at + size > buf.length) throw new WireError('unexpected EOF');
      v = { type: 'fixed', value: 0 };
      at += size;
    } else throw new WireError(`illegal wireType ${wireType}`);
    const list = fields.get(field);
    if (list === undefined) fields.set(field, [v]);
    else list.push(v);
  }
  return fields;
}

/** A varint read as a signed 64-bit integer (two's complement in ten bytes). */
export function signed(v: number): number {
  return v >= 2 ** 63 ? v - 2 ** 64 : v;
}
