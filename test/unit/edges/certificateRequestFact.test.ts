/**
 * The crypto facts of certificate requests and certificate DER, computed with @peculiar/x509
 * on requests and certificates generated here (Ed25519 and P-256), with Go's error wording.
 */
import { describe, expect, it } from 'vitest';
import { certificateRequestFact } from '../../../src/edges/crypto/certificateRequestFact.ts';
import { parsedCertificatesFact } from '../../../src/edges/crypto/parsedCertificatesFact.ts';
import { toPem, x509 } from '../../../src/edges/crypto/x509.ts';
import { bytesToBase64 } from '../../../src/core/base64.ts';

const ed25519 = { name: 'Ed25519' };
const p256 = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };

async function keys(alg: Algorithm | EcKeyGenParams) {
  return (await crypto.subtle.generateKey(alg as EcKeyGenParams, true, ['sign', 'verify'])) as CryptoKeyPair;
}

async function request(alg: Algorithm | EcKeyGenParams = ed25519, name = 'CN=system:node:n1, O=system:nodes'): Promise<x509.Pkcs10CertificateRequest> {
  return x509.Pkcs10CertificateRequestGenerator.create({
    name,
    keys: await keys(alg),
    signingAlgorithm: alg,
    extensions: [new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: 'n1.example' }, { type: 'ip', value: '10.0.0.1' }])],
  });
}

async function certificate(ca: boolean): Promise<x509.X509Certificate> {
  return x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=test',
    notBefore: new Date(Date.UTC(2026, 0, 1)),
    notAfter: new Date(Date.UTC(2027, 0, 1)),
    keys: await keys(ed25519),
    signingAlgorithm: ed25519,
    extensions: ca ? [new x509.BasicConstraintsExtension(true, undefined, true)] : [],
  });
}

describe('certificateRequestFact', () => {
  it('reads the subject, SANs and key type of a verified Ed25519 request', async () => {
    const fact = await certificateRequestFact((await request()).toString('pem'));
    expect(fact).toEqual({
      ok: true,
      subject: { commonName: 'system:node:n1', organizations: ['system:nodes'] },
      dnsNames: ['n1.example'],
      ipAddresses: ['10.0.0.1'],
      emailAddresses: [],
      uris: [],
      keyAlgorithm: 'Ed25519',
    });
  });

  it('accepts P-256 requests and skips text before the block', async () => {
    const fact = await certificateRequestFact(`explanatory text\n${(await request(p256, 'CN=alice')).toString('pem')}`);
    expect(fact).toMatchObject({ ok: true, keyAlgorithm: 'ECDSA', subject: { commonName: 'alice', organizations: [] } });
  });

  it('needs a CERTIFICATE REQUEST block first', async () => {
    const wrong = 'PEM block type must be CERTIFICATE REQUEST';
    expect(await certificateRequestFact('')).toEqual({ ok: false, message: wrong });
    expect(await certificateRequestFact('not pem at all')).toEqual({ ok: false, message: wrong });
    expect(await certificateRequestFact((await certificate(false)).toString('pem'))).toEqual({ ok: false, message: wrong });
  });

  it('reports malformed DER, trailing data and a bad signature as Go does', async () => {
    expect(await certificateRequestFact(toPem(new Uint8Array([1, 2, 3]), 'CERTIFICATE REQUEST'))).toEqual({ ok: false, message: 'x509: malformed certificate request' });
    const der = new Uint8Array((await request()).rawData);
    const trailing = new Uint8Array([...der, 0x05, 0x00]);
    expect(await certificateRequestFact(toPem(trailing, 'CERTIFICATE REQUEST'))).toEqual({ ok: false, message: 'asn1: syntax error: trailing data' });
    const tampered = Uint8Array.from(der);
    tampered[tampered.length - 1]! ^= 0xff;
    expect(await certificateRequestFact(toPem(tampered, 'CERTIFICATE REQUEST'))).toEqual({ ok: false, message: 'x509: Ed25519 verification failure' });
    const ecDer = Uint8Array.from(new Uint8Array((await request(p256)).rawData));
    ecDer[ecDer.length - 3]! ^= 0x01;
    expect(await certificateRequestFact(toPem(ecDer, 'CERTIFICATE REQUEST'))).toMatchObject({ ok: false });
  });
});

describe('parsedCertificatesFact', () => {
  const b64 = (c: x509.X509Certificate) => bytesToBase64(new Uint8Array(c.rawData));

  it('reports basic constraints of each concatenated certificate', async () => {
    const ca = await certificate(true);
    const leaf = await certificate(false);
    expect(await parsedCertificatesFact(b64(ca))).toEqual({ ok: true, certificates: [{ basicConstraintsValid: true, isCA: true }] });
    const both = bytesToBase64(new Uint8Array([...new Uint8Array(ca.rawData), ...new Uint8Array(leaf.rawData)]));
    expect(await parsedCertificatesFact(both)).toEqual({ ok: true, certificates: [{ basicConstraintsValid: true, isCA: true }, { basicConstraintsValid: false, isCA: false }] });
  });

  it('reads empty DER as no certificates and garbage as malformed', async () => {
    expect(await parsedCertificatesFact('')).toEqual({ ok: true, certificates: [] });
    expect(await parsedCertificatesFact(bytesToBase64(new Uint8Array([0x30, 0x03, 1, 2, 3])))).toEqual({ ok: false, message: 'x509: malformed certificate' });
    expect(await parsedCertificatesFact(bytesToBase64(new Uint8Array([0x30, 0x10, 1])))).toEqual({ ok: false, message: 'x509: malformed certificate' });
  });
});
