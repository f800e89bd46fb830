/**
 * Everything the fact resolver does with X.509, in one module it loads on first use
 * (factResolver.ts): verifying chains, reading certificate requests and certificates, issuing.
 */
export { certificateChainFact, parseCertificates } from './certificateChainFact.ts';
export { certificateRequestFact } from './certificateRequestFact.ts';
export { parsedCertificatesFact } from './parsedCertificatesFact.ts';
export { issueCertificate } from './issueCertificate.ts';
