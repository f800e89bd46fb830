/**
 * Standard base64 as Go's `encoding/base64.StdEncoding.Decode` reads it, because Kubernetes
 * `[]byte` fields (CSR `spec.request`, `status.certificate`) and PEM bodies are decoded that way:
 * padding is required, `\r` and `\n` are skipped anywhere, and a failure names the byte offset
 * of the first bad input (`illegal base64 data at input byte N`), exactly where Go reports it.
 * Pure: works on JS strings whose char codes are the input bytes (ASCII in practice).
 */
import { utf8Length } from '../validation/names.ts';

export type GoBase64Result = { readonly ok: true; readonly bytes: Uint8Array } | { readonly ok: false; readonly message: string };

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const values = new Map([...alphabet].map((c, i) => [c, i]));

const isNewline = (c: string | undefined): boolean => c === '\n' || c === '\r';

/** One 4-character quantum, as Go's decodeQuantum: the next index and the 6-bit values read. */
type Quantum = { readonly next: number; readonly sextets: readonly number[]; readonly last: boolean } | { readonly error: number };

function quantum(text: string, start: number): Quantum {
  const sextets: number[] = [];
  let si = start;
  // Each pass consumes one character, so the loop is bounded by the text length.
  while (sextets.length < 4) {
    if (si === text.length) return sextets.length === 0 ? { next: si, sextets, last: true } : { error: si - sextets.length };
    const c = text[si]!;
    si++;
    const v = values.get(c);
    if (v !== undefined) {
      sextets.push(v);
      continue;
    }
    if (isNewline(c)) continue;
    if (c !== '=' || sextets.length < 2) return { error: si - 1 };
    if (sextets.length === 2) {
      // "==" is expected; the first '=' is consumed, newlines may sit between the two.
      while (si < text.length && isNewline(text[si])) si++;
      if (si === text.length) return { error: text.length };
      if (text[si] !== '=') return { error: si - 1 };
      si++;
    }
    while (si < text.length && isNewline(text[si])) si++;
    if (si < text.length) return { error: si };
    return { next: si, sextets, last: true };
  }
  return { next: si, sextets, last: false };
}

function goOffset(text: string, index: number): number {
  return utf8Length(text.slice(0, index));
}

/** Base64 without newlines and with correct padding: what clients send, decoded in one pass. */
const clean = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const sextetOf = new Uint8Array(128);
for (let i = 0; i < alphabet.length; i++) sextetOf[alphabet.charCodeAt(i)] = i;

function decodeClean(text: string): Uint8Array {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((text.length / 4) * 3 - padding);
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    const n = (sextetOf[text.charCodeAt(i)]! << 18) | (sextetOf[text.charCodeAt(i + 1)]! << 12) | (sextetOf[text.charCodeAt(i + 2)]! << 6) | sextetOf[text.charCodeAt(i + 3)]!;
    out[o++] = n >> 16;
    if (o < out.length) out[o++] = (n >> 8) & 255;
    if (o < out.length) out[o++] = n & 255;
  }
  return out;
}

export type GoBase64TextResult = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string };

/**
 * The same fields are decoded by validation, the approver, the signer and the cleaner, on every
 * write and settle: the last few results are kept (a pure function's memo).
 */
const recentTexts = new Map<string, GoBase64TextResult>();
const recentTextsMax = 16;

/** As decodeGoBase64, the bytes as a binary string (one char per byte). */
export function decodeGoBase64Text(text: string): GoBase64TextResult {
  const known = recentTexts.get(text);
  if (known !== undefined) return known;
  let result: GoBase64TextResult;
  if (clean.test(text)) {
    result = { ok: true, text: atob(text) };
  } else {
    const decoded = decodeGoBase64ByQuanta(text);
    result = decoded.ok ? { ok: true, text: bytesToBinary(decoded.bytes) } : decoded;
  }
  if (recentTexts.size >= recentTextsMax) recentTexts.delete(recentTexts.keys().next().value!);
  recentTexts.set(text, result);
  return result;
}

export function decodeGoBase64(text: string): GoBase64Result {
  // '=' maps to sextet 0 in decodeClean, as the missing bits of a padded quantum are.
  if (clean.test(text)) return { ok: true, bytes: decodeClean(text) };
  return decodeGoBase64ByQuanta(text);
}

/** Go's decoder quantum by quantum: the definition, and the path for newlines and errors. */
export function decodeGoBase64ByQuanta(text: string): GoBase64Result {
  const out: number[] = [];
  let si = 0;
  for (let guard = 0; guard <= text.length; guard++) {
    const q = quantum(text, si);
    if ('error' in q) return { ok: false, message: `illegal base64 data at input byte ${goOffset(text, q.error)}` };
    const [a = 0, b = 0, c = 0, d = 0] = q.sextets;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    const bytes = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
    out.push(...bytes.slice(0, Math.max(0, q.sextets.length - 1)));
    si = q.next;
    if (q.last) break;
  }
  return { ok: true, bytes: Uint8Array.from(out) };
}

/** Bytes as a string of the same char codes (lossless for any bytes; PEM is ASCII). */
export function bytesToBinary(bytes: Uint8Array): string {
  let s = '';
  // In chunks: fromCharCode takes its codes as arguments, and argument lists are bounded.
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192) as unknown as number[]);
  return s;
}

/** The inverse of bytesToBinary. */
export function binaryToBytes(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0) & 255);
}
