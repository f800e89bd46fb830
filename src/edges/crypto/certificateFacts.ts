/**
 * Everything the fact resolver does with X.509, in one module it loads on first use
 * (factResolver.ts): verifying chains, reading certificate requests and certificates, issuing.
 */
export { certificateChainFact, parseCertificates } from './certificateChainFact.ts';
export { certificateRequestFact } from './certificateRequestFact.ts';
export { parsedCertificatesFact } from './parsedCertificatesFact.ts';
export { issueCertificate } from './issueCertificate.ts';

import type { Need } from '../../sim/factBook.ts';
import { bytesToBase64 } from '../../core/base64.ts';
import { certificateChainFact as chainFact, type TrustRoots } from './certificateChainFact.ts';
import { parsedCertificatesFact as parsedFact } from './parsedCertificatesFact.ts';
import { pemBlocks } from './x509.ts';

/**
 * The facts the next steps will ask of a certificate the signer has just issued — its DER parsed
 * (status.certificate validation) and its chain (the cleaner reads its expiry) — established with
 * the issuance: the same values they would have (facts are functions of their inputs), without a
 * pass of the step for each.
 */
export async function factsOfIssued(pem: string, roots: TrustRoots): Promise<(readonly [Need, unknown])[]> {
  const out: (readonly [Need, unknown])[] = [[{ kind: 'certificateChain', pem }, await chainFact(pem, roots)]];
  for (const block of pemBlocks(pem, 'CERTIFICATE')) {
    const body = block.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
    const bytes = Uint8Array.from(atob(body), (c) => c.charCodeAt(0));
    const der = bytesToBase64(bytes);
    out.push([{ kind: 'parsedCertificates', der }, await parsedFact(der)]);
  }
  return out;
}
