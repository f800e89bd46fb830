/**
 * `spec.trustBundle` (validation.go validateTrustBundle): at most 1 MiB; every PEM block a
 * header-less CERTIFICATE holding exactly one CA certificate (entries numbered from 0, every bad
 * one reported); if all are good, at least one, and no certificate twice. Go reports duplicate
 * groups in map order; here they are sorted by first index. Parsing DER is a crypto fact.
 */
import type { CryptoFacts } from '../../../api/crypto.ts';
import { bytesToBase64, utf8Encode } from '../../../core/base64.ts';
import { fieldError, type FieldError } from '../../../core/fieldErrors.ts';
import { limits } from '../../../core/limits.ts';
import { bytesToBinary } from '../goBase64.ts';
import { decodePemBlocks, type PemBlock } from '../pem.ts';

const path = 'spec.trustBundle';
const omitted = '<value omitted>';

function blockProblem(block: PemBlock, i: number, crypto: CryptoFacts): string | null {
  if (block.type !== 'CERTIFICATE') return `entry ${i} has bad block type: ${block.type}`;
  if (block.headerCount !== 0) return `entry ${i} has PEM block headers`;
  const parsed = crypto.parsedCertificates(bytesToBase64(block.bytes));
  // x509.ParseCertificate: exactly one certificate and nothing after it.
  if (!parsed.ok || parsed.certificates.length !== 1) return `entry ${i} does not parse as X.509`;
  const cert = parsed.certificates[0]!;
  if (!cert.isCA) return `entry ${i} does not have the CA bit set`;
  if (!cert.basicConstraintsValid) return `entry ${i} has invalid basic constraints`;
  return null;
}

export function validateTrustBundle(bundle: string, crypto: CryptoFacts): FieldError[] {
  const bytes = utf8Encode(bundle);
  if (bytes.length > limits.trustBundleBytesMax) return [fieldError.tooLong(path, limits.trustBundleBytesMax)];
  const errs: FieldError[] = [];
  const byDer = new Map<string, number[]>();
  decodePemBlocks(bytesToBinary(bytes)).forEach((block, i) => {
    const problem = blockProblem(block, i, crypto);
    if (problem !== null) errs.push(fieldError.invalid(path, omitted, problem));
    else {
      const key = bytesToBase64(block.bytes);
      byDer.set(key, [...(byDer.get(key) ?? []), i]);
    }
  });
  // A malformed block already explains the bundle; duplicates and emptiness would only repeat it.
  if (errs.length > 0) return errs;
  if (byDer.size === 0) return [fieldError.invalid(path, omitted, 'at least one trust anchor must be provided')];
  const groups = [...byDer.values()].filter((g) => g.length > 1).sort((a, b) => a[0]! - b[0]!);
  return groups.map((g) => fieldError.invalid(path, omitted, `duplicate trust anchor (indices [${g.join(' ')}])`));
}
