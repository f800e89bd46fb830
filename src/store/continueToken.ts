/**
 * List continue tokens in the real server's shape: base64url (no padding) of
 * `{"v":"meta.k8s.io/v1","rv":<R>,"start":"<key after the resource prefix>\u0000"}`.
 * `rv: -1` means "continue from the latest state" (handed out with 410 Expired).
 */
export interface ContinueToken {
  readonly rv: number;
  /** The storage key to start at (inclusive), i.e. the last returned key + "\u0000". */
  readonly start: string;
}

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(token: string): string | null {
  if (!/^[A-Za-z0-9_-]*$/.test(token)) return null;
  try {
    const bin = atob(token.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

export function encodeContinue(rv: number, lastKey: string): string {
  return toBase64Url(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start: `${lastKey}\u0000` }));
}

/** Decodes a token; on failure returns the reason used in `invalid continue token: <reason>`. */
export function decodeContinue(token: string): { ok: true; token: ContinueToken } | { ok: false; reason: string } {
  const text = fromBase64Url(token);
  if (text === null) return { ok: false, reason: 'continue key is not valid: illegal base64 data' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'continue key is not valid: invalid character in token' };
  }
  if (typeof parsed !== 'object' || parsed === null) return { ok: false, reason: 'continue key is not valid: not an object' };
  const { v, rv, start } = parsed as { v?: unknown; rv?: unknown; start?: unknown };
  if (v !== 'meta.k8s.io/v1') return { ok: false, reason: 'continue key is not valid: server does not recognize this encoded key' };
  if (typeof rv !== 'number' || !Number.isInteger(rv) || typeof start !== 'string') return { ok: false, reason: 'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)' };
  if (start === '' ) return { ok: false, reason: 'continue key is not valid: encoded start key empty' };
  if (start.includes('..') || start.startsWith('/')) return { ok: false, reason: 'continue key is not valid: key escapes the resource prefix' };
  return { ok: true, token: { rv, start } };
}
