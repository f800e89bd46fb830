/**
 * Everything the fact resolver does with X.509, in one module it loads on first use
 * (factResolver.ts): verifying chains, reading certificate requests and certificates, issuing.
 */
import type { Need } from '../../sim/factBook.ts';
import { bytesToBase64 } from '../../core/base64.ts';
import { certificateChainFact, chainFactOf, parseCertificates, type TrustRoots } from './certificateChainFact.ts';
import { certificateRequestFact } from './certificateRequestFact.ts';
import { parsedCertificatesFact } from './parsedCertificatesFact.ts';
import { issueCertificate, type IssuedLeafCertificate } from './issueCertificate.ts';
import type { x509 } from './x509.ts';

export { certificateChainFact, certificateRequestFact, issueCertificate, parseCertificates, parsedCertificatesFact };

/**
 * The facts the next steps will ask of a certificate the signer has just issued — its DER parsed
 * (status.certificate validation) and its chain (the cleaner reads its expiry) — established with
 * the issuance from the certificate the issuance parsed, and trusting the signature the signer
 * has just made: the same values they would have from the PEM alone (facts are functions of their
 * inputs; a test compares them), without a pass of the step, or a parse, for each.
 */
export async function factsOfIssued(issued: IssuedLeafCertificate, signer: x509.X509Certificate, roots: TrustRoots): Promise<(readonly [Need, unknown])[]> {
  const der = bytesToBase64(new Uint8Array(issued.certificate.rawData));
  return [
    [{ kind: 'certificateChain', pem: issued.fact.pem }, await chainFactOf([issued.certificate], roots, { signer, extendedKeyUsages: issued.extendedKeyUsages })],
    [{ kind: 'parsedCertificates', der }, { ok: true, certificates: [{ basicConstraintsValid: true, isCA: false }] }],
  ];
}
