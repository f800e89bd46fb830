/**
 * Kubernetes protobuf request bodies: real bytes captured from kubectl 1.32's typed commands
 * (fixtures/*.b64), and messages built here with a small encoder for kinds kubectl sends less
 * easily (a CSR approval with conditions and timestamps). Malformed input is an error, not a crash.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeKubernetesProtobuf } from '../../../src/store/decode/protobuf/decodeProtobuf.ts';

const fixture = (name: string): Uint8Array => new Uint8Array(Buffer.from(readFileSync(join(import.meta.dirname, 'fixtures', `${name}.b64`), 'utf8').trim(), 'base64'));

/** Test-only protobuf writer: field tags, varints and length-delimited values. */
const varint = (n: number): number[] => {
  const out: number[] = [];
  let v = n;
  while (v >= 128) {
    out.push((v % 128) | 128);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
};
const ld = (field: number, bytes: number[] | string): number[] => {
  const b = typeof bytes === 'string' ? [...new TextEncoder().encode(bytes)] : bytes;
  return [...varint(field * 8 + 2), ...varint(b.length), ...b];
};
const vi = (field: number, n: number): number[] => [...varint(field * 8), ...varint(n)];
const envelope = (apiVersion: string, kind: string, raw: number[]): Uint8Array => new Uint8Array([0x6b, 0x38, 0x73, 0, ...ld(1, [...ld(1, apiVersion), ...ld(2, kind)]), ...ld(2, raw)]);

describe('Kubernetes protobuf bodies', () => {
  it('decodes what kubectl sends', () => {
    const objects = Object.fromEntries(
      ['serviceaccount', 'secret', 'configmap', 'namespace', 'selfsubjectreview', 'tokenrequest', 'selfsubjectaccessreview'].map((n) => {
        const d = decodeKubernetesProtobuf(fixture(n));
        if (!d.ok) throw new Error(d.message);
        return [n, d.object];
      }),
    );
    expect(objects).toEqual({
      serviceaccount: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa1' } },
      secret: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, data: { a: 'Yg==' } },
      configmap: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1' }, data: { k: 'v' } },
      namespace: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n1' }, spec: {}, status: {} },
      selfsubjectreview: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview', metadata: {}, status: { userInfo: {} } },
      tokenrequest: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: {}, spec: { audiences: ['x'], expirationSeconds: 1200 }, status: {} },
      selfsubjectaccessreview: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', metadata: {}, spec: { resourceAttributes: { namespace: 'n1', verb: 'get', resource: 'pods' } }, status: {} },
    });
  });

  it('decodes a CSR approval: bytes, maps, repeated messages, times, pointer fields', () => {
    const time = (seconds: number): number[] => vi(1, seconds);
    const meta = [...ld(1, 'c1'), ...ld(6, '42'), ...ld(8, time(1767225600)), ...ld(11, [...ld(1, 'team'), ...ld(2, 'a')])];
    const spec = [...ld(1, [0x2d, 0x2d]), ...ld(7, 'example.com/s'), ...vi(8, 600), ...ld(5, 'client auth'), ...ld(2, 'alice'), ...ld(4, 'dev'), ...ld(4, 'ops'), ...ld(6, [...ld(1, 'scopes'), ...ld(2, [...ld(1, 'x'), ...ld(1, 'y')])])];
    const condition = [...ld(1, 'Approved'), ...ld(6, 'True'), ...ld(2, 'AdminApproval'), ...ld(4, time(1767225660)), ...ld(5, time(1767225660))];
    const status = [...ld(1, condition)];
    const d = decodeKubernetesProtobuf(envelope('certificates.k8s.io/v1', 'CertificateSigningRequest', [...ld(1, meta), ...ld(2, spec), ...ld(3, status), ...ld(99, 'ignored')]));
    expect(d).toEqual({
      ok: true,
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      object: {
        apiVersion: 'certificates.k8s.io/v1',
        kind: 'CertificateSigningRequest',
        metadata: { name: 'c1', resourceVersion: '42', creationTimestamp: '2026-01-01T00:00:00Z', labels: { team: 'a' } },
        spec: { request: 'LS0=', signerName: 'example.com/s', expirationSeconds: 600, usages: ['client auth'], username: 'alice', groups: ['dev', 'ops'], extra: { scopes: ['x', 'y'] } },
        status: { conditions: [{ type: 'Approved', status: 'True', reason: 'AdminApproval', lastUpdateTime: '2026-01-01T00:01:00Z', lastTransitionTime: '2026-01-01T00:01:00Z' }] },
      },
    });
  });

  it('keeps a pointer field set to false, drops zero scalars', () => {
    const d = decodeKubernetesProtobuf(envelope('v1', 'ServiceAccount', [...ld(1, [...ld(1, 'sa'), ...ld(2, '')]), ...vi(4, 0)]));
    expect(d.ok && d.object).toEqual({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa' }, automountServiceAccountToken: false });
  });

  it('refuses what is not a protobuf message of a known kind', () => {
    expect(decodeKubernetesProtobuf(new TextEncoder().encode('{"kind":"ServiceAccount"}'))).toEqual({ ok: false, message: 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]' });
    expect(decodeKubernetesProtobuf(envelope('apps/v1', 'Deployment', []))).toEqual({ ok: false, message: 'no kind "Deployment" is registered for version "apps/v1" in the protobuf decoder' });
    const truncated = fixture('tokenrequest').slice(0, -3);
    expect(decodeKubernetesProtobuf(truncated)).toEqual({ ok: false, message: 'unable to decode protobuf: unexpected EOF' });
    expect(decodeKubernetesProtobuf(new Uint8Array([0x6b, 0x38, 0x73, 0, 0x0f]))).toMatchObject({ ok: false });
  });
});
