/**
 * The Authorization header as kube-apiserver's bearer-token authenticator reads it: trimmed,
 * split on single spaces, first part `bearer` in any case, token the second part (a third part
 * is ignored). An empty token is no credential at all, with a warning.
 */
export type BearerCredential =
  | { readonly type: 'none' }
  | { readonly type: 'none'; readonly warning: string }
  | { readonly type: 'token'; readonly token: string };

export const extraSpaceWarning = 'the provided Authorization header contains extra space before the bearer token, and is ignored';

export function bearerToken(authorization: string | undefined): BearerCredential {
  if (authorization === undefined) return { type: 'none' };
  const parts = authorization.trim().split(' ', 3);
  if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer') return { type: 'none' };
  const token = parts[1]!;
  if (token === '') return { type: 'none', warning: extraSpaceWarning };
  return { type: 'token', token };
}
