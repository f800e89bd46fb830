/**
 * Facts a request will certainly ask for, seen before the step runs: the verification of a
 * bearer JWT, of a TokenReview's token, of a client certificate. Establishing them first saves
 * the pass that would only discover them (see factBook.ts). A guess that turns out unneeded
 * costs one verification and changes nothing: facts are pure functions of their inputs.
 */
import { bearerToken } from '../../auth/bearer.ts';
import { header } from '../../api/headers.ts';
import type { ApiRequest } from '../../endpoints/types.ts';
import { bodyText } from '../../endpoints/types.ts';
import type { Need } from '../../sim/factBook.ts';

const looksLikeJws = (t: string): boolean => t.split('.').length === 3 && !t.startsWith('{');

function reviewedToken(req: ApiRequest): string | null {
  if (req.method !== 'POST' || !req.path.split('?')[0]!.endsWith('/tokenreviews')) return null;
  try {
    const body = JSON.parse(bodyText(req)) as { spec?: { token?: unknown } };
    return typeof body.spec?.token === 'string' ? body.spec.token : null;
  } catch {
    return null;
  }
}

export function anticipatedNeeds(req: ApiRequest): Need[] {
  const needs: Need[] = [];
  if (req.identity === undefined) {
    const bearer = bearerToken(header(req.headers, 'authorization'));
    if (bearer.type === 'token' && looksLikeJws(bearer.token)) needs.push({ kind: 'jwsSignature', token: bearer.token });
    if (req.clientCertificate !== undefined && req.clientCertificate !== '') needs.push({ kind: 'certificateChain', pem: req.clientCertificate });
  }
  const reviewed = reviewedToken(req);
  if (reviewed !== null && looksLikeJws(reviewed)) needs.push({ kind: 'jwsSignature', token: reviewed });
  return needs;
}
