/**
 * The CertificateRequestFact of a CSR's PEM text (api/crypto.ts), with Go's wording: the first
 * PEM block must be a CERTIFICATE REQUEST (Go's pem.Decode rules), its DER a single PKCS#10
 * request, and its self-signature must verify (x509 CheckSignature messages per key type).
 */
import type { CertificateRequestFact } from '../../api/crypto.ts';
import { decodePem } from '../../registry/certificates/pem.ts';
import { derElements } from './derElements.ts';
import { x509 } from './x509.ts';
import { getOwn } from '../../core/json.ts';

const verificationFailure: Record<string, string> = {
  Ed25519: 'x509: Ed25519 verification failure',
  ECDSA: 'x509: ECDSA verification failure',
  RSA: 'crypto/rsa: verification error',
};

function keyAlgorithm(csr: x509.Pkcs10CertificateRequest): string {
  const name = csr.publicKey.algorithm.name;
  return name.startsWith('RSA') ? 'RSA' : name;
}

function parse(der: Uint8Array): x509.Pkcs10CertificateRequest | string {
  const elements = derElements(der);
  if (elements === null || elements.length === 0) return 'x509: malformed certificate request';
  if (elements.length > 1) return 'asn1: syntax error: trailing data';
  try {
    return new x509.Pkcs10CertificateRequest(new Uint8Array(der));
  } catch {
    return 'x509: malformed certificate request';
  }
}

async function verifies(csr: x509.Pkcs10CertificateRequest): Promise<boolean | string> {
  try {
    return await csr.verify();
  } catch {
    return 'x509: cannot verify signature: algorithm unimplemented';
  }
}

function names(csr: x509.Pkcs10CertificateRequest, type: string): string[] {
  const san = csr.extensions.find((e): e is x509.SubjectAlternativeNameExtension => e instanceof x509.SubjectAlternativeNameExtension);
  return san === undefined ? [] : san.names.items.filter((n) => n.type === type).map((n) => n.value);
}

/**
 * The last requests read and verified, by their PEM text: the signer issues from the request the
 * approver and validation have just read (a few, for requests created side by side).
 */
const recent = new Map<string, x509.Pkcs10CertificateRequest>();
const recentMax = 16;

export function rememberedRequest(pem: string): x509.Pkcs10CertificateRequest | undefined {
  return recent.get(pem);
}

/** `pem`: the request's bytes as a binary string (one char per byte). */
export async function certificateRequestFact(pem: string): Promise<CertificateRequestFact> {
  const found = decodePem(pem);
  if (found === null || found.block.type !== 'CERTIFICATE REQUEST') return { ok: false, message: 'PEM block type must be CERTIFICATE REQUEST' };
  const csr = parse(found.block.bytes);
  if (typeof csr === 'string') return { ok: false, message: csr };
  let algorithm: string;
  try {
    algorithm = keyAlgorithm(csr);
  } catch {
    return { ok: false, message: 'x509: malformed certificate request' };
  }
  const verified = await verifies(csr);
  if (typeof verified === 'string') return { ok: false, message: verified };
  if (!verified) return { ok: false, message: getOwn(verificationFailure, algorithm) ?? 'x509: signature verification failure' };
  if (recent.size >= recentMax) recent.delete(recent.keys().next().value!);
  recent.set(pem, csr);
  return {
    ok: true,
    subject: { commonName: csr.subjectName.getField('CN')[0] ?? '', organizations: csr.subjectName.getField('O') },
    dnsNames: names(csr, 'dns'),
    ipAddresses: names(csr, 'ip'),
    emailAddresses: names(csr, 'email'),
    uris: names(csr, 'url'),
    keyAlgorithm: algorithm,
  };
}

