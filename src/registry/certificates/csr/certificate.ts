/**
 * `status.certificate` content (validation.go validateCertificate): one or more CERTIFICATE PEM
 * blocks without headers, each holding at least one parseable certificate; text around blocks
 * is allowed. The first failing block decides. Parsing DER is a crypto fact (ctx.crypto).
 */
import type { CryptoFacts } from '../../../api/crypto.ts';
import { bytesToBase64 } from '../../../core/base64.ts';
import { decodePem } from '../pem.ts';

/** The reason the PEM text (binary string) is not a valid certificate chain, or null. */
export function certificateProblem(text: string, crypto: CryptoFacts): string | null {
  if (text.length === 0) return null;
  let rest = text;
  let blocks = 0;
  for (let guard = 0; guard <= text.length; guard++) {
    const found = decodePem(rest);
    if (found === null) break;
    const { block } = found;
    if (block.type !== 'CERTIFICATE') return `only CERTIFICATE PEM blocks are allowed, found ${JSON.stringify(block.type)}`;
    if (block.headerCount !== 0) return 'no PEM block headers are permitted';
    blocks++;
    const parsed = crypto.parsedCertificates(bytesToBase64(block.bytes));
    if (!parsed.ok) return parsed.message;
    if (parsed.certificates.length === 0) return 'found CERTIFICATE PEM block containing 0 certificates';
    rest = found.rest;
  }
  return blocks === 0 ? 'must contain at least one CERTIFICATE PEM block' : null;
}
