/**
 * Go's base64 for `[]byte` fields: the one-pass decoder for clean input gives exactly what the
 * quantum-by-quantum definition gives, and anything else (newlines, bad padding, stray bytes)
 * takes the definition's path with Go's error offsets.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToBinary, decodeGoBase64, decodeGoBase64ByQuanta, decodeGoBase64Text } from '../../../src/registry/certificates/goBase64.ts';

const base64Char = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=\n\r -'.split(''));

describe('Go base64', () => {
  it('decodes what Buffer encodes, byte for byte', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const text = Buffer.from(bytes).toString('base64');
        const decoded = decodeGoBase64(text);
        expect(decoded).toEqual({ ok: true, bytes: Uint8Array.from(bytes) });
        expect(decodeGoBase64ByQuanta(text)).toEqual(decoded);
      }),
    );
  });

  it('agrees with the definition on any text, errors included', () => {
    fc.assert(
      fc.property(fc.array(base64Char, { maxLength: 40 }).map((cs) => cs.join('')), (text) => {
        expect(decodeGoBase64(text)).toEqual(decodeGoBase64ByQuanta(text));
      }),
    );
  });

  it('decodes to a binary string the same, remembered or not', () => {
    const asText = (text: string) => {
      const d = decodeGoBase64ByQuanta(text);
      return d.ok ? { ok: true, text: bytesToBinary(d.bytes) } : d;
    };
    fc.assert(
      fc.property(fc.oneof(fc.array(base64Char, { maxLength: 40 }).map((cs) => cs.join('')), fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString('base64'))), (text) => {
        expect(decodeGoBase64Text(text)).toEqual(asText(text));
        expect(decodeGoBase64Text(text)).toEqual(asText(text));
      }),
    );
  });

  it("names Go's offsets", () => {
    expect(decodeGoBase64('AAA')).toEqual({ ok: false, message: 'illegal base64 data at input byte 0' });
    expect(decodeGoBase64('AA=A')).toEqual({ ok: false, message: 'illegal base64 data at input byte 2' });
    expect(decodeGoBase64('AAAA\nAA==')).toEqual({ ok: true, bytes: Uint8Array.of(0, 0, 0, 0) });
  });

  it('bytesToBinary keeps every byte, past the argument-list chunk', () => {
    const bytes = Uint8Array.from({ length: 20_000 }, (_, i) => (i * 7) & 255);
    const text = bytesToBinary(bytes);
    expect(text.length).toBe(bytes.length);
    expect([...text].every((c, i) => c.charCodeAt(0) === bytes[i])).toBe(true);
  });
});
