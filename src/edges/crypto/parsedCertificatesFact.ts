/**
 * The ParsedCertificatesFact of DER bytes (api/crypto.ts): Go's x509.ParseCertificates walks
 * concatenated certificates and fails on the first malformed one with `x509: malformed
 * certificate`; each parsed certificate reports its basic constraints.
 */
import type { ParsedCertificate, ParsedCertificatesFact } from '../../api/crypto.ts';
import { base64ToBytes } from '../../core/base64.ts';
import { derElements } from './derElements.ts';
import { x509 } from './x509.ts';

const malformed = { ok: false, message: 'x509: malformed certificate' } as const;

/** What status.certificate validation reads of a parsed certificate. */
function describeCertificate(cert: x509.X509Certificate): ParsedCertificate {
  const bc = cert.getExtension(x509.BasicConstraintsExtension);
  return { basicConstraintsValid: bc !== null, isCA: bc?.ca ?? false };
}

function describe(der: Uint8Array): ParsedCertificate | null {
  try {
    return describeCertificate(new x509.X509Certificate(new Uint8Array(der)));
  } catch {
    return null;
  }
}

/** `der`: standard base64 of the DER bytes. */
export async function parsedCertificatesFact(der: string): Promise<ParsedCertificatesFact> {
  const bytes = base64ToBytes(der);
  if (bytes === null) return malformed;
  const elements = derElements(bytes);
  if (elements === null) return malformed;
  const certificates: ParsedCertificate[] = [];
  for (const element of elements) {
    const cert = describe(element);
    if (cert === null) return malformed;
    certificates.push(cert);
  }
  return { ok: true, certificates };
}
