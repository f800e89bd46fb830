/**
 * Everything the fact resolver does with X.509, in one module it loads on first use
 * (factResolver.ts): verifying chains, reading certificate requests and certificates, issuing.
 */
import type { Need } from '../../sim/factBook.ts';
import { bytesToBase64 } from '../../core/base64.ts';
import { decodePemBlocks } from '../../registry/certificates/pem.ts';
import { certificateChainFact, parseCertificates, type TrustRoots } from './certificateChainFact.ts';
import { certificateRequestFact } from './certificateRequestFact.ts';
import { parsedCertificatesFact } from './parsedCertificatesFact.ts';
import { issueCertificate } from './issueCertificate.ts';

export { certificateChainFact, certificateRequestFact, issueCertificate, parseCertificates, parsedCertificatesFact };

/**
 * The facts the next steps will ask of a certificate the signer has just issued — its DER parsed
 * (status.certificate validation, which reads the blocks with the same decoder) and its chain
 * (the cleaner reads its expiry) — established with the issuance: the same values they would
 * have (facts are functions of their inputs), without a pass of the step for each.
 */
export async function factsOfIssued(pem: string, roots: TrustRoots): Promise<(readonly [Need, unknown])[]> {
  const out: (readonly [Need, unknown])[] = [[{ kind: 'certificateChain', pem }, await certificateChainFact(pem, roots)]];
  for (const block of decodePemBlocks(pem)) {
    const der = bytesToBase64(block.bytes);
    out.push([{ kind: 'parsedCertificates', der }, await parsedCertificatesFact(der)]);
  }
  return out;
}
