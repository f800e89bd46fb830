/**
 * Splits DER bytes into their top-level TLV elements, as Go's cryptobyte `ReadASN1Element`
 * walks concatenated certificates: null when a header or length runs past the data.
 */
export function derElements(der: Uint8Array): Uint8Array[] | null {
  const out: Uint8Array[] = [];
  let at = 0;
  while (at < der.length) {
    if (at + 2 > der.length) return null;
    const first = der[at + 1]!;
    let header = 2;
    let length = first;
    if (first & 0x80) {
      const n = first & 0x7f;
      // Indefinite (0) and absurd (> 4 bytes) lengths are not DER.
      if (n === 0 || n > 4 || at + 2 + n > der.length) return null;
      length = 0;
      for (let i = 0; i < n; i++) length = length * 256 + der[at + 2 + i]!;
      header += n;
    }
    const end = at + header + length;
    if (end > der.length) return null;
    out.push(der.subarray(at, end));
    at = end;
  }
  return out;
}
