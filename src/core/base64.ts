/**
 * base64 and base64url of UTF-8 text and bytes, without padding for base64url (JWS) and with it
 * for standard base64 (Kubernetes `[]byte` fields). Pure: TextEncoder/TextDecoder only.
 */
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function bytesToBase64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += alphabet[(n >> 18) & 63]! + alphabet[(n >> 12) & 63]!;
    out += i + 1 < bytes.length ? alphabet[(n >> 6) & 63]! : '=';
    out += i + 2 < bytes.length ? alphabet[n & 63]! : '=';
  }
  return out;
}

/** Standard base64 with padding; null when the text is not valid base64. */
export function base64ToBytes(text: string): Uint8Array | null {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  // atob (browsers and Node) is much faster than decoding by hand; the text is already checked.
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

export function base64UrlEncode(bytes: Uint8Array): string {
  return bytesToBase64(bytes).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** Unpadded base64url (JWS segments); null when not valid. */
export function base64UrlDecode(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const std = text.replaceAll('-', '+').replaceAll('_', '/');
  return base64ToBytes(std + '='.repeat((4 - (std.length % 4)) % 4));
}

export function utf8Encode(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Strict UTF-8 decoding; null for invalid bytes. */
export function utf8Decode(bytes: Uint8Array): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}
