/**
 * The facts a request will certainly ask for, established before its first pass: a bearer JWT,
 * a reviewed token, a client certificate, a created CertificateSigningRequest's request. Anything
 * else (a non-JSON body, an undecodable request, another collection) anticipates nothing.
 */
import { describe, expect, it } from 'vitest';
import { anticipatedNeeds } from '../../../src/edges/simulation/anticipate.ts';
import type { ApiRequest } from '../../../src/endpoints/types.ts';

const csrs = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
const post = (path: string, body: unknown, headers: Record<string, string> = {}): ApiRequest => ({ method: 'POST', path, headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
const pem = '-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----\n';

describe('anticipated facts', () => {
  it("a created CSR's request, decoded from base64 as validation reads it", () => {
    expect(anticipatedNeeds(post(csrs, { spec: { request: btoa(pem) } }))).toEqual([{ kind: 'certificateRequest', pem }]);
    expect(anticipatedNeeds(post(`${csrs}?fieldManager=me`, { spec: { request: btoa(pem) } }))).toEqual([{ kind: 'certificateRequest', pem }]);
  });

  it('nothing for bodies it cannot read that way', () => {
    expect(anticipatedNeeds(post(csrs, { spec: { request: 'not base64!' } }))).toEqual([]);
    expect(anticipatedNeeds(post(csrs, 'spec: {request: AAAA}'))).toEqual([]);
    expect(anticipatedNeeds(post('/api/v1/namespaces/default/configmaps', { spec: { request: btoa(pem) } }))).toEqual([]);
    expect(anticipatedNeeds({ method: 'PUT', path: `${csrs}/a`, headers: {}, body: JSON.stringify({ spec: { request: btoa(pem) } }) })).toEqual([]);
  });

  it('bearer JWTs and reviewed tokens, verified before the pass that would discover them', () => {
    const jwt = 'eyJhbGciOiJFZERTQSJ9.e30.c2ln';
    expect(anticipatedNeeds(post('/apis/authentication.k8s.io/v1/tokenreviews', { spec: { token: jwt } }, { authorization: `Bearer ${jwt}` }))).toEqual([
      { kind: 'jwsSignature', token: jwt },
      { kind: 'jwsSignature', token: jwt },
    ]);
  });
});
