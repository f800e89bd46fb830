/**
 * Facts a request will certainly ask for, seen before the step runs: the verification of a
 * bearer JWT, of a TokenReview's token, of a client certificate, the reading of a created
 * CertificateSigningRequest's request (its validation parses it). Establishing them first saves
 * the pass that would only discover them (see factBook.ts). A guess that turns out unneeded
 * costs one verification and changes nothing: facts are pure functions of their inputs.
 */
import { bearerToken } from '../../auth/bearer.ts';
import { header } from '../../api/headers.ts';
import type { ApiRequest } from '../../endpoints/types.ts';
import { bodyText } from '../../endpoints/types.ts';
import type { Need } from '../../sim/factBook.ts';
import { decodeGoBase64Text } from '../../registry/certificates/goBase64.ts';
import { getOwn, isObject } from '../../core/json.ts';

const looksLikeJws = (t: string): boolean => t.split('.').length === 3 && !t.startsWith('{');

/** `spec[field]` of a JSON body POSTed to a collection named `collection` (other bodies: null). */
function postedSpecString(req: ApiRequest, collection: string, field: string): string | null {
  if (req.method !== 'POST' || !req.path.split('?')[0]!.endsWith(`/${collection}`)) return null;
  try {
    const body: unknown = JSON.parse(bodyText(req));
    const spec = isObject(body) ? getOwn(body, 'spec') : undefined;
    const value = isObject(spec) ? getOwn(spec, field) : undefined;
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

function requestedCertificate(req: ApiRequest): string | null {
  const request = postedSpecString(req, 'certificatesigningrequests', 'request');
  const decoded = request === null ? null : decodeGoBase64Text(request);
  return decoded?.ok === true ? decoded.text : null;
}

export function anticipatedNeeds(req: ApiRequest): Need[] {
  const needs: Need[] = [];
  if (req.identity === undefined) {
    const bearer = bearerToken(header(req.headers, 'authorization'));
    if (bearer.type === 'token' && looksLikeJws(bearer.token)) needs.push({ kind: 'jwsSignature', token: bearer.token });
    if (req.clientCertificate !== undefined && req.clientCertificate !== '') needs.push({ kind: 'certificateChain', pem: req.clientCertificate });
  }
  const reviewed = postedSpecString(req, 'tokenreviews', 'token');
  if (reviewed !== null && looksLikeJws(reviewed)) needs.push({ kind: 'jwsSignature', token: reviewed });
  const requested = requestedCertificate(req);
  if (requested !== null) needs.push({ kind: 'certificateRequest', pem: requested });
  return needs;
}
